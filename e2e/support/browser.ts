import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Envelope, LoginResult } from '@vigil/contract';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import type { E2eServer, Login } from './server.ts';

const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LOCALES_DIR = path.resolve(E2E_DIR, '../apps/web/src/shared/i18n/locales');
export const SCREENSHOTS_DIR = path.join(E2E_DIR, 'screenshots');

export const UI_LANGUAGES = ['zh-CN', 'en-US', 'ko', 'ja', 'de', 'cs', 'it', 'fr'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

const locales = new Map<UiLanguage, Record<string, string>>();
/** The console's own translation of a key, read from its locale file. */
export const text = (language: UiLanguage, key: string): string => {
  let messages = locales.get(language);
  if (!messages) {
    messages = JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, `${language}.json`), 'utf8')) as Record<
      string,
      string
    >;
    locales.set(language, messages);
  }
  const value = messages[key];
  if (value === undefined) throw new Error(`no ${key} in ${language}.json`);
  return value;
};

const featureLocales = new Map<string, Record<string, string>>();
/** A screen's own translation of a key (apps/web/src/features/<feature>/locales). */
export const featureText = (language: UiLanguage, feature: string, key: string): string => {
  const file = path.resolve(LOCALES_DIR, '../../../features', feature, 'locales', `${language}.json`);
  let messages = featureLocales.get(file);
  if (!messages) {
    messages = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    featureLocales.set(file, messages);
  }
  const value = messages[key];
  if (value === undefined) throw new Error(`no ${key} in ${feature}/${language}.json`);
  return value;
};

/** Text without white space: antd puts a space between the two characters of a CJK button label. */
export const squash = (value: string | null): string => (value ?? '').replace(/\s+/g, '');

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions and console errors of the page, in order. */
  problems: string[];
}

/**
 * A fresh browser profile (empty storage) on the server. The interface language starts as
 * `language` unless the page itself chose another one (the language switch reloads the page).
 * The overseas edition is the server's (`startServer({ env: { VIGIL_ABROAD: '1' } })`), never set here.
 */
export const openSession = async (
  browser: Browser,
  server: E2eServer,
  options: { language?: UiLanguage; viewport?: { width: number; height: number } } = {},
): Promise<BrowserSession> => {
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: options.viewport ?? { width: 1440, height: 900 },
    locale: 'en-US',
    // The console honours the system's reduced-motion setting (dialogs and popups open without
    // animating): on a loaded two-core machine every animation frame of every dialog cost time.
    reducedMotion: 'reduce',
  });
  await context.addInitScript(
    ({ language }) => {
      if (!window.localStorage.getItem('language')) window.localStorage.setItem('language', language);
    },
    { language: options.language ?? 'en-US' },
  );
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()} (${message.location().url})`);
  });
  return { context, page, problems };
};

/** Waits until no spinner shows (lazy screens, lists loading). */
export const settled = (page: Page): Promise<void> =>
  page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' });

/** Saves e2e/screenshots/<name>.png once the page has settled. */
export const screenshot = async (page: Page, name: string): Promise<void> => {
  await settled(page);
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS_DIR, `${name}.png`), fullPage: true });
};

/**
 * Saves a screenshot once dialogs, dropdowns and form messages have finished moving in or out
 * (spinners and other endless animations aside), so it shows what the user ends up seeing.
 * A function, not a string: the console's CSP forbids evaluating strings.
 */
export const stillScreenshot = async (page: Page, name: string, timeout = 30_000): Promise<void> => {
  await page.waitForFunction(
    () =>
      document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    undefined,
    { timeout },
  );
  await screenshot(page, name);
};

const pathOf = (url: string): string => new URL(url).pathname;

/** Waits until the page shows `pathname` (query and hash ignored). */
export const waitForPath = (page: Page, pathname: string): Promise<void> =>
  page.waitForURL((url) => url.pathname === pathname);

/** Fills and submits the login form; resolves with the server's answer to the login call. */
export const submitLogin = async (page: Page, login: Login): Promise<Envelope<LoginResult>> => {
  await page.getByTestId('login-user').fill(login.userName);
  await page.getByTestId('login-password').fill(login.password);
  const answer = page.waitForResponse((res) => pathOf(res.url()) === '/admin/login');
  await page.getByTestId('login-submit').click();
  return (await (await answer).json()) as Envelope<LoginResult>;
};

/** Opens /login, signs in and waits for the landing page the server named. */
export const signIn = async (page: Page, login: Login): Promise<LoginResult> => {
  await page.goto('/login');
  const answer = await submitLogin(page, login);
  if (answer.status !== 200 || !answer.data) throw new Error(`login ${login.userName}: ${answer.status} ${answer.msg}`);
  await waitForPath(page, answer.data.landingPath);
  await page.getByTestId('navbar').waitFor();
  return answer.data;
};

/** Opens every collapsed submenu of the sidebar. */
export const expandMenu = async (page: Page): Promise<void> => {
  const closed = page
    .getByTestId('menu')
    .locator('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
  for (let guard = 0; (await closed.count()) > 0; guard++) {
    if (guard > 20) throw new Error('the sidebar submenus do not open');
    await closed.first().click();
  }
};

/** Clicks a sidebar entry (opening its group first) and waits for its page. */
export const openMenuEntry = async (page: Page, path: string): Promise<void> => {
  const link = page.getByTestId('menu').locator(`a[href="${path}"]`);
  if (!(await link.isVisible())) await expandMenu(page);
  await link.click();
  await waitForPath(page, path);
};

/** The paths the sidebar links to, every submenu opened. */
export const menuPaths = async (page: Page): Promise<string[]> => {
  await expandMenu(page);
  return page
    .getByTestId('menu')
    .locator('a[href]')
    .evaluateAll((anchors: E2eElement[]) => anchors.map((a) => a.getAttribute('href') ?? ''));
};

/** Opens the avatar menu (a hover dropdown) and picks an entry by its text. */
export const avatarMenu = async (page: Page, label: string): Promise<void> => {
  await page.getByTestId('nav-avatar').hover();
  await page.getByRole('menuitem', { name: label }).click();
};

/** Closes the modal holding `testId` with its close button and waits until it is gone. */
export const closeDialog = async (page: Page, testId: string): Promise<void> => {
  await page
    .locator('.ant-modal')
    .filter({ has: page.getByTestId(testId) })
    .locator('.ant-modal-close')
    .click();
  await page.getByTestId(testId).waitFor({ state: 'detached' });
};

/** Signs out through the avatar menu and its confirmation. */
export const signOut = async (page: Page, language: UiLanguage = 'en-US'): Promise<void> => {
  await avatarMenu(page, text(language, 'avatar.signOut'));
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: text(language, 'common.confirm') })
    .click();
  await waitForPath(page, '/login');
};
