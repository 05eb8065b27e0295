import { createHash } from 'node:crypto';
import { createClient } from '@vigil/contract';
import { zipSync } from 'fflate';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USER } from '../apps/server/src/test/harness.ts';
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
  type BrowserSession,
} from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import { createProvider, startServer, type E2eServer } from './support/server.ts';

warnWhenNoChromium('firmware');

// Issue 12: an administrator uploads a firmware package, whitelists two simulated sleep
// monitors, releases it to them, and sees them report the new version. The devices are the
// simulator's: they download the package from the server, check its MD5, report progress and
// restart on the new version.

const VERSION = '9.1.0';
const PAGE = '/deviceManage/hardSoftUpload';

describe.skipIf(!hasChromium)('firmware over the air from the console', () => {
  let server: E2eServer;
  let browser: Browser;
  let fleet: Fleet;
  let session: BrowserSession;
  let deviceIds: string[] = [];
  const image = zipSync(
    { 'firmware.bin': new Uint8Array(300_000).map((_, i) => (i * 13 + (i >> 10)) & 255) },
    { level: 0 },
  );

  beforeAll(async () => {
    server = await startServer();
    const home = await createProvider(server, { name: 'Elm Home', userName: 'elmHome', password: 'Care#Home2026' });
    const plan = planFleet(parseDeviceCounts('sleep=2'), 'ELM');
    const secrets = secretsFor(plan, 'elm', 'e2e');
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
    deviceIds = plan.devices.map((d) => d.id);
    await server.app.services.gateway.directory.load();
    const broker = server.app.services.gateway.broker;
    if (!(broker instanceof EmbeddedBroker)) throw new Error('expected the embedded broker');
    fleet = await startFleet({
      url: `mqtt://127.0.0.1:${broker.port}`,
      plan,
      secrets,
      seed: 'elm',
      eventRate: 0,
      httpUrl: server.baseUrl,
      restartDelayMs: 300,
    });
    browser = await launchBrowser();
    session = await openSession(browser, server);
  }, 180_000);

  afterAll(async () => {
    await session?.context.close();
    await browser?.close();
    await fleet?.stop();
    await server?.close();
  });

  it('uploads a package, whitelists two monitors, releases it, and they report the new version', async () => {
    const { page } = session;
    await signIn(page, { userName: ADMIN_USER, password: ADMIN_PASSWORD });
    await page.goto(PAGE);
    await settled(page);

    // Upload: the zip, its device type, version and MD5.
    await page.getByTestId('firmware-upload').click();
    const form = page.getByTestId('firmware-upload-form');
    await form
      .locator('input[type=file]')
      .setInputFiles({ name: 'elm-9.1.0.zip', mimeType: 'application/zip', buffer: Buffer.from(image) });
    await page.getByTestId('firmware-upload-type').click();
    await page.keyboard.type('BM8701-2');
    await page.locator('.ant-select-dropdown .ant-select-item-option').first().click();
    await form.getByLabel('Version').fill(VERSION);
    await form.getByLabel('MD5').fill(createHash('md5').update(image).digest('hex'));
    await page.getByTestId('firmware-upload-submit').click();
    const row = page.getByTestId('firmware-table').locator('tr', { hasText: VERSION });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => row.getByTestId('firmware-state-unpublished').count()).toBe(1);
    const id = (await row.locator('[data-testid^="firmware-actions-"]').getAttribute('data-testid'))?.replace(
      'firmware-actions-',
      '',
    );

    // Whitelist the two monitors.
    await page.getByTestId(`firmware-whitelist-${id}`).click();
    await page.getByTestId('whitelist-add').click();
    const picker = page.getByTestId('picker-table');
    for (const deviceId of deviceIds) {
      await picker.locator('tr', { hasText: deviceId }).locator('input[type=checkbox]').check();
    }
    await page.getByTestId('picker-submit').click();
    const whitelist = page.getByTestId('whitelist-table');
    await expect.poll(() => whitelist.locator('tbody tr', { hasText: 'ELM-' }).count(), { timeout: 15_000 }).toBe(2);
    await page.locator('.ant-drawer-close').click();
    await expect.poll(() => page.locator('.ant-drawer-open').count()).toBe(0);

    // Grey release; the monitors download, install and come back on the new version.
    await page.getByTestId(`firmware-grey-${id}`).click();
    await page.getByTestId('grey-release-ok').click();
    await expect.poll(() => row.getByTestId('firmware-state-grey').count(), { timeout: 15_000 }).toBe(1);
    await expect
      .poll(() => deviceIds.map((d) => fleet.devices.get(d)?.firmwareVersion), { timeout: 90_000 })
      .toEqual([VERSION, VERSION]);

    // The console shows both upgraded, with the version they report.
    await page.getByTestId(`firmware-progress-${id}`).click();
    const upgrades = page.getByTestId('upgrade-table');
    await expect
      .poll(() => upgrades.getByTestId('upgrade-state-succeeded').count(), { timeout: 60_000, interval: 1000 })
      .toBe(2);
    for (const deviceId of deviceIds) {
      await expect
        .poll(() => upgrades.locator('tr', { hasText: deviceId }).textContent(), { timeout: 20_000 })
        .toContain(`Now ${VERSION}`);
    }
    await stillScreenshot(page, 'firmware-01-grey-release-done');
  }, 240_000);
});
