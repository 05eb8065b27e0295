import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getAreaList, residentList, type CallDef } from '@vigil/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openMenuEntry, openSession, screenshot, signIn, text, waitForPath } from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import { apiLogin, createProvider, startServer, type E2eServer, type Login } from './support/server.ts';

warnWhenNoChromium('provider scope');

// Issue 8, point 1: what a class 1 account enters lands in the class 2 provider the sidebar names,
// the choice is the server's and survives a reload, and a new provider is choosable at once.

const FEATURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/src/features');
const featureText = (feature: string, key: string): string =>
  (
    JSON.parse(fs.readFileSync(path.join(FEATURES_DIR, feature, 'locales', 'en-US.json'), 'utf8')) as Record<
      string,
      string
    >
  )[key] ?? key;

const PASSWORD = 'Care#Home2026';
const FACILITY = '/BunkManage/index';
const RESIDENT_EDIT = '/people-manage/addAndEdit/addAndEditUser';
const RESIDENT_LIST = '/people-manage/userManage';
const PROVIDERS = '/permission/providermanager';

const modalWith = (page: Page, testId: string): Locator =>
  page.locator('.ant-modal').filter({ has: page.getByTestId(testId) });

const names = async (server: E2eServer, token: string, call: CallDef): Promise<string[]> => {
  const res = await server.app.call(call, { pageNum: 1, pageSize: 100 }, { token });
  if (res.status !== 200) throw new Error(`${call.path}: ${res.status} ${res.msg}`);
  return (res.data as { rows: { name: string }[] }).rows.map((r) => r.name).sort();
};

const addArea = async (page: Page, name: string) => {
  await page.goto(FACILITY);
  await page.getByTestId('add-area').click();
  const dialog = modalWith(page, 'area-form');
  await dialog.getByLabel(featureText('facility', 'area.name')).fill(name);
  await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
  await dialog.waitFor({ state: 'hidden' });
};

const addResident = async (page: Page, name: string) => {
  await page.goto(RESIDENT_EDIT);
  const form = page.getByTestId('resident-form');
  await form.getByLabel(featureText('residents', 'field.name'), { exact: true }).fill(name);
  await form.getByLabel(featureText('residents', 'gender.1')).check();
  const birth = form.getByLabel(featureText('residents', 'field.birthDate'));
  await birth.click();
  await birth.fill('1940-05-06');
  await birth.press('Enter');
  await page.getByTestId('resident-save').click();
  await waitForPath(page, RESIDENT_LIST);
};

const sidebarProvider = (page: Page): Promise<string> =>
  page.getByTestId('sidebar').locator('.sidebar-provider').innerText();

describe.skipIf(!hasChromium)('the provider chosen in the sidebar (browser)', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a class 1 account fills two class 2 providers; each one’s own login sees exactly its data', async () => {
    const group: Login = { userName: 'oakGroup', password: PASSWORD };
    await createProvider(server, { name: 'Oak Group', ...group });
    const { page, context } = await openSession(browser, server);
    await signIn(page, group);
    await page.getByTestId('provider-prompt').waitFor();

    // The first class 2 provider, created in the console: the sidebar names it at once, no new login.
    await openMenuEntry(page, PROVIDERS);
    await page.getByTestId('provider-create').click();
    const form = page.getByTestId('provider-form');
    await form.getByLabel(text('en-US', 'providers.name')).fill('Oak House');
    await form.getByLabel(text('en-US', 'providers.userName')).fill('oakHouse');
    await form.getByLabel(text('en-US', 'providers.password')).fill(PASSWORD);
    await modalWith(page, 'provider-form').locator('.ant-modal-footer .ant-btn-primary').click();
    await modalWith(page, 'provider-form').waitFor({ state: 'hidden' });
    await expect.poll(() => sidebarProvider(page)).toContain('Oak House');

    await addArea(page, 'Oak House Wing');
    await addResident(page, 'Olive Oakley');

    // A second one through the API; after a reload the selector offers both and keeps the first.
    const groupId = (await apiLogin(server, group)).providerId ?? 0;
    await createProvider(server, { name: 'Oak Lodge', userName: 'oakLodge', password: PASSWORD, parentId: groupId });
    await page.reload();
    const select = page.getByTestId('provider-select');
    await select.waitFor();
    await expect.poll(() => select.innerText()).toContain('Oak House');

    await select.click();
    await page.locator('.ant-select-item-option[title="Oak Lodge"]').click();
    await expect.poll(() => select.innerText()).toContain('Oak Lodge');
    await addArea(page, 'Oak Lodge Wing');
    await addResident(page, 'Leo Lodge');
    await screenshot(page, 'provider-scope-lodge');

    // The choice is the server's: a reload keeps it, and the lists show the chosen provider's rows only.
    await page.reload();
    await expect.poll(() => page.getByTestId('provider-select').innerText()).toContain('Oak Lodge');
    await page.goto(FACILITY);
    await page.getByText('Oak Lodge Wing').first().waitFor();
    expect(await page.getByText('Oak House Wing').count()).toBe(0);

    const house = (await apiLogin(server, { userName: 'oakHouse', password: PASSWORD })).token;
    const lodge = (await apiLogin(server, { userName: 'oakLodge', password: PASSWORD })).token;
    expect(await names(server, house, getAreaList)).toEqual(['Oak House Wing']);
    expect(await names(server, house, residentList)).toEqual(['Olive Oakley']);
    expect(await names(server, lodge, getAreaList)).toEqual(['Oak Lodge Wing']);
    expect(await names(server, lodge, residentList)).toEqual(['Leo Lodge']);
    await context.close();
  });
});
