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

/** Said once per file when the browser is missing, so a skipped suite is never silent. */
export const warnWhenNoChromium = (suite: string): void => {
  if (!hasChromium) {
    console.warn(
      `e2e ${suite}: skipped, no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set VIGIL_E2E_CHROMIUM)`,
    );
  }
};
