import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openSession, screenshot, submitLogin, waitForPath } from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import { createProvider, startServer, type E2eServer } from './support/server.ts';

warnWhenNoChromium('session');

const RESIDENTS = '/people-manage/userManage';

describe.skipIf(!hasChromium)('signing in (browser)', () => {
  let server: E2eServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lands on the page in ?redirect and stays there, not on the role’s landing page (issue 8, point 4)', async () => {
    const group = await createProvider(server, { name: 'Elm Group', userName: 'elmGroup', password: 'Care#Home2026' });
    const home = await createProvider(server, {
      name: 'Elm House',
      userName: 'elmHouse',
      password: 'Care#Home2026',
      parentId: group.id,
    });
    const { page, context } = await openSession(browser, server);
    await page.goto(`${RESIDENTS}?from=bookmark`);
    await waitForPath(page, '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(`${RESIDENTS}?from=bookmark`);
    const answer = await submitLogin(page, home);
    expect(answer.status).toBe(200);
    expect(answer.data?.landingPath).not.toBe(RESIDENTS);
    await waitForPath(page, RESIDENTS);
    await page.getByTestId('navbar').waitFor();
    // Before, the page was reached and then replaced by the landing page.
    await page.waitForTimeout(1500);
    expect(new URL(page.url()).pathname).toBe(RESIDENTS);
    expect(new URL(page.url()).search).toBe('?from=bookmark');
    await screenshot(page, 'session-redirect');
    await context.close();
  });
});
