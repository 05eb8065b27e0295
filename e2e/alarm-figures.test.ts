import fs from 'node:fs';
import path from 'node:path';
import { alarmCalls, createClient, topicOf } from '@vigil/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultBedRules } from '../apps/server/src/modules/alarms/bed-alarm-settings.service.ts';
import { linkBed, placeBed } from '../apps/server/src/modules/devices/device-test-support.ts';
import { parseDeviceCounts, planFleet, provisionFleet, secretsFor } from '../apps/simulator/src/index.ts';
import { launchBrowser, openSession, settled, signIn, stillScreenshot, type UiLanguage } from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import { apiLogin, createProvider, startServer, type E2eServer, type Login } from './support/server.ts';
import { SCREENS } from './support/screens.ts';

warnWhenNoChromium('alarm figures');

// Issue 29, points 4 and 7. A resident's heart rate stays under her bed's limit (the real engine
// raises the alarm after the bed's 10 s); a fall radar reports a fall; another monitor's battery
// runs low while the console is open. The cards, the popup, the handling dialog and the alarm log
// say what and how much, how long ago, and link to the live chart; level 1 comes first and
// larger; the dialog offers the results that fit each alarm. zh-CN and en-US, 1440 and 390 px.

const PASSWORD = 'Care#Home2026';
const MONITOR = '/realMonitor/index';
const FIGURES: Record<'zh-CN' | 'en-US', { heart: RegExp; battery: string; who: string }> = {
  'en-US': {
    heart: /^heart rate 58 \/min · below the limit 75 · for 1\d s$/,
    battery: 'battery 12 % · below the limit 15',
    who: 'Margaret Ellis · 101 A',
  },
  'zh-CN': {
    heart: /^心率 58 次\/分 · 低于下限 75 · 持续 1\d 秒$/,
    battery: '电量 12% · 低于下限 15',
    who: 'Margaret Ellis · 101 A',
  },
};
/** The alarm log's own text of a key (alarm types, handling results), as the console shows it. */
const alarmLogText = (language: UiLanguage, key: string): string => {
  const file = path.resolve(import.meta.dirname, `../apps/web/src/features/alarm-log/locales/${language}.json`);
  const value = (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>)[key];
  if (value === undefined) throw new Error(`no ${key} in alarm-log/${language}.json`);
  return value;
};
const CASES = SCREENS;

describe.skipIf(!hasChromium)('alarms that say what and how much (browser)', () => {
  let server: E2eServer;
  let browser: Browser;
  let streaming: NodeJS.Timeout | undefined;
  let seq = 1;
  let heartMonitor = '';
  let otherMonitor = '';
  let radar = '';
  let margaretId = 0;
  const home: Login = { userName: 'figHome', password: PASSWORD };

  const send = (deviceId: string, kind: 'telemetry' | 'event' | 'status', body: Record<string, unknown>) =>
    server.app.services.gateway.ingest.handle(
      topicOf(deviceId, kind),
      Buffer.from(JSON.stringify({ ts: Date.now() / 1000, seq: seq++, ...body })),
    );

  beforeAll(async () => {
    server = await startServer();
    const group = await createProvider(server, { name: 'Fig Group', userName: 'figGroup', password: PASSWORD });
    const groupToken = (await apiLogin(server, { userName: 'figGroup', password: PASSWORD })).token;
    const homeProvider = await createProvider(server, { name: 'Fig Home', ...home, parentId: group.id }, groupToken);
    const homeToken = (await apiLogin(server, home)).token;
    const plan = planFleet(parseDeviceCounts('sleep=2,radar=1'), 'FIG');
    const admin = createClient({
      baseUrl: server.baseUrl,
      getToken: () => server.adminToken,
      getLanguage: () => 'en-US',
    });
    await provisionFleet(plan, secretsFor(plan, 'fig', 'e2e'), {
      api: server.baseUrl,
      adminUser: '',
      adminPassword: '',
      client: admin,
      providerId: homeProvider.id,
    });
    const idsOf = (kind: string) => plan.devices.filter((d) => d.type.kind === kind).map((d) => d.id);
    [heartMonitor = '', otherMonitor = ''] = idsOf('sleep_monitor');
    radar = idsOf('fall_radar')[0] ?? '';
    const beds = [
      { area: 'East Wing', room: '101', bed: 'A', resident: 'Margaret Ellis', device: heartMonitor },
      { area: 'West Wing', room: '102', bed: 'B', resident: 'Ed Brown', device: otherMonitor },
      { area: 'North Wing', room: '103', bed: 'C', resident: 'Ruth Lane', device: radar },
    ];
    for (const b of beds) {
      const placed = await placeBed(server.app, homeProvider.id, b);
      await linkBed(server.app, placed.bedId, b.device);
      if (b.device === heartMonitor) margaretId = placed.residentId ?? 0;
    }
    await server.app.services.gateway.directory.load();
    // Margaret's bed: a heart rate under 75 for 10 s is abnormal.
    const saved = await server.app.call(
      alarmCalls.saveBedAlarmSetting,
      {
        userId: margaretId,
        rules: {
          ...defaultBedRules(),
          heartMin: 75,
          durations: { ...defaultBedRules().durations, heartExceptionDuration: 10 },
        },
      },
      { token: homeToken },
    );
    if (saved.status !== 200) throw new Error(`saveBedAlarmSetting: ${saved.msg}`);
    await server.app.services.alarms.watch.load();
    // Her monitor measures 58 /min all along; Ed's is calm.
    streaming = setInterval(() => {
      void send(heartMonitor, 'telemetry', { hr: 58, rr: 14, inBed: true, asleep: true, move: 3 });
      void send(otherMonitor, 'telemetry', { hr: 66, rr: 15, inBed: true, asleep: true, move: 3 });
    }, 1000);
    await send(radar, 'event', { event: 'fall' });
    const until = Date.now() + 30_000;
    for (;;) {
      const pending = await server.app.call(
        alarmCalls.alarmLogUnDeal,
        { alertType: 'HEART_ABNORMAL' },
        { token: homeToken },
      );
      if (pending.data?.rows.length) break;
      if (Date.now() > until) throw new Error('no heart-rate alarm raised');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    clearInterval(streaming);
    await browser?.close();
    await server?.close();
  });

  const cardOf = (page: Page, type: string) =>
    page
      .locator('[data-testid^="alarm-card-"]')
      .filter({ hasText: alarmLogText(languageOf(page), `alarmType.${type}`) });
  const languages = new WeakMap<Page, UiLanguage>();
  const languageOf = (page: Page): UiLanguage => languages.get(page) ?? 'en-US';
  /** The result options the handling dialog offers (its select opened). */
  const offeredResults = async (page: Page): Promise<string[]> => {
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('alarm-handle-form') });
    await dialog.getByTestId('alarm-handle-result').click();
    const options = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
    await options.first().waitFor();
    return options.allTextContents();
  };
  const closeDialog = async (page: Page) => {
    // The open result list first, then the dialog's Cancel.
    await page.keyboard.press('Escape');
    await page.locator('.ant-modal-footer .ant-btn:not(.ant-btn-primary)').click();
    await expect.poll(() => page.getByTestId('alarm-handle-form').count(), { timeout: 10_000 }).toBe(0);
  };

  it.each(CASES)(
    'cards, popup, dialog and log say what and how much, how long ago, with the live chart ($language, $width px)',
    async ({ language, width }) => {
      const figures = FIGURES[language];
      const { page, context, problems } = await openSession(browser, server, {
        language,
        viewport: { width, height: width === 390 ? 844 : 900 },
      });
      languages.set(page, language);
      await signIn(page, home);
      await page.goto(MONITOR);
      await settled(page);

      // Level 1 first, and larger.
      const heart = cardOf(page, 'HEART_ABNORMAL');
      const fall = cardOf(page, 'FALL');
      await heart.waitFor({ timeout: 15_000 });
      await fall.waitFor();
      const sections = await page
        .locator('section[data-testid^="alarms-level"]')
        .evaluateAll((s) => s.map((e) => e.getAttribute('data-testid')));
      expect(sections).toEqual(['alarms-level1', 'alarms-level2']);
      const [fallBox, heartBox] = [await fall.boundingBox(), await heart.boundingBox()];
      expect(fallBox?.y ?? 0).toBeLessThan(heartBox?.y ?? 0);
      expect(fallBox?.width ?? 0).toBeGreaterThanOrEqual(heartBox?.width ?? 0);

      // What and how much; who and where apart; how long ago, ticking; the live chart.
      expect(await heart.getByTestId('alarm-measure').textContent()).toMatch(figures.heart);
      expect(await heart.getByTestId('alarm-who').textContent()).toBe(figures.who);
      const elapsed = await heart.getByTestId('alarm-elapsed').textContent();
      await expect.poll(() => heart.getByTestId('alarm-elapsed').textContent(), { timeout: 5_000 }).not.toBe(elapsed);
      expect(await heart.getByTestId('alarm-live-chart').getAttribute('href')).toBe(
        `/realMonitor/resident?userId=${margaretId}`,
      );
      // A fall has no figure: nothing extra, no empty separator.
      expect(await fall.getByTestId('alarm-measure').count()).toBe(0);
      expect(await fall.textContent()).not.toMatch(/·\s*·/);
      await stillScreenshot(page, `alarm-figures-cards-${language}-${width}`);

      if (width >= 768) {
        // A new alarm while the console is open: its popup says how much too.
        await send(otherMonitor, 'status', { online: true, battery: 12 });
        const popup = page.locator('.ant-notification-notice').filter({ hasText: figures.battery });
        await popup.waitFor({ timeout: 10_000 });
        expect(await popup.getByTestId('alarm-elapsed').count()).toBe(1);
        await stillScreenshot(page, `alarm-figures-popup-${language}-${width}`);
        await send(otherMonitor, 'status', { online: true, battery: 95 });
        await expect.poll(() => cardOf(page, 'LOW_BATTERY').count(), { timeout: 10_000 }).toBe(0);
      }

      // The handling dialog: the figure, how long ago, and only the results that fit.
      await heart.locator('.ant-card-extra button').click();
      const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('alarm-handle-form') });
      await dialog.getByTestId('alarm-measure').waitFor();
      expect(await dialog.getByTestId('alarm-measure').textContent()).toMatch(figures.heart);
      expect(await dialog.getByTestId('alarm-elapsed').count()).toBe(1);
      const heartResults = await offeredResults(page);
      const label = (code: string) => alarmLogText(language, `dealResult.${code}`);
      expect(heartResults).toEqual(['NO_ABNORMALITY', 'DOCTOR_INFORMED', 'FAMILY_CONTACTED'].map(label));
      await stillScreenshot(page, `alarm-figures-dialog-heart-${language}-${width}`);
      await closeDialog(page);

      await fall.locator('.ant-card-extra button').click();
      const fallResults = await offeredResults(page);
      expect(fallResults).toEqual(
        [
          'NO_ABNORMALITY',
          'BED_HOLD_UP',
          'SIT_ASIDE_BED',
          'LIVING_OR_SIT_IN_TAIL_STOCK',
          'DOCTOR_INFORMED',
          'FAMILY_CONTACTED',
        ].map(label),
      );
      await stillScreenshot(page, `alarm-figures-dialog-fall-${language}-${width}`);
      await closeDialog(page);

      // The alarm log's pending row (a card on a phone): the figure under the text, the time waited, the live chart.
      await page.goto('/alarm-log/alarmIndex');
      await settled(page);
      const row = page
        .locator('tr.ant-table-row, [data-testid="list-card"]')
        .filter({ hasText: figures.who.split(' · ')[0] ?? '' });
      await row.getByTestId('alarm-measure').first().waitFor({ timeout: 10_000 });
      expect(await row.getByTestId('alarm-measure').first().textContent()).toMatch(figures.heart);
      expect(await row.getByTestId('alarm-elapsed').count()).toBe(1);
      await stillScreenshot(page, `alarm-figures-log-${language}-${width}`);

      // The live chart from the log.
      await row.getByTestId('alarm-live-chart').first().click();
      await page.waitForURL((url) => url.pathname === '/realMonitor/resident');
      expect(new URL(page.url()).searchParams.get('userId')).toBe(String(margaretId));
      expect(problems).toEqual([]);
      await context.close();
    },
    120_000,
  );

  it('a heart-rate alarm handled with “doctor informed” shows it in the resolved list (en-US)', async () => {
    const { page, context, problems } = await openSession(browser, server, { language: 'en-US' });
    languages.set(page, 'en-US');
    await signIn(page, home);
    await page.goto(MONITOR);
    await settled(page);
    const heart = cardOf(page, 'HEART_ABNORMAL');
    await heart.waitFor({ timeout: 15_000 });
    await heart.locator('.ant-card-extra button').click();
    const form = page.getByTestId('alarm-handle-form');
    await form.getByLabel('Checked on site').check();
    await offeredResults(page);
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
      .filter({ hasText: 'Doctor informed' })
      .click();
    await page.locator('.ant-modal-footer .ant-btn-primary').click();
    await expect.poll(() => heart.count(), { timeout: 10_000 }).toBe(0);
    await page.goto('/alarm-log/alarmIndex');
    await settled(page);
    await page.getByRole('tab', { name: /Resolved/ }).click();
    const row = page.locator('tr.ant-table-row').filter({ hasText: 'Doctor informed' });
    await row.first().waitFor({ timeout: 10_000 });
    expect(await row.first().textContent()).toMatch(/heart rate 58 \/min · below the limit 75/);
    await stillScreenshot(page, 'alarm-figures-resolved-en-US-1440');
    expect(problems).toEqual([]);
    await context.close();
  });
});
