import type { ConfigProviderProps } from 'antd';

/** Ant Design's own font stack has no CJK face; headless browsers have none either, so the bundled Noto fonts come first. */
const FONT_FAMILY =
  "-apple-system, 'Segoe UI', Roboto, 'Noto Sans SC', 'Noto Sans JP', 'Noto Sans KR', 'Helvetica Neue', Arial, sans-serif";

/**
 * The console-wide Ant Design settings (everything but the locale, which main.tsx loads per language).
 * `autoInsertSpace: false`: antd would otherwise write a two-character CJK button as „確 認“ / „确 定“.
 */
export const CONSOLE_ANTD_CONFIG = {
  theme: {
    token: { colorPrimary: '#1f6feb', fontFamily: FONT_FAMILY },
    components: { Layout: { siderBg: '#001529' } },
  },
  button: { autoInsertSpace: false },
} satisfies ConfigProviderProps;

/** The settings with antd's motion on or off (off when the system asks for reduced motion). */
export const consoleAntdConfig = ({ motion }: { motion: boolean }) =>
  ({
    ...CONSOLE_ANTD_CONFIG,
    theme: { ...CONSOLE_ANTD_CONFIG.theme, token: { ...CONSOLE_ANTD_CONFIG.theme.token, motion } },
  }) satisfies ConfigProviderProps;

/**
 * Where alarm popups (antd notifications) appear: below the 56 px top bar, not over it. At antd's
 * default 24 px a level 1 popup, which stays until handled, covered the bell and the account menu.
 */
export const CONSOLE_NOTIFICATIONS = { top: 64 } as const;
