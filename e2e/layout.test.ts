import { insertProvider } from '@vigil/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  avatarMenu,
  expandMenu,
  launchBrowser,
  openMenuEntry,
  openSession,
  screenshot,
  settled,
  signIn,
  text,
  type UiLanguage,
} from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import { createProvider, startServer, type E2eServer, type Login } from './support/server.ts';

warnWhenNoChromium('layout');

// Issue 8, point 5 (and parts of 17): the console shell as a user sees it at 390, 800 and 1440 px.

const PASSWORD = 'Care#Home2026';
/** A long display name: it must truncate, not wrap one character per line. */
const GROUP_NAME = 'Chestnut Care Group International Holdings';
const PLATFORM = 'Chestnut Portal';
const PROVIDERS = '/permission/providermanager';
const ACCOUNTS = '/permission/accountmanager';
const DEVICES = '/deviceManage/deviceManage';

const box = async (page: Page, testId: string) => {
  const found = await page.getByTestId(testId).boundingBox();
  if (!found) throw new Error(`${testId} is not shown`);
  return found;
};

/** What these tests read of an element, beyond the shared browser globals. */
interface LayoutElement extends E2eElement {
  textContent: string | null;
  outerHTML: string;
  setAttribute(name: string, value: string): void;
}

const lineHeight = (page: Page, testId: string): Promise<number> =>
  page.getByTestId(testId).evaluate((el: E2eElement) => {
    const style = getComputedStyle(el) as unknown as { lineHeight: string; fontSize: string };
    return parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.6;
  });

// Expressions, not callbacks: the e2e project has no DOM types.
const scrollWidth = (page: Page): Promise<number> => page.evaluate<number>('document.documentElement.scrollWidth');
const scrollY = (page: Page): Promise<number> => page.evaluate<number>('window.scrollY');

const tagPaths = (page: Page): Promise<string[]> =>
  page
    .getByTestId('tags-view')
    .locator('[data-testid^="tag-"]')
    .evaluateAll((tags: E2eElement[]) => tags.map((tag) => (tag.getAttribute('data-testid') ?? '').slice(4)));

/** Opens a menu entry and waits until the console shows it, not only its address. */
const openScreen = async (page: Page, path: string): Promise<void> => {
  await openMenuEntry(page, path);
  await page.getByTestId(`tag-${path}`).waitFor();
};

/** Buttons of a region without an accessible name: neither aria-label nor text. */
const unnamedButtons = (page: Page, testId: string): Promise<string[]> =>
  page
    .getByTestId(testId)
    .locator('button, [role="button"]')
    .evaluateAll((buttons: E2eElement[]) =>
      buttons
        .map((b) => b as LayoutElement)
        .filter((b) => !(b.getAttribute('aria-label') ?? '').trim() && !(b.textContent ?? '').trim())
        .map((b) => b.outerHTML.slice(0, 120)),
    );

describe.skipIf(!hasChromium)('console layout (browser)', () => {
  let server: E2eServer;
  let browser: Browser;
  let group: Login;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    group = { userName: 'chestnutGroup', password: PASSWORD };
    const created = await server.app.call(
      insertProvider,
      { name: GROUP_NAME, userName: group.userName, passWord: PASSWORD, platformName: PLATFORM },
      { token: server.adminToken },
    );
    if (created.status !== 200 || !created.data) throw new Error(`insertProvider: ${created.msg}`);
    await createProvider(server, {
      name: 'Chestnut House',
      userName: 'chestnutHouse',
      password: PASSWORD,
      parentId: created.data.id,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const language of ['zh-CN', 'en-US'] as const satisfies readonly UiLanguage[]) {
    it(`at 390 px (${language}) the top bar keeps one line and the page never scrolls sideways`, async () => {
      const { page, context, problems } = await openSession(browser, server, { language });
      await page.setViewportSize({ width: 390, height: 844 });
      await signIn(page, group);
      await settled(page);
      for (const path of [PROVIDERS, DEVICES]) {
        await page.goto(path);
        await page.getByTestId('navbar').waitFor();
        await settled(page);
        expect((await box(page, 'navbar')).height).toBeLessThan(80);
        const user = await box(page, 'nav-user');
        expect(user.height).toBeLessThan(2 * (await lineHeight(page, 'nav-user')));
        expect(user.x + user.width).toBeLessThanOrEqual(390);
        expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
        // The tags bar scrolls sideways instead, keeping the current page's tag in sight.
        await expect
          .poll(async () => {
            const tag = await box(page, `tag-${path}`);
            return tag.x >= 0 && tag.x + tag.width <= 390;
          })
          .toBe(true);
      }
      await screenshot(page, `layout-390-${language}`);
      // The sidebar is a drawer here: the toggle opens it with the whole menu.
      await page.getByTestId('nav-toggle').click();
      await page.getByTestId('sidebar').waitFor();
      await expect.poll(async () => (await box(page, 'sidebar')).x).toBe(0);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
      await screenshot(page, `layout-390-drawer-${language}`);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it('at 800 px the breadcrumb shows on one line', async () => {
    const { page, context } = await openSession(browser, server);
    await page.setViewportSize({ width: 800, height: 900 });
    await signIn(page, group);
    await page.goto(PROVIDERS);
    await settled(page);
    const crumb = await box(page, 'breadcrumb');
    expect(crumb.height).toBeLessThan(2 * (await lineHeight(page, 'breadcrumb')));
    expect((await box(page, 'navbar')).height).toBeLessThan(80);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(800);
    await screenshot(page, 'layout-800');
    await context.close();
  });

  it('at 1440 px the top bar and the sidebar stay in place while a long page scrolls', async () => {
    const { page, context } = await openSession(browser, server);
    await signIn(page, group);
    await openScreen(page, PROVIDERS);
    await settled(page);
    // A page far taller than the window, like a long list.
    await page
      .locator('.app-content')
      .evaluate((el: E2eElement) => (el as LayoutElement).setAttribute('style', 'min-height: 4000px'));
    await page.evaluate('window.scrollTo(0, 2000)');
    await expect.poll(() => scrollY(page)).toBeGreaterThan(1500);
    await page.screenshot({ path: 'e2e/screenshots/layout-1440-scrolled.png' });
    expect(Math.abs((await box(page, 'navbar')).y)).toBeLessThan(2);
    // The sider, not the menu inside it: a long menu scrolls on its own.
    const sider = await page.getByTestId('sidebar').locator('xpath=ancestor::aside[1]').boundingBox();
    expect(Math.abs(sider?.y ?? -1)).toBeLessThan(2);
    expect(sider?.height).toBe(900);
    const navbar = await box(page, 'navbar');
    const tags = await box(page, 'tags-view');
    expect(tags.y).toBeGreaterThanOrEqual(navbar.y + navbar.height - 2);
    expect(tags.y).toBeLessThan(navbar.y + navbar.height + 4);
    await context.close();
  });

  it('every menu entry has an icon, so the collapsed sidebar is usable', async () => {
    const { page, context } = await openSession(browser, server);
    await signIn(page, group);
    await expandMenu(page);
    const entries = page.getByTestId('menu').locator('.ant-menu-item, .ant-menu-submenu-title');
    const count = await entries.count();
    expect(count).toBeGreaterThan(8);
    for (let i = 0; i < count; i++) expect(await entries.nth(i).locator('svg').count()).toBeGreaterThan(0);

    await page.getByTestId('nav-toggle').click();
    await page.locator('.ant-layout-sider-collapsed').waitFor();
    const collapsed = page
      .getByTestId('menu')
      .locator(':scope > .ant-menu-item, :scope > li > .ant-menu-submenu-title');
    await expect.poll(() => collapsed.count()).toBeGreaterThan(3);
    for (let i = 0; i < (await collapsed.count()); i++) {
      const entry = collapsed.nth(i);
      expect(await entry.locator('svg').count()).toBeGreaterThan(0);
      await expect.poll(async () => (await entry.boundingBox())?.width ?? 0).toBeLessThanOrEqual(80);
    }
    await screenshot(page, 'layout-1440-collapsed');
    await context.close();
  });

  it('names the screen and the platform in the browser tab and the sign-out question', async () => {
    const { page, context } = await openSession(browser, server);
    await signIn(page, group);
    for (const [path, name] of [
      [PROVIDERS, 'providermanager'],
      [ACCOUNTS, 'accountmanager'],
    ] as const) {
      await openScreen(page, path);
      await expect.poll(() => page.title()).toBe(`${text('en-US', `menu.${name}`)} - ${PLATFORM}`);
    }
    await avatarMenu(page, text('en-US', 'avatar.signOut'));
    const question = page.locator('.ant-modal-confirm-title');
    await expect.poll(() => question.textContent()).toContain(PLATFORM);
    expect(await question.textContent()).not.toContain('Vigil');
    await context.close();
  });

  it('keeps the opened tags over a reload', async () => {
    const { page, context } = await openSession(browser, server);
    const landing = (await signIn(page, group)).landingPath;
    await openScreen(page, PROVIDERS);
    await openScreen(page, ACCOUNTS);
    await expect.poll(() => tagPaths(page)).toEqual([landing, PROVIDERS, ACCOUNTS]);
    await page.reload();
    await page.getByTestId('navbar').waitFor();
    await expect.poll(() => tagPaths(page)).toEqual([landing, PROVIDERS, ACCOUNTS]);
    expect(await page.getByTestId(`tag-${ACCOUNTS}`).textContent()).toBe(text('en-US', 'menu.accountmanager'));
    await context.close();
  });

  it('gives every button of the top bar and the tags bar an accessible name', async () => {
    const { page, context } = await openSession(browser, server);
    await signIn(page, group);
    await openScreen(page, PROVIDERS);
    expect(await page.getByTestId('navbar').locator('button').count()).toBeGreaterThan(4);
    expect(await unnamedButtons(page, 'navbar')).toEqual([]);
    expect(await unnamedButtons(page, 'tags-view')).toEqual([]);
    // The avatar menu opens from a real button.
    await page.getByRole('button', { name: text('en-US', 'navbar.accountMenu') }).waitFor();
    await page.getByTestId('nav-toggle').click();
    await page.locator('.ant-layout-sider-collapsed').waitFor();
    expect(await unnamedButtons(page, 'navbar')).toEqual([]);
    await screenshot(page, 'layout-1440');
    await context.close();
  });
});
