import { batchAddBunk, insertArea, insertResident, insertRoom, updateBunk } from '@vigil/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openSession, settled, signIn, stillScreenshot } from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import { apiLogin, createProvider, startServer, type E2eServer, type Login } from './support/server.ts';

warnWhenNoChromium('bed alarm settings');

// Issue 10: a bed's alarm rules, opened from the bed list's bell, saved, and in force.

const PASSWORD = 'Care#Home2026';

describe.skipIf(!hasChromium)('bed alarm settings (browser)', () => {
  let server: E2eServer;
  let browser: Browser;
  let residentId = 0;
  const home: Login = { userName: 'elmHome', password: PASSWORD };

  beforeAll(async () => {
    server = await startServer();
    const group = await createProvider(server, { name: 'Elm Group', userName: 'elmGroup', password: PASSWORD });
    const groupToken = (await apiLogin(server, { userName: 'elmGroup', password: PASSWORD })).token;
    await createProvider(server, { name: 'Elm Home', ...home, parentId: group.id }, groupToken);
    const token = (await apiLogin(server, home)).token;
    const call = async <T>(what: string, res: Promise<{ status: number; msg: string; data: T | null }>) => {
      const r = await res;
      if (r.status !== 200 || r.data === null) throw new Error(`${what}: ${r.msg}`);
      return r.data;
    };
    const app = server.app;
    const building = await call('area', app.call(insertArea, { name: 'Elm House' }, { token }));
    const floor = await call('floor', app.call(insertArea, { name: 'Ground', areaId: building.id }, { token }));
    const rooms = await call('room', app.call(insertRoom, { floorId: floor.id, name: '101' }, { token }));
    const beds = await call(
      'bed',
      app.call(batchAddBunk, { roomId: rooms.ids[0] ?? 0, name: 'A', mattress: 'sponge' }, { token }),
    );
    const resident = await call(
      'resident',
      app.call(insertResident, { name: 'Edith Warren', gender: 1, birthDate: '1941-07-23', confirm: true }, { token }),
    );
    residentId = resident.id;
    await call(
      'check-in',
      app.call(updateBunk, { id: beds.ids[0] ?? 0, userId: resident.id, confirm: true }, { token }),
    );
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens from the bed’s bell, saves a shorter bed-leaving time, and the engine uses it', async () => {
    const { page, context, problems } = await openSession(browser, server);
    await signIn(page, home);
    await page.goto('/BunkManage/index');
    await settled(page);
    await page.getByTestId('bed-table').getByTestId('setting-alarm').first().click();
    await page.getByTestId('bed-alarm-form').waitFor();
    expect(await page.getByTestId('bed-alarm-state').textContent()).toContain('Defaults');
    await stillScreenshot(page, 'bed-alarm-01-defaults');

    const leftBed = page
      .getByTestId('bed-alarm-sleep')
      .locator('tr', { hasText: 'Left the bed' })
      .locator('input')
      .first();
    await leftBed.fill('120');
    await page.getByTestId('watched-BREATH_STOP').first().click();
    await page.getByTestId('bed-alarm-save').click();
    await expect
      .poll(() => page.getByTestId('bed-alarm-state').textContent(), { timeout: 10_000 })
      .not.toContain('Defaults');
    await stillScreenshot(page, 'bed-alarm-02-saved');
    await expect.poll(() => server.app.services.alarms.watch.rulesOf(null, residentId).durations.leftBedTime).toBe(120);
    expect(server.app.services.alarms.watch.rulesOf(null, residentId).off).toContain('BREATH_STOP');
    expect(problems).toEqual([]);
    await context.close();
  });

  // Issue 29, point 10: opened by its address (a reload, a link, a new tab), the screen still names
  // the resident and the bed, never an internal id.
  for (const language of ['zh-CN', 'en-US'] as const) {
    it(`names the resident and the bed when opened by its address (${language})`, async () => {
      const { page, context, problems } = await openSession(browser, server, { language });
      await signIn(page, home);
      await page.goto(`/BunkManage/alarmSetting/${residentId}`);
      await page.getByTestId('bed-alarm-form').waitFor();
      const header = page.getByTestId('bed-alarm-resident');
      await expect.poll(() => header.textContent()).toContain('Edith Warren');
      expect(await header.textContent()).toContain('Elm House / Ground / 101 / A');
      expect(await page.locator('body').textContent()).not.toMatch(/ID\s*\d/);
      await page.reload();
      await page.getByTestId('bed-alarm-form').waitFor();
      await expect.poll(() => header.textContent()).toContain('Edith Warren');
      await stillScreenshot(page, `bed-alarm-03-by-address-${language}`);
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
