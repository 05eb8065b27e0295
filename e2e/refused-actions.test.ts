import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  batchAddBunk,
  deviceCalls,
  insertArea,
  insertResident,
  insertRoom,
  userCheckIn,
  updateBunk,
} from '@vigil/contract';
import { inArray } from 'drizzle-orm';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { devices } from '../apps/server/src/db/schema.ts';
import { launchBrowser, openSession, signIn, stillScreenshot, text, type BrowserSession } from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import { createProvider, startServer, type E2eServer, type Login } from './support/server.ts';

warnWhenNoChromium('refused-actions');

// Issue 8 point 12: what the server would refuse is offered disabled, the reason on hover; and
// point 17: every device table is readable at 1440×900, no column under the fixed actions column.

const FEATURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/src/features');
const texts = new Map<string, Record<string, string>>();
/** A screen's English text from its feature's locale file, {{params}} filled in. */
const ui = (feature: string, key: string, params: Record<string, string> = {}): string => {
  let messages = texts.get(feature);
  if (!messages) {
    messages = JSON.parse(fs.readFileSync(path.join(FEATURES_DIR, feature, 'locales', 'en-US.json'), 'utf8')) as Record<
      string,
      string
    >;
    texts.set(feature, messages);
  }
  const template = messages[key];
  if (template === undefined) throw new Error(`no ${key} in ${feature}`);
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => params[name] ?? whole);
};

const must = <T>(what: string, res: { status: number; msg: string; data?: T | null }): T => {
  if (res.status !== 200 || res.data === undefined || res.data === null) {
    throw new Error(`${what}: ${res.status} ${res.msg}`);
  }
  return res.data;
};

const RESIDENT = 'Wu Ping';
const AREA = 'North Wing';
const EMPTY_AREA = 'South Wing';
const SLEEP = 'E2E-SLEEP-0001';
const FALL = 'E2E-FALL-0001';
const HOST = 'E2E-GW-0001';
const SENSOR = 'E2E-IR-0001';

/** The device pages (overseas ones included) and the state columns each one shows. */
const DEVICE_PAGES: { path: string; table: string; columns: string[] }[] = [
  { path: '/deviceManage/deviceManage', table: 'device-table', columns: ['versions', 'signal', 'battery'] },
  { path: '/deviceManage/ed719', table: 'device-table', columns: ['versions', 'signal', 'battery'] },
  { path: '/deviceManage/safeDeviceManage', table: 'device-table', columns: ['versions', 'signal', 'battery'] },
  { path: '/deviceManage/hostDevice', table: 'host-table', columns: ['versions', 'signal'] },
];

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;
const boxOf = async (locator: Locator): Promise<Box> => {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return box;
};

const shot = stillScreenshot;

/** The visible tooltip saying `reason`. */
const tooltip = (page: Page, reason: string) =>
  page.locator('.ant-tooltip:not(.ant-tooltip-hidden)').filter({ hasText: reason });

/**
 * Hovers `target` until the tooltip saying `reason` shows. A pointer that
 * arrives while a dropdown is still animating open can miss the mouse-enter,
 * so one hover alone is flaky; moving away and back again is what a person does.
 */
const hoverForTooltip = async (page: Page, target: Locator, reason: string) => {
  await vi.waitFor(
    async () => {
      await page.mouse.move(0, 0);
      await target.hover({ force: true });
      await tooltip(page, reason).waitFor({ timeout: 2_000 });
    },
    { timeout: 25_000, interval: 100 },
  );
};

describe.skipIf(!hasChromium)('refused actions and device tables (browser)', () => {
  let server: E2eServer;
  let browser: Browser;
  let home: Login;
  let session: BrowserSession;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const { app, adminToken } = server;
    // A class 2 provider: a care home under a group.
    const group = await createProvider(server, { name: 'Linden Group', userName: 'lindenGroup' });
    home = await createProvider(server, { name: 'Linden House', userName: 'lindenHouse', parentId: group.id });
    const token = await app.login(home.userName, home.password);

    const area = must('area', await app.call(insertArea, { name: AREA }, { token }));
    must('empty area', await app.call(insertArea, { name: EMPTY_AREA }, { token }));
    const floor = must('floor', await app.call(insertArea, { name: '1F', areaId: area.id }, { token }));
    const room = must('room', await app.call(insertRoom, { floorId: floor.id, name: '101' }, { token }));
    const beds = must('beds', await app.call(batchAddBunk, { roomId: room.ids[0] ?? 0, name: '1,2' }, { token }));
    const resident = must(
      'resident',
      await app.call(insertResident, { name: RESIDENT, gender: 1, birthDate: '1938-03-02' }, { token }),
    );
    must('check-in', await app.call(userCheckIn, { userId: resident.id, bunkId: beds.ids[0] ?? 0 }, { token }));

    // One device of every table, with the state a device reports, so every column has content.
    must(
      'registry',
      await app.call(
        deviceCalls.deviceStockImport,
        {
          rows: [
            { deviceId: SLEEP, deviceType: 49 },
            { deviceId: FALL, deviceType: 21007 },
            { deviceId: HOST, deviceType: 21008 },
            { deviceId: SENSOR, deviceType: 20999 },
          ],
        },
        { token: adminToken },
      ),
    );
    must(
      'sleep',
      await app.call(deviceCalls.insertDevice, { deviceId: SLEEP, deviceType: 49, name: 'Bed 1 pad' }, { token }),
    );
    must('fall', await app.call(deviceCalls.insertDevice, { deviceId: FALL, deviceType: 21007 }, { token }));
    must('host', await app.call(deviceCalls.heAddHost, { deviceId: HOST, name: 'Corridor host' }, { token }));
    must(
      'sensor',
      await app.call(
        deviceCalls.heInsertDevice,
        { deviceId: SENSOR, deviceType: 20999, hostDeviceId: HOST },
        { token },
      ),
    );
    must('link', await app.call(updateBunk, { id: beds.ids[0] ?? 0, deviceId: SLEEP }, { token }));
    await app.database.db
      .update(devices)
      .set({
        online: true,
        lastSeenAt: new Date(),
        firmwareVersion: 'V3.12.045',
        hardwareVersion: 'HW2.1',
        signal: -87,
        battery: 86,
        commMode: 'wifi',
      })
      .where(inArray(devices.deviceId, [SLEEP, FALL, HOST, SENSOR]));

    session = await openSession(browser, server);
    await signIn(session.page, home);
  });

  afterAll(async () => {
    await session?.context.close();
    await browser?.close();
    await server?.close();
  });

  it('disables deleting an area that still has floors, saying why on hover', async () => {
    const { page } = session;
    await page.goto('/BunkManage/index');
    const node = (name: string) =>
      page.locator('.facility-tree-node').filter({ has: page.getByText(name, { exact: true }) });
    await node(AREA).waitFor();

    await node(EMPTY_AREA).locator('[data-testid^="menu-"]').click();
    const emptyDelete = page.getByRole('menuitem', { name: ui('facility', 'tree.deleteArea') });
    await expect.poll(() => emptyDelete.getAttribute('aria-disabled')).not.toBe('true');
    await page.keyboard.press('Escape');
    await emptyDelete.waitFor({ state: 'hidden' });

    await node(AREA).locator('[data-testid^="menu-"]').click();
    const areaDelete = page.getByRole('menuitem', { name: ui('facility', 'tree.deleteArea') });
    expect(await areaDelete.getAttribute('aria-disabled')).toBe('true');
    const reason = ui('facility', 'refused.areaHasFloors');
    await hoverForTooltip(page, areaDelete, reason);
    await shot(page, 'refused-01-area-delete');
    // Clicking it asks nothing: the confirmation never opens.
    await areaDelete.click({ force: true });
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
    // Nor does it select the area: the bed list still shows all beds.
    await page.getByText(ui('facility', 'bed.allBeds'), { exact: true }).waitFor();
    expect(session.problems).toEqual([]);
  });

  it('disables deleting the occupied bed, saying why on hover', async () => {
    const { page } = session;
    await page.keyboard.press('Escape');
    const table = page.getByTestId('bed-table');
    const occupied = table.getByRole('row').filter({ hasText: RESIDENT });
    const free = table.getByRole('row').filter({ hasText: ui('facility', 'bed.free') });
    await occupied.waitFor();
    const remove = occupied.getByRole('button', { name: text('en-US', 'common.delete') });
    await expect.poll(() => remove.isDisabled()).toBe(true);
    expect(await free.getByRole('button', { name: text('en-US', 'common.delete') }).isEnabled()).toBe(true);
    const reason = ui('facility', 'refused.bedHasResident', { resident: RESIDENT });
    await hoverForTooltip(page, remove, reason);
    await shot(page, 'refused-02-bed-delete');
    expect(session.problems).toEqual([]);
  });

  it('shows every device table whole at 1440×900: no state column under the fixed actions column', async () => {
    const { page } = session;
    expect(page.viewportSize()).toEqual({ width: 1440, height: 900 });
    const titles: Record<string, string> = {
      versions: ui('devices', 'field.versions'),
      signal: ui('devices', 'field.signal'),
      battery: ui('devices', 'field.battery'),
    };
    for (const [index, devicePage] of DEVICE_PAGES.entries()) {
      await page.goto(devicePage.path);
      const table = page.getByTestId(devicePage.table);
      await table.locator('.ant-table-row').first().waitFor();
      await shot(page, `refused-0${index + 3}-devices-${path.basename(devicePage.path)}`);
      const header = table.locator('.ant-table-thead');
      const actions = await boxOf(header.locator('th.ant-table-cell-fix-end').last());
      const visible = await boxOf(table.locator('.ant-table-container'));
      for (const column of devicePage.columns) {
        const cell = header.locator('th').filter({ hasText: titles[column] ?? column });
        const box = await boxOf(cell);
        expect.soft(overlaps(box, actions), `${devicePage.path} ${column} under the actions column`).toBe(false);
        expect.soft(inside(box, visible), `${devicePage.path} ${column} cut off`).toBe(true);
        // The title itself reads whole: not clipped or ellipsed inside its cell.
        const clipped = await cell.evaluate(
          (th: { scrollWidth: number; clientWidth: number }) => th.scrollWidth > th.clientWidth + 1,
        );
        expect.soft(clipped, `${devicePage.path} ${column} clipped`).toBe(false);
      }
    }
    expect(session.problems).toEqual([]);
  });
});
