import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminLogin, adminUpdatePassword, createClient, insertNursing } from '@vigil/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedBroker } from '../apps/server/src/modules/gateway/testing.ts';
import {
  parseDeviceCounts,
  planFleet,
  provisionFleet,
  secretsFor,
  startFleet,
  type Fleet,
} from '../apps/simulator/src/index.ts';
import {
  launchBrowser,
  openSession,
  settled,
  signIn,
  stillScreenshot,
  text,
  type BrowserSession,
  type UiLanguage,
} from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import { createProvider, startServer, type E2eServer, type Login } from './support/server.ts';
import { SCREENS } from './support/screens.ts';

warnWhenNoChromium('two consoles');

// Issue 29, points 6 and 12, as a night shift lives them with two consoles: the home's account at
// the nurses' station and a caregiver's. A fall comes in; the station opens it from the bell
// (which a level 1 popup used to cover) and starts writing notes; the caregiver handles it; the
// station's open dialog says so at once, disables Handle and keeps the notes on the timeline. The
// timeline shows the speech of both consoles as one row, and names people, not the care home.

const PASSWORD = 'Care#Home2026';
const CAREGIVER = 'Chen Jing';
const MONITOR = '/realMonitor/index';
const CASES = SCREENS;

/** A text of the alarm log's own namespace (features/alarm-log/locales), its {{values}} filled. */
const logText = (language: UiLanguage, key: string, values: Record<string, string | number> = {}): string => {
  const file = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    `../apps/web/src/features/alarm-log/locales/${language}.json`,
  );
  const messages = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  const template = messages[key];
  if (template === undefined) throw new Error(`no ${key} in alarm-log ${language}.json`);
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
};
/** A template as a pattern: its {{values}} match anything. */
const pattern = (template: string): RegExp =>
  new RegExp(`^${template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{\\\{\w+\\\}\\\}/g, '.+')}$`);

/** Records what the page asks the browser to say (headless Chromium has no voices). */
const recordSpeech = (session: BrowserSession) =>
  session.context.addInitScript(() => {
    const synth = {
      speak: (u: { onend: ((event: Event) => void) | null }) => setTimeout(() => u.onend?.(new Event('end')), 50),
      cancel: () => undefined,
      getVoices: () => [],
    };
    Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true });
  });

describe.skipIf(!hasChromium)('two consoles on one alarm; the bell (browser)', () => {
  let server: E2eServer;
  let browser: Browser;
  let fleet: Fleet;
  let radars: string[] = [];
  const station: Login = { userName: 'pineHome', password: PASSWORD };
  let caregiver: Login;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const group = await createProvider(server, { name: 'Pine Group', userName: 'pineGroup', password: PASSWORD });
    const groupToken = (await server.app.call(adminLogin, { userName: 'pineGroup', passWord: PASSWORD })).data?.token;
    const home = await createProvider(server, { name: 'Pine Home', ...station, parentId: group.id }, groupToken);
    // The caregiver's account, her generated password replaced as the app makes her.
    const homeToken = (await server.app.call(adminLogin, { userName: station.userName, passWord: PASSWORD })).data
      ?.token;
    const made = await server.app.call(insertNursing, { name: CAREGIVER, phone: '13900001234' }, { token: homeToken });
    if (!made.data) throw new Error(`insertNursing: ${made.status} ${made.msg}`);
    const first = await server.app.call(adminLogin, {
      userName: made.data.userName,
      passWord: made.data.initialPassword,
      from: 'APP',
    });
    const changed = await server.app.call(
      adminUpdatePassword,
      { userName: made.data.userName, oldPassWord: made.data.initialPassword, newPassWord: PASSWORD },
      { token: first.data?.token },
    );
    if (changed.status !== 200) throw new Error(`caregiver password: ${changed.status} ${changed.msg}`);
    caregiver = { userName: made.data.userName, password: PASSWORD };

    // A fall radar per case, registered and added to the home the way the simulator provisions them.
    const plan = planFleet(parseDeviceCounts(`radar=${CASES.length}`), 'PINE');
    const secrets = secretsFor(plan, 'pine', 'e2e');
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
      providerId: home.id,
    });
    radars = plan.devices.map((d) => d.id);
    await server.app.services.gateway.directory.load();
    const broker = server.app.services.gateway.broker;
    if (!(broker instanceof EmbeddedBroker)) throw new Error('expected the embedded broker');
    fleet = await startFleet({ url: `mqtt://127.0.0.1:${broker.port}`, plan, secrets, seed: 'pine', eventRate: 0 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await fleet?.stop();
    await server?.close();
  });

  it.each(CASES.map((c, index) => ({ ...c, index })))(
    '$language at $viewport.width px: the open dialog follows the other console, notes are kept, the bell lists the alarm',
    async ({ language, viewport, index }) => {
      const radar = radars[index] ?? '';
      const name = (step: string) => `two-consoles-${language}-${viewport.width}-${step}`;
      const open = async (login: Login) => {
        const session = await openSession(browser, server, { language, viewport });
        await recordSpeech(session);
        await signIn(session.page, login);
        await session.page.goto(MONITOR);
        await settled(session.page);
        return session;
      };
      const [a, b] = [await open(station), await open(caregiver)];
      try {
        // What was pending before (nothing, unless an earlier case failed half way).
        const before = Number(await a.page.getByTestId('nav-bell').getAttribute('data-pending'));
        fleet.trigger(radar, 'fall');
        const cardOf = (page: Page) => page.locator('[data-testid^="alarm-card-"]').filter({ hasText: radar });
        for (const s of [a, b]) await cardOf(s.page).waitFor({ timeout: 15_000 });
        const id = Number((await cardOf(a.page).getAttribute('data-testid'))?.replace('alarm-card-', ''));

        // The station: the bell counts the alarm and, above a level 1 popup, lists it.
        const bell = a.page.getByTestId('nav-alarms');
        await expect.poll(() => a.page.getByTestId('nav-bell').getAttribute('data-pending')).toBe(String(before + 1));
        const popup = a.page.locator('.ant-notification-notice').filter({ hasText: radar });
        if (viewport.width >= 768) {
          // The popup stays until handled, below the top bar: never over the bell.
          await popup.waitFor();
          const [bellBox, popupBox] = [await bell.boundingBox(), await popup.boundingBox()];
          expect(bellBox && popupBox && popupBox.y >= bellBox.y + bellBox.height).toBe(true);
        } else {
          expect(await popup.count()).toBe(0);
        }
        // A normal click: Playwright refuses it if anything covers the bell.
        await bell.click({ timeout: 5_000 });
        const row = a.page.getByTestId(`bell-alarm-${id}`);
        await row.waitFor();
        expect(await row.textContent()).toContain(text(language, 'alarmLevel.1'));
        expect(await row.textContent()).toContain(logText(language, 'alarmType.FALL'));
        expect(await row.textContent()).toContain(radar);
        await stillScreenshot(a.page, name('01-bell'));
        // The list fits the screen, a phone's too.
        const panel = await a.page.getByTestId('bell-panel').boundingBox();
        expect(panel?.x).toBeGreaterThanOrEqual(0);
        expect((panel?.x ?? 0) + (panel?.width ?? Infinity)).toBeLessThanOrEqual(viewport.width);

        // The station opens it from the bell and starts writing down what she found.
        await row.click({ timeout: 5_000 });
        const formA = a.page.getByTestId('alarm-handle-form');
        await formA.waitFor();
        await formA.getByLabel(logText(language, 'relieve.CHECKED')).check();
        await a.page.getByTestId('alarm-handle-details').fill('Gave her water, she is calm');

        // Meanwhile the caregiver handles it from her card.
        await cardOf(b.page)
          .getByRole('button', { name: logText(language, 'action.handle') })
          .click();
        const formB = b.page.getByTestId('alarm-handle-form');
        await formB.getByLabel(logText(language, 'relieve.CHECKED')).check();
        await b.page.getByTestId('alarm-handle-details').fill('Helped back to bed');
        await b.page
          .locator('.ant-modal-footer')
          .getByRole('button', { name: logText(language, 'action.handle') })
          .click();
        await expect.poll(() => cardOf(b.page).count(), { timeout: 10_000 }).toBe(0);

        // The station's dialog says so at once; Handle is disabled; the notes stay and are kept.
        const notice = a.page.getByTestId('alarm-handled-by');
        await notice.waitFor({ timeout: 10_000 });
        const outcome = logText(language, 'elsewhere.withHandling', {
          outcome: logText(language, 'elsewhere.handledBy', { who: CAREGIVER, time: '{{time}}' }),
          handling: `${logText(language, 'relieve.CHECKED')} · Helped back to bed`,
        });
        expect(await notice.textContent()).toMatch(pattern(outcome));
        const handle = a.page
          .locator('.ant-modal-footer')
          .getByRole('button', { name: logText(language, 'action.handle') });
        expect(await handle.isDisabled()).toBe(true);
        expect(await a.page.getByTestId('alarm-handle-details').inputValue()).toBe('Gave her water, she is calm');
        await stillScreenshot(a.page, name('02-handled-elsewhere'));
        await a.page.getByTestId('alarm-add-note').click();
        await a.page.getByText(logText(language, 'note.added')).waitFor();
        await formA.waitFor({ state: 'detached' });
        await expect.poll(() => popup.count(), { timeout: 10_000 }).toBe(0);
        await expect.poll(() => a.page.getByTestId('nav-bell').getAttribute('data-pending')).toBe(String(before));

        // The timeline: handled by the caregiver, the note by the station's account (its login,
        // never "Pine Home"), and each console's speech as one row that opens.
        await a.page.goto('/alarm-log/alarmIndex');
        await settled(a.page);
        await a.page.getByRole('tab', { name: logText(language, 'tab.resolved') }).click();
        // A row on a desktop, a card on a phone.
        const logRow = a.page.locator('tr.ant-table-row, [data-testid="list-card"]').filter({ hasText: radar });
        await logRow.waitFor({ timeout: 10_000 });
        expect(await logRow.textContent()).toContain(CAREGIVER);
        await logRow.getByTestId('alarm-timeline-open').click();
        const timeline = a.page.getByTestId('alarm-timeline');
        await timeline.waitFor();
        const spoken = timeline.getByTestId('timeline-consoles-playAlarm');
        await spoken.waitFor();
        expect(await spoken.textContent()).toContain(logText(language, 'timeline.many.playAlarm', { count: 2 }));
        await spoken.getByRole('button', { name: logText(language, 'timeline.showEach') }).click();
        const by = (who: string) => logText(language, 'timeline.by', { who });
        expect(await spoken.textContent()).toContain(by(station.userName));
        expect(await spoken.textContent()).toContain(by(CAREGIVER));
        const all = (await timeline.textContent()) ?? '';
        expect(all).toContain(logText(language, 'step.note'));
        expect(all).toContain('Gave her water, she is calm');
        expect(all).not.toContain('Pine Home');
        await stillScreenshot(a.page, name('03-timeline'));
        expect(a.problems).toEqual([]);
        expect(b.problems).toEqual([]);
      } finally {
        await a.context.close();
        await b.context.close();
      }
    },
    240_000,
  );
});
