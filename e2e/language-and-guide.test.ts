import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openSession,
  signIn,
  stillScreenshot,
  text,
  UI_LANGUAGES,
  waitForPath,
  type UiLanguage,
} from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createProvider, startServer, type E2eServer } from './support/server.ts';

warnWhenNoChromium('language dialog and download guide');

// Issue 8, point 9: the navbar's language dialog always lists (and marks) the language the console
// shows, so nobody is trapped in another one; in the overseas edition (the server's VIGIL_ABROAD,
// decision 0033) it offers all eight.
// Issue 8, point 14: the download guide shows only buttons whose screen the role may open, and
// "family account" leads to the residents list (family accounts come from emergency contacts).

const PASSWORD = 'Care#Home2026';
const ADMIN = { userName: ADMIN_USER, password: ADMIN_PASSWORD };
const RESIDENTS = '/people-manage/userManage';
const ACCOUNTS = '/permission/accountmanager';
/** Where each guide button should lead. */
const TARGETS: Record<string, string> = {
  'guide-createResident': RESIDENTS,
  'guide-createFamily': RESIDENTS,
  'guide-createMaintenance': ACCOUNTS,
};

const languageDialog = (page: Page): Locator => page.getByTestId('language-dialog');

/** Opens the navbar's language dialog; resolves with the languages it offers, in order. */
const openLanguageDialog = async (page: Page): Promise<string[]> => {
  await page.getByTestId('nav-language').click();
  await languageDialog(page).waitFor();
  return languageDialog(page)
    .locator('input[type="radio"]')
    .evaluateAll((inputs: E2eElement[]) => inputs.map((input) => input.getAttribute('value') ?? ''));
};

/** The language entry marked current: checked, aria-current, and its visible "(current)" mark. */
const expectCurrent = async (page: Page, language: UiLanguage, ui: UiLanguage): Promise<void> => {
  const radio = page.getByTestId(`language-${language}`);
  expect(await radio.isChecked()).toBe(true);
  expect(await radio.getAttribute('aria-current')).toBe('true');
  const marks = languageDialog(page).getByTestId('language-current');
  expect(await marks.count()).toBe(1);
  expect(await marks.textContent()).toContain(text(ui, 'language.current'));
  // The mark sits in the current language's own entry.
  const entry = languageDialog(page).locator('label').filter({ has: radio });
  expect(await entry.getByTestId('language-current').count()).toBe(1);
};

/** Picks a language in the open dialog and waits for the reload that applies it. */
const switchTo = async (page: Page, language: UiLanguage): Promise<void> => {
  await Promise.all([page.waitForEvent('load', { timeout: 60_000 }), page.getByTestId(`language-${language}`).click()]);
  await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
  await page.getByTestId('navbar').waitFor();
};

/** The guide's create-account buttons, by test id, in order. */
const guideButtons = async (page: Page): Promise<string[]> => {
  await page.getByTestId('nav-guide').click();
  const dialog = page.locator('.ant-modal').filter({ hasText: text('en-US', 'guide.title') });
  await dialog.waitFor();
  return dialog
    .locator('[data-testid^="guide-create"]')
    .evaluateAll((buttons: E2eElement[]) => buttons.map((b) => b.getAttribute('data-testid') ?? ''));
};

describe.skipIf(!hasChromium)('language dialog and download guide (browser)', () => {
  let server: E2eServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('in English without the abroad flag lists English (current) and Chinese, and switching is never a trap', async () => {
    const { page, context, problems } = await openSession(browser, server, { language: 'en-US' });
    await signIn(page, ADMIN);
    expect(await openLanguageDialog(page)).toEqual(['zh-CN', 'en-US']);
    await expectCurrent(page, 'en-US', 'en-US');
    await stillScreenshot(page, 'language-dialog-en-US');

    await switchTo(page, 'zh-CN');
    await page.getByTestId('menu').getByText(text('zh-CN', 'menu.group.permission'), { exact: true }).waitFor();
    // Chinese now, and English is still offered to come back.
    expect(await openLanguageDialog(page)).toEqual(['zh-CN', 'en-US']);
    await expectCurrent(page, 'zh-CN', 'zh-CN');
    await stillScreenshot(page, 'language-dialog-zh-CN');

    await switchTo(page, 'en-US');
    await page.getByTestId('menu').getByText(text('en-US', 'menu.group.permission'), { exact: true }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('in the overseas edition lists all eight languages, the current one marked', async () => {
    const abroad = await startServer({ env: { VIGIL_ABROAD: '1' } });
    try {
      const { page, context, problems } = await openSession(browser, abroad, { language: 'en-US' });
      await signIn(page, ADMIN);
      expect(await page.evaluate(() => window.localStorage.getItem('isAbroad'))).toBe('true');
      expect(await openLanguageDialog(page)).toEqual([...UI_LANGUAGES]);
      await expectCurrent(page, 'en-US', 'en-US');
      await stillScreenshot(page, 'language-dialog-abroad');
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await abroad.close();
    }
  });

  it('the download guide of the administrator leads to no screen it cannot open', async () => {
    const { page, context, problems } = await openSession(browser, server);
    await signIn(page, ADMIN);
    const buttons = await guideButtons(page);
    // The residents list is a care screen: neither resident nor family button for the administrator.
    expect(buttons).toEqual(['guide-createMaintenance']);
    await stillScreenshot(page, 'guide-administrator');
    for (const [index, testId] of buttons.entries()) {
      if (index > 0) await guideButtons(page);
      const target = TARGETS[testId] ?? '';
      const before = new URL(page.url()).pathname;
      await page.getByTestId(testId).click();
      await page.waitForURL((url) => url.pathname !== before || url.pathname === target);
      await page.getByTestId(`tag-${target}`).waitFor();
      expect(new URL(page.url()).pathname).not.toBe('/noPermission');
      expect(new URL(page.url()).pathname).toBe(target);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('for a class 1 provider the family-account button opens the residents list', async () => {
    const group = await createProvider(server, { name: 'Birch Group', userName: 'birchGroup', password: PASSWORD });
    await createProvider(server, {
      name: 'Birch House',
      userName: 'birchHouse',
      password: PASSWORD,
      parentId: group.id,
    });
    const { page, context, problems } = await openSession(browser, server);
    await signIn(page, group);
    expect(await guideButtons(page)).toEqual(['guide-createResident', 'guide-createFamily', 'guide-createMaintenance']);
    expect(await page.getByTestId('guide-family-hint').textContent()).toBe(text('en-US', 'guide.familyHint'));
    await stillScreenshot(page, 'guide-class-1');
    await page.getByTestId('guide-createFamily').click();
    await waitForPath(page, RESIDENTS);
    await page.getByTestId(`tag-${RESIDENTS}`).waitFor();
    await stillScreenshot(page, 'guide-class-1-family');
    expect(problems).toEqual([]);
    await context.close();
  });
});
