import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type RunningDemo } from '../apps/server/src/modules/gateway/index.ts';
import { EmbeddedBroker } from '../apps/server/src/modules/gateway/testing.ts';
import {
  launchBrowser,
  openSession,
  settled,
  signIn,
  stillScreenshot,
  type BrowserSession,
} from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import { startServer, type E2eServer } from './support/server.ts';

warnWhenNoChromium('devices-live');

// Issue 9: the demo care home's simulated devices connect over MQTT; its manager sees them online
// in the device list, and a device that goes away turns offline on the open page, no reload.

describe.skipIf(!hasChromium)('devices online and offline, live', () => {
  let server: E2eServer;
  let demo: RunningDemo;
  let browser: Browser;
  let session: BrowserSession;

  beforeAll(async () => {
    server = await startServer();
    const gateway = server.app.services.gateway;
    const broker = gateway.broker;
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
    browser = await launchBrowser();
    session = await openSession(browser, server);
  }, 180_000);

  afterAll(async () => {
    await session?.context.close();
    await browser?.close();
    await demo?.stop();
    await server?.close();
  });

  it('shows the demo’s sleep monitors online, and one stopped by the simulator goes offline', async () => {
    const { page } = session;
    await signIn(page, { userName: demo.login?.userName ?? '', password: demo.login?.password ?? '' });
    await page.goto('/deviceManage/deviceManage');
    await settled(page);
    const monitors = demo.plan.devices.filter((d) => d.kind === 'sleep_monitor').map((d) => d.id);
    const rowOf = (id: string) => page.locator('tr.ant-table-row', { hasText: id });
    for (const id of monitors) {
      await expect.poll(() => rowOf(id).textContent(), { timeout: 30_000 }).toContain('Online');
    }
    await stillScreenshot(page, 'devices-live-online');

    const [stopped] = monitors;
    if (!stopped) throw new Error('no sleep monitor in the demo');
    // The connection drops without a goodbye: the broker publishes its last will.
    await demo.fleet.stopDevice(stopped, 'abrupt');
    await expect.poll(() => rowOf(stopped).textContent(), { timeout: 45_000 }).toContain('Offline');
    for (const id of monitors.slice(1)) expect(await rowOf(id).textContent()).toContain('Online');
    await stillScreenshot(page, 'devices-live-offline');
    expect(session.problems).toEqual([]);
  });
});
