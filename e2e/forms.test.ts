import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  getAreaList,
  queryCommunityList,
  queryNursingList,
  queryProviderList,
  residentList,
  type CallDef,
} from '@vigil/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openMenuEntry,
  openSession,
  screenshot,
  signIn,
  text,
  waitForPath,
  type BrowserSession,
} from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import {
  ADMIN_PASSWORD,
  ADMIN_USER,
  apiLogin,
  createProvider,
  startServer,
  type E2eServer,
  type Login,
} from './support/server.ts';

warnWhenNoChromium('forms');

// Issue 8, points 2, 3, 8 and 10 as a user meets them: a double click or a click plus Enter saves
// once on every creating form; a list whose request fails says so and retries; a refusal lands on
// its field; leaving a half-filled form asks first.

const FEATURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/src/features');
type Feature = 'facility' | 'residents' | 'caregivers';
const featureTexts = new Map<Feature, Record<string, string>>();

/** A screen's English text (its feature's locale file, else the shell's). */
const ui = (feature: Feature, key: string): string => {
  let messages = featureTexts.get(feature);
  if (!messages) {
    const file = path.join(FEATURES_DIR, feature, 'locales', 'en-US.json');
    messages = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    featureTexts.set(feature, messages);
  }
  return messages[key] ?? text('en-US', key);
};

const PASSWORD = 'Care#Home2026';
const admin: Login = { userName: ADMIN_USER, password: ADMIN_PASSWORD };
const RESIDENT_EDIT = '/people-manage/addAndEdit/addAndEditUser';
const RESIDENT_LIST = '/people-manage/userManage';
const CAREGIVER_EDIT = '/nurse-manage/addAndEditNurse';
const FACILITY = '/BunkManage/index';
const PROVIDERS = '/permission/providermanager';

/** The open modal holding `testId`. */
const modalWith = (page: Page, testId: string): Locator =>
  page.locator('.ant-modal').filter({ has: page.getByTestId(testId) });

/** Counts the requests the page sends to a call while `action` runs, and a little after. */
const requestsTo = async (page: Page, callPath: string, action: () => Promise<void>): Promise<number> => {
  let count = 0;
  const onRequest = (request: { url: () => string; method: () => string }) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === callPath) count++;
  };
  page.on('request', onRequest);
  try {
    await action();
    // Long enough for a second request to have left, had the second click sent one.
    await page.waitForTimeout(1500);
  } finally {
    page.off('request', onRequest);
  }
  return count;
};

/** Rows a list call answers for `keyWord`, asked through the API as `token`. */
const listed = async (server: E2eServer, token: string, call: CallDef, input: Record<string, unknown>) => {
  const res = await server.app.call(call, { pageNum: 1, pageSize: 100, ...input }, { token });
  if (res.status !== 200) throw new Error(`${call.path}: ${res.status} ${res.msg}`);
  return (res.data as { rows: { name?: string }[] }).rows;
};

/** Whether the page cancels a beforeunload event: the browser then asks before reload or tab close. */
const leaveIsQuestioned = (page: Page): Promise<boolean> =>
  page.evaluate(
    "(() => { const event = new Event('beforeunload', { cancelable: true }); window.dispatchEvent(event); return event.defaultPrevented; })()",
  ) as Promise<boolean>;

/** Picks a one-field date in an antd DatePicker by typing it. */
const typeDate = async (input: Locator, value: string) => {
  await input.click();
  await input.fill(value);
  await input.press('Enter');
};

describe.skipIf(!hasChromium)('forms (browser)', () => {
  let server: E2eServer;
  let browser: Browser;
  let home: Login & { id: number };
  let homeToken: string;
  let manager: BrowserSession;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const group = await createProvider(server, {
      name: 'Birch Care Group',
      userName: 'birchGroup',
      password: PASSWORD,
    });
    home = await createProvider(server, {
      name: 'Birch House',
      userName: 'birchHouse',
      password: PASSWORD,
      parentId: group.id,
    });
    homeToken = (await apiLogin(server, home)).token;
    manager = await openSession(browser, server);
    await signIn(manager.page, home);
  });

  afterAll(async () => {
    await manager?.context.close();
    await browser?.close();
    await server?.close();
  });

  it('registers one resident for a double click on Save, and one for a click plus Enter', async () => {
    const { page } = manager;
    const register = async (name: string, submitTwice: (save: Locator, nameField: Locator) => Promise<void>) => {
      await page.goto(RESIDENT_EDIT);
      const form = page.getByTestId('resident-form');
      const nameField = form.getByLabel(ui('residents', 'field.name'), { exact: true });
      await nameField.fill(name);
      await form.getByLabel(ui('residents', 'gender.1')).check();
      await typeDate(form.getByLabel(ui('residents', 'field.birthDate')), '1941-02-03');
      const sent = await requestsTo(page, '/insertUser', () =>
        submitTwice(page.getByTestId('resident-save'), nameField),
      );
      await waitForPath(page, RESIDENT_LIST);
      return sent;
    };
    expect(await register('Double Click Resident', (save) => save.dblclick())).toBe(1);
    expect(
      await register('Click Enter Resident', async (save) => {
        await save.click();
        await page.keyboard.press('Enter');
      }),
    ).toBe(1);
    const rows = await listed(server, homeToken, residentList, { keyWord: 'Resident' });
    expect(rows.filter((r) => r.name === 'Double Click Resident')).toHaveLength(1);
    expect(rows.filter((r) => r.name === 'Click Enter Resident')).toHaveLength(1);
    // No "same name" question was raised by a second request.
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
  });

  it('adds one area for a double click or a click plus Enter; a taken name shows on the name field', async () => {
    const { page } = manager;
    await page.goto(FACILITY);
    const dialog = modalWith(page, 'area-form');
    const nameField = dialog.getByLabel(ui('facility', 'area.name'));
    const save = dialog.locator('.ant-modal-footer .ant-btn-primary');
    const add = async (name: string, submitTwice: () => Promise<void>) => {
      await page.getByTestId('add-area').click();
      await nameField.fill(name);
      return requestsTo(page, '/area/insertArea', submitTwice);
    };
    expect(await add('Double Click Building', () => save.dblclick())).toBe(1);
    await dialog.waitFor({ state: 'hidden' });
    expect(
      await add('Click Enter Building', async () => {
        await save.click();
        await page.keyboard.press('Enter');
      }),
    ).toBe(1);
    await dialog.waitFor({ state: 'hidden' });
    for (const name of ['Double Click Building', 'Click Enter Building']) {
      expect(await listed(server, homeToken, getAreaList, { keyWord: name })).toHaveLength(1);
    }

    // The same name again: the server's refusal under the name, the dialog open with what was typed.
    expect(await add('Double Click Building', () => save.click())).toBe(1);
    const nameItem = dialog.locator('.ant-form-item').filter({ has: page.getByLabel(ui('facility', 'area.name')) });
    await nameItem.locator('.ant-form-item-explain-error').waitFor();
    expect(await nameItem.locator('.ant-form-item-explain-error').innerText()).toContain('Double Click Building');
    expect(await nameField.inputValue()).toBe('Double Click Building');
    await dialog.locator('.ant-modal-footer .ant-btn').first().click();
    await page.getByTestId('unsaved-leave').click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('creates one community for a double click, and one for a click plus Enter', async () => {
    const { page } = manager;
    await page.goto(FACILITY);
    await page.getByRole('tab', { name: ui('facility', 'page.communitiesTab') }).click();
    const create = async (name: string, submitTwice: (save: Locator, field: Locator) => Promise<void>) => {
      await page.getByTestId('community-create').click();
      const dialog = modalWith(page, 'community-form');
      const field = dialog.getByLabel(ui('facility', 'community.name'));
      await field.fill(name);
      const save = dialog.locator('.ant-modal-footer .ant-btn-primary');
      const sent = await requestsTo(page, '/community/insertCommunity', () => submitTwice(save, field));
      await dialog.waitFor({ state: 'hidden' });
      return sent;
    };
    expect(await create('Double Click Community', (save) => save.dblclick())).toBe(1);
    expect(
      await create('Click Enter Community', async (save) => {
        await save.click();
        await page.keyboard.press('Enter');
      }),
    ).toBe(1);
    const rows = await listed(server, homeToken, queryCommunityList, { keyWord: 'Community' });
    expect(rows.filter((r) => r.name === 'Double Click Community')).toHaveLength(1);
    expect(rows.filter((r) => r.name === 'Click Enter Community')).toHaveLength(1);
  });

  it('adds one caregiver for a double click on Save, and one for a click plus Enter', async () => {
    const { page } = manager;
    const add = async (name: string, phone: string, submitTwice: (save: Locator, field: Locator) => Promise<void>) => {
      await page.goto(CAREGIVER_EDIT);
      const form = page.getByTestId('caregiver-form');
      const field = form.getByLabel(ui('caregivers', 'domestic.field.name'));
      await field.fill(name);
      await form.getByLabel(ui('caregivers', 'field.phone')).fill(phone);
      const sent = await requestsTo(page, '/nursing/insertNursing', () =>
        submitTwice(page.getByTestId('caregiver-save'), field),
      );
      // The new account's credentials are shown once; close them.
      await page.locator('.ant-modal-confirm .ant-btn-primary').click();
      return sent;
    };
    expect(await add('Double Click Carer', '13800000001', (save) => save.dblclick())).toBe(1);
    expect(
      await add('Click Enter Carer', '13800000002', async (save) => {
        await save.click();
        await page.keyboard.press('Enter');
      }),
    ).toBe(1);
    const rows = await listed(server, homeToken, queryNursingList, { keyWord: 'Carer' });
    expect(rows.filter((r) => r.name === 'Double Click Carer')).toHaveLength(1);
    expect(rows.filter((r) => r.name === 'Click Enter Carer')).toHaveLength(1);
  });

  it('asks before leaving a half-filled resident form by the menu; staying keeps what was typed', async () => {
    const { page } = manager;
    await page.goto(RESIDENT_EDIT);
    const form = page.getByTestId('resident-form');
    const nameField = form.getByLabel(ui('residents', 'field.name'), { exact: true });
    await nameField.fill('Half Typed');
    // Reload and tab close: the browser's own question is asked (the event is cancelled).
    expect(await leaveIsQuestioned(page)).toBe(true);

    await page.getByTestId('menu').locator(`a[href="${RESIDENT_LIST}"]`).click();
    const stay = page.getByTestId('unsaved-stay');
    await stay.waitFor();
    await screenshot(page, 'forms-unsaved-question');
    await stay.click();
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe(RESIDENT_EDIT);
    expect(await nameField.inputValue()).toBe('Half Typed');

    // Cancel asks too; leaving discards and goes to the list.
    await page.getByTestId('resident-cancel').click();
    await page.getByTestId('unsaved-leave').click();
    await waitForPath(page, RESIDENT_LIST);
    expect(await leaveIsQuestioned(page)).toBe(false);
  });

  it('shows a failing list as an error with a retry (not "no data"), and the rows after the retry', async () => {
    const { page } = manager;
    await page.route('**/userManagement/userList*', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ status: 500, msg: 'The server could not answer.', data: null, msgKey: 'server_error' }),
      }),
    );
    await page.goto(RESIDENT_LIST);
    const error = page.getByTestId('list-error');
    await error.waitFor();
    expect(await error.innerText()).toContain(text('en-US', 'list.loadFailed'));
    expect(await page.getByTestId('resident-table').getByText('No data').count()).toBe(0);
    await screenshot(page, 'forms-list-error');
    await page.unroute('**/userManagement/userList*');
    await page.getByTestId('list-retry').click();
    await page.getByTestId('resident-table').getByText('Double Click Resident').waitFor();
    expect(await error.count()).toBe(0);
  });

  it('puts a taken login account on its field, in the provider dialog, and shows the rule once', async () => {
    const { page, context } = await openSession(browser, server);
    await signIn(page, admin);
    await openMenuEntry(page, PROVIDERS);
    await page.getByTestId('provider-create').click();
    const form = page.getByTestId('provider-form');
    const dialog = modalWith(page, 'provider-form');
    await form.getByLabel(text('en-US', 'providers.name')).fill('Another Birch');
    const account = form.getByLabel(text('en-US', 'providers.userName'));
    const accountItem = form
      .locator('.ant-form-item')
      .filter({ has: page.getByLabel(text('en-US', 'providers.userName')) });
    // A rule broken in the browser: the message in red, the same rule's grey hint hidden.
    await account.fill('ab_1');
    await accountItem.locator('.ant-form-item-explain-error').waitFor();
    expect(await accountItem.locator('.ant-form-item-extra').isVisible()).toBe(false);

    await account.fill('birchHouse');
    await form.getByLabel(text('en-US', 'providers.password')).fill(PASSWORD);
    const save = dialog.locator('.ant-modal-footer .ant-btn-primary');
    expect(await requestsTo(page, '/provider/insertProvider', () => save.dblclick())).toBe(1);
    const error = accountItem.locator('.ant-form-item-explain-error');
    await error.waitFor();
    expect(await error.innerText()).toBeTruthy();
    expect(await dialog.isVisible()).toBe(true);
    await screenshot(page, 'forms-field-error');

    // A free account saves once, double click or not.
    await account.fill('anotherBirch');
    expect(await requestsTo(page, '/provider/insertProvider', () => save.dblclick())).toBe(1);
    await dialog.waitFor({ state: 'hidden' });
    const rows = await listed(server, server.adminToken, queryProviderList, { keyWord: 'Another Birch' });
    expect(rows).toHaveLength(1);

    // A click, then Enter on the focused button while the first request runs: one provider.
    await page.getByTestId('provider-create').click();
    await form.getByLabel(text('en-US', 'providers.name')).fill('Third Birch');
    await account.fill('thirdBirch');
    await form.getByLabel(text('en-US', 'providers.password')).fill(PASSWORD);
    expect(
      await requestsTo(page, '/provider/insertProvider', async () => {
        await save.click();
        await page.keyboard.press('Enter');
      }),
    ).toBe(1);
    await dialog.waitFor({ state: 'hidden' });
    expect(await listed(server, server.adminToken, queryProviderList, { keyWord: 'Third Birch' })).toHaveLength(1);
    await context.close();
  });
});
