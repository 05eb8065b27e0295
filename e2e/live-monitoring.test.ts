import { createClient, topicOf } from '@vigil/contract';
import { connectAsync, type MqttClient } from 'mqtt';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedBroker } from '../apps/server/src/modules/gateway/testing.ts';
import { linkBed, placeBed } from '../apps/server/src/modules/devices/device-test-support.ts';
import { parseDeviceCounts, planFleet, provisionFleet, secretsFor } from '../apps/simulator/src/index.ts';
import { launchBrowser, openSession, settled, signIn, stillScreenshot } from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import { apiLogin, createProvider, startServer, type E2eServer, type Login } from './support/server.ts';

warnWhenNoChromium('live monitoring');

// Issue 10: a sleep monitor streams (this test publishes its telemetry, so the readings are known);
// the resident list shows the bed's live heart rate, the resident is made a focus resident there,
// its card on /realMonitor/index follows the vitals, and the resident page draws the charts and
// lists the device.

const PASSWORD = 'Care#Home2026';
const RESIDENT = 'Ruth Calder';

/** A heart rate as the screens show it: a number of beats per minute, not the "—" of no reading. */
const beats = (text: string | null) => Number(/(\d+)/.exec(text ?? '')?.[1] ?? NaN);

describe.skipIf(!hasChromium)('live monitoring (browser)', () => {
  let server: E2eServer;
  let browser: Browser;
  let monitor: MqttClient;
  let streaming: NodeJS.Timeout | undefined;
  let heartRate = 72;
  let residentId = 0;
  const home: Login = { userName: 'ashHome', password: PASSWORD };

  beforeAll(async () => {
    server = await startServer();
    const group = await createProvider(server, { name: 'Ash Group', userName: 'ashGroup', password: PASSWORD });
    const groupToken = (await apiLogin(server, { userName: 'ashGroup', password: PASSWORD })).token;
    const homeProvider = await createProvider(server, { name: 'Ash Home', ...home, parentId: group.id }, groupToken);
    const plan = planFleet(parseDeviceCounts('sleep=1'), 'ASH');
    const secrets = secretsFor(plan, 'ash', 'e2e');
    const admin = createClient({
      baseUrl: server.baseUrl,
      getToken: () => server.adminToken,
      getLanguage: () => 'en-US',
    });
    await provisionFleet(plan, secrets, {
      api: server.baseUrl,
      adminUser: '',
      adminPassword: '',
      client: admin,
      providerId: homeProvider.id,
    });
    const bed = await placeBed(server.app, homeProvider.id, {
      area: 'Ash House',
      room: '201',
      bed: 'A',
      resident: RESIDENT,
    });
    residentId = bed.residentId ?? 0;
    const deviceId = plan.devices[0]?.id ?? '';
    await linkBed(server.app, bed.bedId, deviceId);
    await server.app.services.gateway.directory.load();
    const broker = server.app.services.gateway.broker;
    if (!(broker instanceof EmbeddedBroker)) throw new Error('expected the embedded broker');
    monitor = await connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId: deviceId,
      username: deviceId,
      password: secrets[deviceId],
    });
    let seq = 1;
    streaming = setInterval(() => {
      const sample = { ts: Date.now() / 1000, seq: seq++, hr: heartRate, rr: 15, inBed: true, asleep: false, move: 3 };
      void monitor.publishAsync(topicOf(deviceId, 'telemetry'), JSON.stringify(sample));
    }, 500);
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    clearInterval(streaming);
    await monitor?.endAsync();
    await server?.close();
  });

  it('shows live vitals in the list, on a focus card and on the resident page', async () => {
    const { page, context, problems } = await openSession(browser, server);
    await signIn(page, home);

    await page.goto('/realMonitor/residentList');
    await settled(page);
    const heart = page.getByTestId(`heart-rate-${residentId}`);
    await heart.waitFor();
    await expect.poll(async () => beats(await heart.textContent()), { timeout: 20_000 }).toBe(72);
    // A new reading reaches the row over the socket, without a reload.
    heartRate = 81;
    await expect.poll(async () => beats(await heart.textContent()), { timeout: 10_000 }).toBe(81);
    await expect
      .poll(() => page.getByTestId(`live-status-${residentId}`).textContent(), { timeout: 10_000 })
      .toBe('In bed');
    await stillScreenshot(page, 'monitor-01-resident-list');
    const star = page.getByTestId(`focus-toggle-${residentId}`);
    await star.click();
    await expect.poll(() => star.getAttribute('aria-pressed'), { timeout: 15_000 }).toBe('true');

    await page.goto('/realMonitor/index');
    await settled(page);
    const card = page.getByTestId(`focus-card-${residentId}`);
    await card.waitFor();
    const cardHeart = card.getByTestId(`heart-rate-${residentId}`);
    await expect.poll(async () => beats(await cardHeart.textContent()), { timeout: 20_000 }).toBe(81);
    heartRate = 66;
    await expect.poll(async () => beats(await cardHeart.textContent()), { timeout: 10_000 }).toBe(66);
    await stillScreenshot(page, 'monitor-02-focus-card');

    await card.click();
    await page.waitForURL(`**/realMonitor/resident?userId=${residentId}`);
    await settled(page);
    await page.getByTestId('heart-rate-chart').locator('canvas').first().waitFor();
    const headerHeart = page.getByTestId('resident-header').getByTestId(`heart-rate-${residentId}`);
    await expect.poll(async () => beats(await headerHeart.textContent()), { timeout: 10_000 }).toBe(66);
    expect(await page.getByTestId('resident-devices').textContent()).toContain('Online');
    await stillScreenshot(page, 'monitor-03-resident-page');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
