import { deviceCalls } from '@vigil/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type RunningDemo } from '../apps/server/src/modules/gateway/index.ts';
import { EmbeddedBroker } from '../apps/server/src/modules/gateway/testing.ts';
import { launchBrowser, openSession, settled, signIn, stillScreenshot, text } from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import { apiLogin, startServer, type E2eServer } from './support/server.ts';
import { SCREENS } from './support/screens.ts';

warnWhenNoChromium('device state');

// Issue 29, point 8: the demo's sleep monitors show the same online, installed and sensor state on
// the bed list, the device list and the resident's live page, in Chinese and English, on a desktop
// (1440 px) and a phone (390 px): the server derives it once (decision 0034).

/** The state tags of one device, in the order every screen shows them. */
const STATE_TAGS = ['online', 'install', 'pair', 'sensor'].map((t) => `[data-testid="device-${t}"]`).join(', ');
const tagsIn = (scope: Locator): Promise<string[]> => scope.locator(STATE_TAGS).allTextContents();
/** A list's row on a desktop, its card on a phone (issue 29, point 13). */
const ROW = 'tr.ant-table-row, [data-testid="list-card"]';

interface Monitor {
  deviceId: string;
  userId: number;
}

describe.skipIf(!hasChromium)('one device state on every screen (browser)', () => {
  let server: E2eServer;
  let demo: RunningDemo;
  let browser: Browser;
  let monitors: Monitor[] = [];

  beforeAll(async () => {
    server = await startServer();
    const broker = server.app.services.gateway.broker;
    if (!(broker instanceof EmbeddedBroker)) throw new Error('expected the embedded broker');
    const started = await startDemo({
      db: server.app.database.db,
      settings: server.app.services.settings,
      sessions: server.app.services.store,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      dataDir: server.app.config.dataDir,
      api: server.baseUrl,
      mqttUrl: `mqtt://127.0.0.1:${broker.port}`,
    });
    if (!started?.login) throw new Error('the demo care home was not created');
    demo = started;
    // The demo's sleep monitors on beds, with their residents, once they stream.
    const { token } = await apiLogin(server, demo.login ?? { userName: '', password: '' });
    for (let waited = 0; monitors.length < 4; waited += 1_000) {
      if (waited > 60_000) throw new Error(`only ${monitors.length} of the demo's monitors on beds came online`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const res = await server.app.call(deviceCalls.getDeviceList, { kind: 'sleep', pageSize: 50 }, { token });
      monitors = (res.data?.rows ?? []).flatMap((r) =>
        r.userId !== null && r.online ? [{ deviceId: r.deviceId, userId: r.userId }] : [],
      );
    }
    browser = await launchBrowser();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
    await server?.close();
  });

  /**
   * Scrolls a table sideways to show `cell` (a phone's tables scroll), then the page back to its top,
   * so a full-page screenshot shows the state without the sticky bar drawn across it.
   */
  const showSideways = async (page: Page, cell: Locator) => {
    await cell.scrollIntoViewIfNeeded();
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
  };

  /** Every monitor's tags on the three screens, read one screen after the other. */
  const readScreens = async (page: Page, shot: (name: string) => Promise<void>) => {
    const seen: Record<'beds' | 'devices' | 'resident', Record<string, string[]>> = {
      beds: {},
      devices: {},
      resident: {},
    };
    await page.goto('/BunkManage/index');
    await settled(page);
    await page.getByTestId(`bed-device-${monitors[0]?.deviceId ?? ''}`).waitFor();
    for (const m of monitors) seen.beds[m.deviceId] = await tagsIn(page.getByTestId(`bed-device-${m.deviceId}`));
    // On a phone the table scrolls sideways: the screenshot shows the device column.
    await showSideways(page, page.getByTestId(`bed-device-${monitors[0]?.deviceId ?? ''}`));
    await shot('beds');

    await page.goto('/deviceManage/deviceManage');
    await settled(page);
    const row = (id: string) => page.locator(ROW, { hasText: id });
    await row(monitors[0]?.deviceId ?? '').waitFor();
    for (const m of monitors) seen.devices[m.deviceId] = await tagsIn(row(m.deviceId));
    await showSideways(page, row(monitors[0]?.deviceId ?? '').locator('[data-testid="device-install"]'));
    await shot('devices');

    for (const [index, m] of monitors.entries()) {
      await page.goto(`/realMonitor/resident?userId=${m.userId}`);
      await settled(page);
      const device = page.getByTestId('resident-devices').locator(ROW, { hasText: m.deviceId });
      await device.waitFor();
      seen.resident[m.deviceId] = await tagsIn(device);
      if (index === 0) {
        await page.getByTestId('heart-rate-chart').locator('canvas').first().waitFor();
        // A few live seconds on the charts.
        await page.waitForTimeout(3_000);
        await shot('resident');
      }
    }
    return seen;
  };

  for (const { language, width } of SCREENS) {
    it(`shows each monitor alike on the bed list, the device list and its resident's page (${language}, ${width} px)`, async () => {
      const { page, context, problems } = await openSession(browser, server, { language });
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await signIn(page, demo.login ?? { userName: '', password: '' });
      const shot = (name: string) => stillScreenshot(page, `device-state-${name}-${language}-${width}`);
      // A monitor may start measuring (its resident lies down) between two screens: read again then.
      let seen = await readScreens(page, shot);
      for (let attempt = 0; attempt < 2 && JSON.stringify(seen.beds) !== JSON.stringify(seen.resident); attempt++) {
        seen = await readScreens(page, shot);
      }
      const online = text(language, 'deviceState.online');
      const atBed = text(language, 'deviceState.install.bed');
      for (const m of monitors) {
        expect(seen.devices[m.deviceId], m.deviceId).toEqual(seen.beds[m.deviceId]);
        expect(seen.resident[m.deviceId], m.deviceId).toEqual(seen.beds[m.deviceId]);
        // Streaming from its bed: online and installed there, whatever its sensor says.
        expect(seen.beds[m.deviceId]?.slice(0, 2), m.deviceId).toEqual([online, atBed]);
      }
      expect(problems).toEqual([]);
      await context.close();
    }, 180_000);
  }
});
