import { alarmCalls, bunkList, type Bunk } from '@vigil/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarms } from '../apps/server/src/db/schema.ts';
import { startDemo, type RunningDemo } from '../apps/server/src/modules/gateway/index.ts';
import { EmbeddedBroker } from '../apps/server/src/modules/gateway/testing.ts';
import {
  expandMenu,
  featureText,
  launchBrowser,
  openSession,
  settled,
  signIn,
  stillScreenshot,
  text,
} from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import { apiLogin, startServer, type E2eServer } from './support/server.ts';
import { SCREENS } from './support/screens.ts';

warnWhenNoChromium('phone layout');

// Issue 29, point 13: below 768 px the lists a caregiver needs (alarm log, residents, devices,
// gateway hosts and their sensors) are cards showing the type, the resident, the place and the
// state; the menu, the bed screens and the bed alarm settings fit a 390 px phone without sideways
// scrolling. Point 14: at 1440 px the handled tab shows how each alarm was handled.

/** The demo care home's name (demo-care-home.ts). */
const PROVIDER = 'Sunrise Demo Care Home';
/** What the caregiver wrote when handling an alarm. */
const NOTE = 'Turned her onto her side; calm';

interface Width {
  page: number;
  window: number;
  /** Elements inside the page's content that scroll sideways (a table wider than the screen). */
  scrollers: string[];
}

/** How wide the page is against the window, and what scrolls sideways inside it. */
const widthOf = (page: Page): Promise<Width> =>
  page.evaluate(() => {
    const scrollers: string[] = [];
    for (const el of document.querySelectorAll('.app-content *, .ant-drawer-body *')) {
      const style = getComputedStyle(el);
      if (!['auto', 'scroll'].includes(style.overflowX)) continue;
      if (el.scrollWidth > el.clientWidth + 1) {
        scrollers.push(
          `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} ${el.scrollWidth}>${el.clientWidth}`,
        );
      }
    }
    return { page: document.documentElement.scrollWidth, window: window.innerWidth, scrollers };
  });

const CASES = SCREENS;

describe.skipIf(!hasChromium)('a console on a phone and a desktop (browser)', () => {
  let server: E2eServer;
  let demo: RunningDemo;
  let browser: Browser;
  let residentBed: Bunk;

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
    const { token } = await apiLogin(server, demo.login ?? { userName: '', password: '' });
    const beds = await server.app.call(bunkList, { pageSize: 50, hasDevice: true }, { token });
    const occupied = (beds.data?.rows ?? []).filter((b) => b.userId !== null && b.deviceId !== null);
    if (occupied.length < 3) throw new Error('the demo has fewer than three beds with a resident and a device');
    residentBed = occupied[0] as Bunk;
    // A pending level 1 alarm, a pending level 2 one and one handled by a caregiver.
    const now = Date.now();
    const raise = async (bed: Bunk, alertType: string, level: 1 | 2, minutesAgo: number) => {
      const at = new Date(now - minutesAgo * 60_000);
      const [row] = await server.app.database.db
        .insert(alarms)
        .values({
          providerId: demo.record.providerId,
          deviceId: bed.deviceId ?? '',
          deviceType: bed.deviceType ?? 49,
          bedId: bed.id,
          residentId: bed.userId,
          alertType,
          level,
          startedAt: at,
          raisedAt: at,
          lastAt: at,
        })
        .returning({ id: alarms.id });
      return row?.id ?? 0;
    };
    await raise(occupied[0] as Bunk, 'BREATH_STOP', 1, 3);
    await raise(occupied[1] as Bunk, 'HEART_ABNORMAL', 2, 12);
    const handled = await raise(occupied[2] as Bunk, 'NO_BODY_MOVE', 2, 40);
    const relieved = await server.app.call(
      alarmCalls.alarmRelieve,
      { id: handled, reason: 'CHECKED', result: 'NO_ABNORMALITY', details: NOTE },
      { token },
    );
    if (relieved.status !== 200) throw new Error(`alarmRelieve: ${relieved.msg}`);
    browser = await launchBrowser();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
    await server?.close();
  });

  /** The card of the list `testId` that holds every one of `texts` (a phone's layout). */
  const cardOf = (page: Page, testId: string, ...texts: string[]) =>
    texts
      .reduce(
        (cards, text) => cards.filter({ hasText: text }),
        page.getByTestId(testId).locator('[data-testid="list-card"]'),
      )
      .first();
  /** What a card says in its heading, state and labelled lines. */
  const partsOf = async (card: Locator) => ({
    title: (await card.locator('[data-card="title"]').first().textContent()) ?? '',
    state: (await card.locator('[data-card="state"]').first().textContent()) ?? '',
    fields: Object.fromEntries(
      await card
        .locator(':scope > .ant-card-body > dl > [data-field]')
        .evaluateAll((lines: E2eElement[]) =>
          lines.map((line) => [line.getAttribute('data-field') ?? '', line.textContent ?? '']),
        ),
    ) as Record<string, string>,
  });

  it.each(CASES)(
    'every screen a caregiver needs fits the window, lists as cards on a phone ($language, $width px)',
    async ({ language, viewport }) => {
      const { page, context, problems } = await openSession(browser, server, { language, viewport });
      await signIn(page, demo.login ?? { userName: '', password: '' });
      const phone = viewport.width < 768;
      const seen: Record<string, Width> = {};
      const look = async (name: string) => {
        await settled(page);
        seen[name] = await widthOf(page);
        await stillScreenshot(page, `phone-layout-${name}-${language}-${viewport.width}`);
      };
      const alarmText = (key: string) => featureText(language, 'alarm-log', key);
      const place = (bed: Bunk) => [bed.areaName, bed.floorName, bed.roomName, bed.name].join(' / ');

      // The menu: a drawer on a phone.
      if (phone) await page.getByTestId('nav-toggle').click();
      await page.getByTestId('menu').waitFor();
      await expandMenu(page);
      await look('menu');
      // The provider's name whole: the sidebar has room for it (point 14, decision 0043).
      const provider = page.getByTestId('sidebar').getByTestId('provider-name');
      expect(await provider.textContent()).toBe(PROVIDER);
      expect(await provider.evaluate((el: E2eElement) => el.scrollWidth <= el.clientWidth)).toBe(true);
      if (phone) await page.keyboard.press('Escape');

      const screens: [string, string, string][] = [
        ['monitor', '/realMonitor/index', 'screen-title'],
        ['live-residents', '/realMonitor/residentList', 'monitor-residents'],
        ['resident-live', `/realMonitor/resident?userId=${residentBed.userId ?? 0}`, 'resident-devices'],
        ['beds', '/BunkManage/index', 'bed-table'],
        ['bed-alarm', `/BunkManage/alarmSetting/${residentBed.userId ?? 0}`, 'bed-alarm-sleep'],
        ['alarms', '/alarm-log/alarmIndex', 'alarm-table-pending'],
        ['residents', '/people-manage/userManage', 'resident-table'],
        ['devices', '/deviceManage/deviceManage', 'device-table'],
        ['radars', '/deviceManage/ed719', 'device-table'],
        ['sensors', '/deviceManage/safeDeviceManage', 'device-table'],
        ['hosts', '/deviceManage/hostDevice', 'host-table'],
      ];
      for (const [name, path, ready] of screens) {
        await page.goto(path);
        await page.getByTestId(ready).first().waitFor();
        if (name === 'alarms')
          await page
            .getByText(residentBed.userName ?? '')
            .first()
            .waitFor();
        await look(name);
        if (!phone) continue;
        // A phone lists cards: the type, the resident, the place and the state at a glance.
        if (name === 'alarms') {
          // The demo's devices raise alarms of their own (a low battery) for the same resident.
          const alarm = await partsOf(
            cardOf(page, 'alarm-table-pending', residentBed.userName ?? '', alarmText('alarmType.BREATH_STOP')),
          );
          expect(alarm.title).toBe(alarmText('alarmType.BREATH_STOP'));
          expect(alarm.state).toContain(text(language, 'alarmLevel.1'));
          expect(alarm.state).toContain(alarmText('tab.pending'));
          expect(alarm.fields.resident).toContain(residentBed.userName);
          expect(alarm.fields.place).toContain(place(residentBed));
        }
        if (name === 'residents') {
          const resident = await partsOf(cardOf(page, 'resident-table', residentBed.userName ?? ''));
          expect(resident.title).toContain(residentBed.userName);
          expect(resident.state).toBe(featureText(language, 'residents', 'state.checkedIn'));
          expect(resident.fields.place).toContain(place(residentBed));
        }
        if (name === 'devices') {
          const device = await partsOf(cardOf(page, 'device-table', residentBed.deviceId ?? ''));
          expect(device.title).toContain(residentBed.deviceId);
          expect(device.state).toMatch(
            new RegExp(`^(${text(language, 'deviceState.online')}|${text(language, 'deviceState.offline')})`),
          );
          expect(device.fields.model).toContain(featureText(language, 'devices', 'kind.sleep_monitor'));
          expect(device.fields.place).toContain(place(residentBed));
          expect(device.fields.place).toContain(residentBed.userName);
        }
        if (name === 'hosts') {
          const host = await partsOf(page.getByTestId('host-table').locator('[data-testid="list-card"]').first());
          expect(host.state).toMatch(
            new RegExp(`^(${text(language, 'deviceState.online')}|${text(language, 'deviceState.offline')})$`),
          );
          expect(host.fields.model).not.toBe('');
        }
      }

      // The handled tab: how each alarm was handled, whole, beside the sidebar of a desktop.
      await page.goto('/alarm-log/alarmIndex');
      await page.getByRole('tab', { name: alarmText('tab.resolved') }).click();
      await page.getByText(NOTE).first().waitFor();
      await look('alarms-resolved');
      if (phone) {
        const handled = await partsOf(cardOf(page, 'alarm-table-resolved', NOTE));
        expect(handled.title).toBe(alarmText('alarmType.NO_BODY_MOVE'));
        expect(handled.state).toContain(alarmText('releaseKind.1'));
        expect(handled.fields.handlerName).toMatch(new RegExp(`^${alarmText('field.handler')}[^—]+$`));
        expect(handled.fields.reasonResult).toContain(alarmText('dealResult.NO_ABNORMALITY'));
        expect(handled.fields.remark).toContain(NOTE);
      } else {
        for (const key of ['field.released', 'field.handler', 'field.reasonResult', 'field.details']) {
          const header = page.getByRole('columnheader', { name: alarmText(key) }).first();
          const box = await header.boundingBox();
          expect(box && box.x + box.width, key).toBeLessThanOrEqual(viewport.width);
        }
        const row = page.locator('tr.ant-table-row', { hasText: NOTE });
        const remark = await row.getByText(NOTE).boundingBox();
        expect(remark && remark.x + remark.width).toBeLessThanOrEqual(viewport.width);
      }

      for (const [name, width] of Object.entries(seen)) {
        expect(width.page, name).toBeLessThanOrEqual(width.window);
        // Nothing scrolls sideways on a phone; on a desktop, neither the alarm log nor the live residents.
        if (phone || ['alarms', 'alarms-resolved', 'live-residents', 'menu'].includes(name)) {
          expect(width.scrollers, name).toEqual([]);
        }
      }
      expect(problems).toEqual([]);
      await context.close();
    },
    240_000,
  );
});
