import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getProvider } from '@vigil/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../apps/server/src/modules/system/png-fixture.ts';
import { launchBrowser, openSession, signIn, stillScreenshot, text } from './support/browser.ts';
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

warnWhenNoChromium('provider branding');

// Issue 8, point 6: class 1 and class 2 providers set their own platform name and logo on
// /settings/platSet (the logo becomes the page icon, the name the title), and the
// administrator's provider dialog has the logo field.

const PASSWORD = 'Care#Home2026';
const PLAT_SET = '/settings/platSet';
const PROVIDERS = '/permission/providermanager';

/** A real 200×200 PNG on disk, for the file inputs. */
const logoFile = (name: string, rgba: [number, number, number, number]): string => {
  const file = path.join(os.tmpdir(), `vigil-e2e-${process.pid}-${name}.png`);
  fs.writeFileSync(file, encodePng(200, 200, { pixel: () => rgba }));
  return file;
};

const favicon = (page: Page): Promise<string | null> => page.locator('#app-favicon').getAttribute('href');

describe.skipIf(!hasChromium)('provider branding (browser)', () => {
  let server: E2eServer;
  let browser: Browser;
  const group: Login = { userName: 'mapleGroup', password: PASSWORD };
  const home: Login = { userName: 'mapleHome', password: PASSWORD };
  let homeId = 0;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const created = await createProvider(server, { name: 'Maple Group', ...group });
    const groupToken = (await apiLogin(server, group)).token;
    homeId = (await createProvider(server, { name: 'Maple Home', ...home, parentId: created.id }, groupToken)).id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a class 1 provider sets its name and logo; its pages and its class 2 provider’s show them', async () => {
    const { page, context } = await openSession(browser, server);
    await signIn(page, group);
    await page.goto(PLAT_SET);
    const name = page.getByTestId('platset-name-input');
    await expect.poll(() => name.inputValue()).not.toBe('');
    await name.fill('Maple Portal');
    await page
      .getByTestId('platset-logo')
      .locator('input[type=file]')
      .setInputFiles(logoFile('maple', [200, 60, 20, 255]));
    await page.getByTestId('platset-logo-preview').waitFor();
    await page.getByTestId('platset-save').click();
    await page.getByText(text('en-US', 'platSet.saved')).first().waitFor();

    await expect.poll(() => page.title()).toContain('Maple Portal');
    const icon = await favicon(page);
    expect(icon).toMatch(/^\/system\/file\?id=[0-9a-f-]{36}$/);
    const served = await page.request.get(icon ?? '');
    expect(served.headers()['content-type']).toBe('image/png');
    await stillScreenshot(page, 'branding-01-platset-provider');

    // Kept by the server: a reload shows the same.
    await page.reload();
    await expect.poll(() => page.title()).toContain('Maple Portal');
    await expect.poll(() => favicon(page)).toBe(icon);
    await context.close();

    // The class 2 provider has none of its own, so it shows its parent's.
    const second = await openSession(browser, server);
    await signIn(second.page, home);
    await expect.poll(() => second.page.title()).toContain('Maple Portal');
    await expect.poll(() => favicon(second.page)).toBe(icon);
    expect(second.problems).toEqual([]);
    await second.context.close();
  });

  it('the administrator gives a provider a logo in the provider dialog', async () => {
    const { page, context, problems } = await openSession(browser, server);
    await signIn(page, { userName: ADMIN_USER, password: ADMIN_PASSWORD });
    await page.goto(PROVIDERS);
    const row = page.getByTestId('provider-table').locator('tr', { hasText: 'Maple Home' });
    await row.getByText(text('en-US', 'common.edit')).click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('provider-form') });
    await dialog.getByTestId('provider-logo-none').waitFor();
    await dialog.locator('input[type=file]').setInputFiles(logoFile('birch', [20, 120, 60, 255]));
    await dialog.getByTestId('provider-logo-preview').waitFor();
    await stillScreenshot(page, 'branding-02-provider-dialog');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await dialog.waitFor({ state: 'hidden' });

    const saved = await server.app.call(getProvider, { id: homeId }, { token: server.adminToken });
    expect(saved.data?.logoUrl).toMatch(/^\/system\/file\?id=[0-9a-f-]{36}$/);
    // Reopened, the dialog shows the stored logo.
    await row.getByText(text('en-US', 'common.edit')).click();
    await expect
      .poll(() => dialog.getByTestId('provider-logo-preview').locator('img').getAttribute('src'))
      .toBe(saved.data?.logoUrl);
    expect(problems).toEqual([]);
    await context.close();
  });
});
