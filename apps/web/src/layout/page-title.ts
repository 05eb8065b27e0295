/** The browser tab title: "<screen> - <platform>", the platform alone off a menu screen. */
export const pageTitle = (screen: string | null | undefined, platform: string): string => {
  const name = screen?.trim();
  return name ? `${name} - ${platform}` : platform;
};
