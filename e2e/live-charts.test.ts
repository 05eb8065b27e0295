import { alarmCalls, createClient, topicOf } from '@vigil/contract';
import { connectAsync, type MqttClient } from 'mqtt';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarms, deviceMinutes } from '../apps/server/src/db/schema.ts';
import { EmbeddedBroker } from '../apps/server/src/modules/gateway/testing.ts';
import { defaultBedRules } from '../apps/server/src/modules/alarms/bed-alarm-settings.service.ts';
import { linkBed, placeBed } from '../apps/server/src/modules/devices/device-test-support.ts';
import { parseDeviceCounts, planFleet, provisionFleet, secretsFor } from '../apps/simulator/src/index.ts';
import { launchBrowser, openSession, settled, signIn, stillScreenshot } from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import { apiLogin, createProvider, startServer, type E2eServer, type Login } from './support/server.ts';
import { SCREENS } from './support/screens.ts';

warnWhenNoChromium('live charts');

// Issue 29, point 9: the resident page's charts over a real hour — minutes with a gap (out of bed),
// an abnormal heart rate alarm, the bed's own limits — then live samples that end in readings of 0
// (none measured). The charts keep clinical ranges with whole-number ticks, shade the limits, mark
// the alarm, and never draw a line down to the axis at the live edge.

const PASSWORD = 'Care#Home2026';

describe.skipIf(!hasChromium)('live charts (browser)', () => {
  let server: E2eServer;
  let browser: Browser;
  let monitor: MqttClient;
  let streaming: NodeJS.Timeout | undefined;
  /** What the monitor sends now: measured rates, or 0 (none measured). */
  let sample = { hr: 68, rr: 15 };
  let residentId = 0;
  const home: Login = { userName: 'elmHome', password: PASSWORD };

  beforeAll(async () => {
    server = await startServer();
    const group = await createProvider(server, { name: 'Elm Group', userName: 'elmGroup', password: PASSWORD });
    const groupToken = (await apiLogin(server, { userName: 'elmGroup', password: PASSWORD })).token;
    const homeProvider = await createProvider(server, { name: 'Elm Home', ...home, parentId: group.id }, groupToken);
    const homeToken = (await apiLogin(server, home)).token;
    const plan = planFleet(parseDeviceCounts('sleep=1'), 'ELM');
    const secrets = secretsFor(plan, 'elm', 'e2e');
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
      area: 'Elm House',
      room: '3',
      bed: 'A',
      resident: 'Ivy Moss',
    });
    residentId = bed.residentId ?? 0;
    const deviceId = plan.devices[0]?.id ?? '';
    await linkBed(server.app, bed.bedId, deviceId);
    await server.app.services.gateway.directory.load();

    // The bed's own limits: the bands the charts shade.
    const saved = await server.app.call(
      alarmCalls.saveBedAlarmSetting,
      {
        userId: residentId,
        rules: { ...defaultBedRules(), heartMin: 50, heartMax: 100, breathMin: 10, breathMax: 25 },
      },
      { token: homeToken },
    );
    if (saved.status !== 200) throw new Error(`saveBedAlarmSetting: ${saved.msg}`);

    // The last hour, minute by minute: a night's rates with a few minutes out of bed, and a rise of
    // the heart rate over its limit that raised an alarm 20 minutes ago.
    const now = Date.now();
    const minuteStart = Math.floor(now / 60_000) * 60_000;
    const rows = [];
    for (let m = 58; m >= 2; m--) {
      const out = m >= 38 && m <= 41;
      const high = m >= 18 && m <= 22;
      const hr = high ? 104 + (m % 3) : 62 + Math.round(4 * Math.sin(m / 5));
      const rr = 14 + Math.round(2 * Math.cos(m / 4));
      rows.push({
        deviceId,
        minute: new Date(minuteStart - m * 60_000),
        providerId: homeProvider.id,
        residentId,
        samples: 60,
        hrSamples: out ? 0 : 60,
        hrAvg: out ? null : hr,
        rrSamples: out ? 0 : 60,
        rrAvg: out ? null : rr,
        inBedSeconds: out ? 0 : 60,
        asleepSeconds: out ? 0 : 60,
        moveAvg: 1,
        moveMax: 3,
      });
    }
    await server.app.database.db.insert(deviceMinutes).values(rows);
    const raisedAt = new Date(minuteStart - 20 * 60_000);
    await server.app.database.db.insert(alarms).values({
      providerId: homeProvider.id,
      deviceId,
      deviceType: plan.devices[0]?.type.code ?? 49,
      residentId,
      alertType: 'HEART_ABNORMAL',
      level: 2,
      startedAt: raisedAt,
      raisedAt,
      lastAt: raisedAt,
    });

    const broker = server.app.services.gateway.broker;
    if (!(broker instanceof EmbeddedBroker)) throw new Error('expected the embedded broker');
    monitor = await connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId: deviceId,
      username: deviceId,
      password: secrets[deviceId],
    });
    let seq = 1;
    streaming = setInterval(() => {
      const body = { ts: Date.now() / 1000, seq: seq++, ...sample, inBed: true, asleep: false, move: 2 };
      void monitor.publishAsync(topicOf(deviceId, 'telemetry'), JSON.stringify(body));
    }, 500);
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    clearInterval(streaming);
    await monitor?.endAsync();
    await server?.close();
  });

  for (const { language, width } of SCREENS) {
    it(`draws the hour and the live samples within clinical ranges, limits and alarms (${language}, ${width} px)`, async () => {
      sample = { hr: 68, rr: 15 };
      const { page, context, problems } = await openSession(browser, server, { language });
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await signIn(page, home);
      await page.goto(`/realMonitor/resident?userId=${residentId}`);
      await settled(page);
      await page.getByTestId('heart-rate-chart').locator('canvas').first().waitFor();
      await page.getByTestId('breath-rate-chart').locator('canvas').first().waitFor();
      // A few live seconds, then the monitor measures nothing (0) at the live edge.
      await page.waitForTimeout(4_000);
      sample = { hr: 0, rr: 0 };
      await page.waitForTimeout(3_000);
      await stillScreenshot(page, `live-charts-${language}-${width}`);
      expect(problems).toEqual([]);
      await context.close();
    }, 120_000);
  }
});
