import fs from 'node:fs';

/** Debian's Chromium; the suite never downloads a browser. */
export const CHROMIUM_PATH = process.env.VIGIL_E2E_CHROMIUM ?? '/usr/bin/chromium';

export const hasChromium = fs.existsSync(CHROMIUM_PATH);

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Said once per file when the browser is missing, so a skipped suite is never silent. Under CI
 * (CI=true) a missing browser is a broken set-up, not a reason to skip: the file fails.
 */
export const warnWhenNoChromium = (
  suite: string,
  present: boolean = hasChromium,
  ci: boolean = process.env.CI === 'true',
): void => {
  if (present) return;
  const why = `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set VIGIL_E2E_CHROMIUM)`;
  if (ci) throw new Error(`e2e ${suite}: ${why}; CI must run the browser tests (.ci/run installs it)`);
  console.warn(`e2e ${suite}: skipped, ${why}`);
};
