import { CONSOLE_ROUTES, landingPathFor, type Role } from '@vigil/contract';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  closeDialog,
  launchBrowser,
  menuPaths,
  openSession,
  screenshot,
  signIn,
  stillScreenshot,
  submitLogin,
  squash,
  text,
  UI_LANGUAGES,
  waitForPath,
  type BrowserSession,
} from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import {
  ADMIN_PASSWORD,
  ADMIN_USER,
  apiLogin,
  createAccount,
  createAccountDirectly,
  createProvider,
  ssoQuery,
  startServer,
  type E2eServer,
  type Login,
} from './support/server.ts';

warnWhenNoChromium('login');

interface RoleCase {
  /** Test title and screenshot name. */
  name: string;
  role: Role;
  /** Refused on the web console (installers use the app, relatives the mini program). */
  refused?: boolean;
}

const ROLE_CASES: RoleCase[] = [
  { name: 'SUPER_ROLE', role: 'SUPER_ROLE' },
  { name: 'SENIOR_ROLE', role: 'SENIOR_ROLE' },
  { name: 'BUSINESS_ROLE', role: 'BUSINESS_ROLE' },
  { name: 'GOVERNMENT', role: 'GOVERNMENT' },
  { name: 'ONE_ROLE-with-providers', role: 'ONE_ROLE' },
  { name: 'ONE_ROLE-without-providers', role: 'ONE_ROLE' },
  { name: 'TWO_ROLE', role: 'TWO_ROLE' },
  { name: 'SUB_ROLE', role: 'SUB_ROLE' },
  { name: 'SOCIAL_WORKER', role: 'SOCIAL_WORKER' },
  { name: 'CARER', role: 'CARER' },
  { name: 'MAINTAIN', role: 'MAINTAIN', refused: true },
  { name: 'RELATIVES', role: 'RELATIVES', refused: true },
];

describe.skipIf(!hasChromium)('console login (browser)', () => {
  let server: E2eServer;
  let browser: Browser;
  const logins = new Map<string, Login>();
  /** Font family of the login page's language selector, per language. */
  const selectFonts = new Map<string, string>();

  const session = (options: Parameters<typeof openSession>[2] = {}) => openSession(browser, server, options);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    // Every account but the initial administrator gets a generated password, as the console creates them.
    const providerSide = async () => {
      const [north, south] = await Promise.all([
        createProvider(server, { name: 'North Care Group', userName: 'northGroup' }),
        createProvider(server, { name: 'South Care Group', userName: 'southGroup' }),
      ]);
      const home = await createProvider(server, { name: 'North Home', userName: 'northHome', parentId: north.id });
      // Installers and social workers are created by their provider.
      const homeToken = (await apiLogin(server, home)).token;
      const [sub, social, fitter, nurse, family] = await Promise.all([
        createAccount(server, { userName: 'northClerk', role: 'SUB_ROLE', providerId: home.id }),
        createAccount(server, { userName: 'northSocial', role: 'SOCIAL_WORKER' }, homeToken),
        createAccount(server, { userName: 'northFitter', role: 'MAINTAIN' }, homeToken),
        createAccountDirectly(server, { userName: 'northNurse', role: 'CARER', providerId: home.id }),
        createAccountDirectly(server, { userName: 'northFamily', role: 'RELATIVES', providerId: home.id }),
      ]);
      return {
        'ONE_ROLE-with-providers': north,
        'ONE_ROLE-without-providers': south,
        TWO_ROLE: home,
        SUB_ROLE: sub,
        SOCIAL_WORKER: social,
        MAINTAIN: fitter,
        CARER: nurse,
        RELATIVES: family,
      };
    };
    const [senior, business, government, providers] = await Promise.all([
      createAccount(server, { userName: 'seniorAdmin', role: 'SENIOR_ROLE' }),
      createAccount(server, { userName: 'businessStaff', role: 'BUSINESS_ROLE' }),
      createAccount(server, { userName: 'cityViewer', role: 'GOVERNMENT' }),
      providerSide(),
    ]);
    const all: Record<string, Login> = {
      SUPER_ROLE: { userName: ADMIN_USER, password: ADMIN_PASSWORD },
      SENIOR_ROLE: senior,
      BUSINESS_ROLE: business,
      GOVERNMENT: government,
      ...providers,
    };
    for (const [name, login] of Object.entries(all)) logins.set(name, login);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  describe('each role', () => {
    // One profile for all roles, emptied between them: the console's files stay in its cache.
    let shared: BrowserSession;
    beforeAll(async () => {
      shared = await session();
    });
    afterEach(async () => {
      await shared.page.evaluate(() => window.localStorage.clear());
      shared.problems.length = 0;
    });

    it.each(ROLE_CASES)('$name signs in through the form and lands on its page', async ({ name, role, refused }) => {
      const login = logins.get(name);
      if (!login) throw new Error(`no account for ${name}`);
      const { page, problems } = shared;
      await page.goto('/login');
      const answer = await submitLogin(page, login);
      if (refused) {
        expect(answer.msgKey).toBe('login.noAccess');
        await expect
          .poll(() => page.getByTestId('login-error').textContent())
          .toBe(text('en-US', 'login.error.noAccess'));
        expect(new URL(page.url()).pathname).toBe('/login');
        expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
      } else {
        expect(answer.status, answer.msg).toBe(200);
        const result = answer.data;
        if (!result) throw new Error('no login result');
        expect(result.role).toBe(role);
        const hasAvailable = result.providerList.some((p) => p.available);
        expect(result.landingPath).toBe(landingPathFor(role, hasAvailable));
        if (name === 'ONE_ROLE-with-providers') expect(result.landingPath).toBe('/realMonitor/index');
        if (name === 'ONE_ROLE-without-providers') expect(result.landingPath).toBe('/permission/providermanager');
        // The accounts replaced their generated passwords (e2e/support/server.ts), and the bootstrap
        // administrator's was chosen by the operator: nothing to replace, straight to the landing page.
        expect(result.mustChangePassword).toBe(false);
        await waitForPath(page, result.landingPath);
        if (role === 'GOVERNMENT') {
          // Its only screen, the statistics dashboard, is planned (issue 29, point 11): the console
          // says no screen is open to the account yet, and offers signing out, not a later-release page.
          expect(result.landingPath).toBe('/noPermission');
          await expect
            .poll(() => page.getByTestId('error-403').locator('.ant-result-title').textContent())
            .toBe(text('en-US', 'error.noScreens.title'));
          await screenshot(page, `role-${name}`);
          await page.getByTestId('error-sign-out').click();
          await waitForPath(page, '/login');
          expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
          expect(problems).toEqual([]);
          return;
        }
        await page.getByTestId('navbar').waitFor();
        await expect.poll(() => page.getByTestId('nav-user').textContent()).toBe(result.name || result.userName);
        expect(await page.getByTestId(`tag-${result.landingPath}`).count()).toBe(1);
        // The sidebar offers only entries of the role, never a planned screen.
        const links = await menuPaths(page);
        expect(links.length).toBeGreaterThan(0);
        for (const link of links) {
          const route = CONSOLE_ROUTES.find((r) => r.path === link);
          expect(route?.roles, link).toContain(role);
          expect(route?.hidden, link).toBeFalsy();
          expect(route?.planned, link).toBeFalsy();
        }
      }
      await screenshot(page, `role-${name}`);
      expect(problems).toEqual([]);
    });
  });

  it('shows the wrong-password message (status 102) in the interface language', async () => {
    const { page, problems, context } = await session();
    await page.goto('/login');
    for (const language of ['en-US', 'zh-CN'] as const) {
      if (language !== 'en-US') {
        await page.getByTestId('login-language').selectOption(language);
        await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
      }
      const answer = await submitLogin(page, { userName: ADMIN_USER, password: 'Not-The-Pass#1' });
      expect(answer.status).toBe(102);
      await expect.poll(() => page.getByTestId('login-error').textContent()).toBe(text(language, 'login.error.102'));
      expect(new URL(page.url()).pathname).toBe('/login');
      await screenshot(page, `login-wrong-password-${language}`);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('signs in by fast login (SSO link) with the simple navbar', async () => {
    const { page, problems, context } = await session();
    const link = `/login?${ssoQuery(server, ADMIN_USER).toString()}`;
    await page.goto(link);
    await waitForPath(page, landingPathFor('SUPER_ROLE', false));
    await page.getByTestId('navbar').waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem('fastLogin'))).toBe('true');
    // Fast login shows breadcrumb, user name, clock and avatar only.
    await expect.poll(() => page.getByTestId('nav-user').textContent()).toBe('Super administrator');
    expect(await page.getByTestId('nav-avatar').count()).toBe(1);
    for (const hidden of ['nav-toggle', 'nav-language', 'nav-fullscreen', 'nav-guide']) {
      expect(await page.getByTestId(hidden).count(), hidden).toBe(0);
    }
    await screenshot(page, 'fast-login');

    expect(problems).toEqual([]);
    await context.close();

    // Each signature works once: the same link again falls back to the login form.
    const replay = await session();
    await replay.page.goto(link);
    await expect
      .poll(() => replay.page.getByTestId('login-error').textContent())
      .toBe(text('en-US', 'login.fast.failed'));
    await replay.page.getByTestId('login-form').waitFor();
    expect(replay.problems).toEqual([]);
    await replay.context.close();
  });

  it('switches the login page to each of the eight languages', async () => {
    const { page, problems, context } = await session();
    await page.goto('/login');
    await page.getByTestId('login-submit').waitFor();
    for (const language of UI_LANGUAGES) {
      await page.getByTestId('login-language').selectOption(language);
      // The switch stores the language and reloads the page.
      await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
      await expect
        .poll(async () => squash(await page.getByTestId('login-submit').textContent()))
        .toBe(squash(text(language, 'login.submit')));
      expect(await page.locator('.login-subtitle').textContent()).toBe(text(language, 'login.subtitle'));
      expect(await page.locator('.login-field > span').first().textContent()).toBe(text(language, 'login.account'));
      expect(await page.getByTestId('login-language').inputValue()).toBe(language);
      // An empty submit shows the translated field messages.
      await page.getByTestId('login-submit').click();
      await expect
        .poll(() => page.locator('.login-field-error').first().textContent())
        .toBe(text(language, 'login.accountRequired'));
      if (['zh-CN', 'ja', 'ko'].includes(language)) {
        // Headless Chromium has no CJK font: the bundled Noto faces must have been fetched and used.
        const loaded = await page.evaluate(async () => {
          await document.fonts.ready;
          return [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/["']/g, ''));
        });
        expect(loaded.some((family) => family.startsWith('Noto Sans'))).toBe(true);
      }
      selectFonts.set(
        language,
        await page.getByTestId('login-language').evaluate((el: E2eElement) => getComputedStyle(el).fontFamily),
      );
      await screenshot(page, `login-${language}`);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('draws the language names of the login selector with the bundled CJK fonts', () => {
    // A native <select> draws in the system font unless told otherwise; this machine has no CJK
    // system font, so 简体中文 / 日本語 / 한국어 would show as boxes.
    expect(selectFonts.size).toBe(8);
    for (const [language, font] of selectFonts) expect(font, language).toContain('Noto Sans SC');
  });

  it("draws the login page's native select, radios and checkbox like the console's antd controls", async () => {
    const { page, problems, context } = await session();
    await page.goto('/login');
    await page.getByTestId('login-submit').waitFor();
    const select = page.getByTestId('login-language');
    const government = page.locator('input[type="radio"][value="government"]');
    const staff = page.locator('input[type="radio"][value="staff"]');
    const remember = page.getByTestId('login-remember');
    const styleOf = (locator: Locator) =>
      locator.evaluate((el: E2eElement) => {
        const s = getComputedStyle(el) as unknown as Record<string, string>;
        return {
          appearance: s.appearance,
          accentColor: s.accentColor,
          borderTopColor: s.borderTopColor,
          borderTopLeftRadius: s.borderTopLeftRadius,
          backgroundColor: s.backgroundColor,
          boxShadow: s.boxShadow,
        };
      });
    const heightOf = async (locator: Locator) => (await locator.boundingBox())?.height;

    // One control height (antd's 32px) for the selector, the text fields and the Sign-in button.
    const buttonHeight = await heightOf(page.getByTestId('login-submit'));
    expect(buttonHeight).toBe(32);
    for (const control of [select, page.getByTestId('login-user'), page.getByTestId('login-password')]) {
      expect(await heightOf(control)).toBe(buttonHeight);
    }
    // The selector: no browser box or arrow, antd's border and radius.
    expect(await styleOf(select)).toMatchObject({
      appearance: 'none',
      borderTopColor: 'rgb(217, 217, 217)',
      borderTopLeftRadius: '6px',
      backgroundColor: 'rgb(255, 255, 255)',
    });
    // Radios and checkbox: 16px boxes in the accent colour once chosen, grey-bordered otherwise.
    for (const box of [staff, government, remember]) {
      const size = await box.boundingBox();
      expect([size?.width, size?.height]).toEqual([16, 16]);
      expect((await styleOf(box)).accentColor).toBe('rgb(31, 111, 235)');
    }
    expect(await styleOf(government)).toMatchObject({ appearance: 'none', borderTopColor: 'rgb(217, 217, 217)' });
    expect(await styleOf(remember)).toMatchObject({ appearance: 'none', borderTopLeftRadius: '4px' });
    await government.check();
    await remember.check();
    await expect.poll(async () => (await styleOf(government)).backgroundColor).toBe('rgb(31, 111, 235)');
    await expect.poll(async () => (await styleOf(remember)).backgroundColor).toBe('rgb(31, 111, 235)');
    expect((await styleOf(staff)).backgroundColor).toBe('rgb(255, 255, 255)');
    // Focus: the accent border and the soft ring of antd's inputs.
    await select.focus();
    await expect.poll(async () => (await styleOf(select)).borderTopColor).toBe('rgb(31, 111, 235)');
    expect((await styleOf(select)).boxShadow).toContain('rgba(31, 111, 235, 0.15)');
    await stillScreenshot(page, 'login-native-controls');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('switches the console language from the navbar dialog', async () => {
    const { page, problems, context } = await session();
    await signIn(page, { userName: ADMIN_USER, password: ADMIN_PASSWORD });
    const radios = page.getByTestId('language-dialog').locator('input[type="radio"]');
    // The domestic edition offers Chinese and English (the current one always).
    await page.getByTestId('nav-language').click();
    await page.getByTestId('language-dialog').waitFor();
    expect(await radios.count()).toBe(2);
    expect(await page.getByTestId('language-zh-CN').count()).toBe(1);
    expect(await page.getByTestId('language-en-US').count()).toBe(1);
    await closeDialog(page, 'language-dialog');
    // The edition is the server's: an isAbroad flag set by hand is overwritten on the next load.
    await page.evaluate(() => window.localStorage.setItem('isAbroad', 'true'));
    await page.reload();
    await expect.poll(() => page.evaluate(() => window.localStorage.getItem('isAbroad'))).toBe('false');
    await page.getByTestId('nav-language').click();
    await page.getByTestId('language-dialog').waitFor();
    expect(await radios.count()).toBe(2);
    await closeDialog(page, 'language-dialog');

    for (const language of ['zh-CN', 'en-US'] as const) {
      await page.getByTestId('nav-language').click();
      await page.getByTestId('language-dialog').waitFor();
      // Choosing a language stores it and reloads the page (spec): wait for that reload itself.
      await Promise.all([
        page.waitForEvent('load', { timeout: 60_000 }),
        page.getByTestId(`language-${language}`).click(),
      ]);
      await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
      const menu = page.getByTestId('menu');
      await menu.getByText(text(language, 'menu.group.permission'), { exact: true }).waitFor();
      await expect
        .poll(() => page.getByTestId('tag-/permission/providermanager').textContent())
        .toBe(text(language, 'menu.providermanager'));
      await page.getByTestId('provider-table').waitFor();
      await screenshot(page, `console-${language}`);
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});
