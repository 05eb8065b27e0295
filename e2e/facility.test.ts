import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { translate } from '@vigil/contract';
import type { Browser, Download, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STOCK_SHEET } from '../apps/server/src/modules/devices/device-sheets.ts';
import { RESIDENT_SHEET } from '../apps/server/src/modules/residents/resident-sheet.service.ts';
import { sheetRows, workbook } from '../apps/server/src/modules/spreadsheet/sheet-test-support.ts';
import {
  launchBrowser,
  openMenuEntry,
  openSession,
  signIn,
  stillScreenshot,
  text,
  type BrowserSession,
} from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import {
  ADMIN_PASSWORD,
  ADMIN_USER,
  createProvider,
  startServer,
  type E2eServer,
  type Login,
} from './support/server.ts';

warnWhenNoChromium('facility');

// The facility model (issue 4) as a care home's manager builds it in the console: the platform
// loads the device registry, the home adds its buildings, rooms and beds, registers its sleep
// monitors, imports its residents, checks one in and out, and exports and re-imports the list.

const FEATURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/src/features');
type Feature = 'facility' | 'devices' | 'residents';
const featureTexts = new Map<Feature, Record<string, string>>();

/** A screen's English text (its feature's locale file, else the shell's), {{params}} filled in. */
const ui = (feature: Feature, key: string, params: Record<string, string | number> = {}): string => {
  let messages = featureTexts.get(feature);
  if (!messages) {
    const file = path.join(FEATURES_DIR, feature, 'locales', 'en-US.json');
    messages = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    featureTexts.set(feature, messages);
  }
  const template = messages[key] ?? text('en-US', key);
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
};

/** "N in total" under a list, and the import dialog's "N rows imported." */
const inTotal = (total: number | string) => ui('residents', 'common.total', { total });
const rowsImported = (count: number | string) => ui('residents', 'transfer.done', { count });

/** Server work (imports on PGlite, on a loaded two-core machine) can take a while. */
const SLOW = { timeout: 60_000 };
const eventually = <T>(value: () => T | Promise<T>) => expect.poll(value, { timeout: 30_000 });

const admin: Login = { userName: ADMIN_USER, password: ADMIN_PASSWORD };
const MONITOR_MODEL = 'BM8701-2';
const MONITORS = ['VIGIL-BM-0001', 'VIGIL-BM-0002', 'VIGIL-BM-0003'];
const UNKNOWN_MONITOR = 'VIGIL-BM-9999';
const AREA = 'Building A';
const FLOOR = '1F';
const ROOMS = Array.from({ length: 20 }, (_, i) => String(101 + i));
const BEDS = ['1', '2', '3'];
const RESIDENT_COUNT = 200;
const residentName = (i: number) => `Resident ${String(i + 1).padStart(3, '0')}`;
const RESIDENT = residentName(0);

const stockHeader = Object.values(STOCK_SHEET.columns).map((c) => translate('en-US', c.header));
const residentHeader = Object.values(RESIDENT_SHEET.columns).map((c) => translate('en-US', c.header));

/** Resident rows as a home fills in the template: name, gender and birth date, some health details. */
const residentRows = (): (string | number)[][] =>
  Array.from({ length: RESIDENT_COUNT }, (_, i) => {
    const cells: Record<string, string | number> = {
      'sheet.col.name': residentName(i),
      'sheet.col.gender': translate('en-US', i % 2 ? 'sheet.gender.female' : 'sheet.gender.male'),
      'sheet.col.birthDate': `${1930 + (i % 30)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
      'sheet.col.height': 150 + (i % 40),
      'sheet.col.weight': 45 + (i % 35),
      'sheet.col.medicalHistory': i % 5 === 0 ? 'hypertension, stroke' : '',
      'sheet.col.priority': translate('en-US', i % 10 === 0 ? 'sheet.yes' : 'sheet.no'),
      'sheet.col.remark': i % 7 === 0 ? 'Needs a walking frame' : '',
    };
    return Object.values(RESIDENT_SHEET.columns).map((c) => cells[c.header] ?? '');
  });

/** The rows of a downloaded workbook's first sheet. */
const readDownload = async (download: Download): Promise<string[][]> => {
  const file = await download.path();
  return sheetRows({ bytes: fs.readFileSync(file), contentType: '', filename: download.suggestedFilename() });
};

/** Clicks `control` and resolves with the file the page saves. */
const downloadBy = async (page: Page, control: Locator): Promise<Download> => {
  const [download] = await Promise.all([page.waitForEvent('download', SLOW), control.click()]);
  return download;
};

/** The open modal holding `testId`. */
const modalWith = (page: Page, testId: string): Locator =>
  page.locator('.ant-modal').filter({ has: page.getByTestId(testId) });

/** The batch import dialog (shared ImportDialog). */
const importDialog = (page: Page): Locator => modalWith(page, 'import-start');

/** Chooses a file in the import dialog and starts the import; resolves with the server's answer. */
const runImport = async (
  page: Page,
  callPath: string,
  file: string | { name: string; mimeType: string; buffer: Buffer },
  button = 'import-start',
): Promise<{ status: number; msgKey?: string; data?: unknown }> => {
  const dialog = importDialog(page);
  if (button === 'import-start') await dialog.locator('input[type="file"]').setInputFiles(file);
  const [answer] = await Promise.all([
    page.waitForResponse((res) => new URL(res.url()).pathname === callPath, SLOW),
    dialog.getByTestId(button).click(),
  ]);
  return (await answer.json()) as { status: number; msgKey?: string; data?: unknown };
};

const xlsx = (name: string, rows: (string | number)[][]) => ({
  name,
  mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  buffer: Buffer.from(workbook(rows)),
});

/** Closes the import dialog with its Close button. */
const closeImport = async (page: Page) => {
  await importDialog(page)
    .locator('.ant-modal-footer')
    .getByRole('button', { name: text('en-US', 'common.close') })
    .click();
  await page.getByTestId('import-start').waitFor({ state: 'detached' });
};

/** The value of the statistic titled `title` inside `scope`. */
const statistic = (scope: Locator, title: string): Promise<string> =>
  scope
    .locator('.ant-statistic')
    .filter({ has: scope.page().getByText(title, { exact: true }) })
    .locator('.ant-statistic-content-value')
    .innerText();

/** "N in total" under a table (the table's test id is on the table, its pagination beside it). */
const totalOf = (table: Locator): Promise<string> =>
  table.page().locator('.ant-table-wrapper').filter({ has: table }).locator('.ant-pagination-total-text').innerText();

const shot = (page: Page, name: string) => stillScreenshot(page, name, SLOW.timeout);

/** Picks an option of an antd select by its label. */
const pickOption = async (page: Page, select: Locator, label: string) => {
  await select.click();
  await page.locator(`.ant-select-dropdown:not(.ant-select-dropdown-hidden) [title="${label}"]`).click();
};

describe.skipIf(!hasChromium)('facility model (browser)', () => {
  let server: E2eServer;
  let browser: Browser;
  let home: Login;
  /** The manager of the home, signed in once for the whole story. */
  let manager: BrowserSession;
  /** Where downloads are saved under their own names, as a user's browser would. */
  let downloads: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-e2e-facility-'));
    // A class 2 provider: a care home under a group, with its generated password.
    const group = await createProvider(server, { name: 'Maple Care Group', userName: 'mapleGroup' });
    home = await createProvider(server, { name: 'Maple House', userName: 'mapleHouse', parentId: group.id });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (downloads) fs.rmSync(downloads, { recursive: true, force: true });
  });

  it('the platform administrator loads sleep monitors into the device registry from a spreadsheet', async () => {
    const { page, problems, context } = await openSession(browser, server);
    await signIn(page, admin);
    await openMenuEntry(page, '/deviceManage/deviceManage');
    await page.getByRole('tab', { name: ui('devices', 'page.registry') }).click();
    await page.getByTestId('stock-table').waitFor();
    await page.getByTestId('stock-import').click();
    const dialog = importDialog(page);
    await expect.poll(() => dialog.locator('.ant-modal-title').innerText()).toBe(ui('devices', 'import.registry'));

    // The template, downloaded through the dialog, carries the columns the server reads.
    const template = await readDownload(await downloadBy(page, dialog.getByTestId('import-template')));
    expect(template[0]).toEqual(stockHeader);
    const rows = MONITORS.map((id) => {
      const row: (string | number)[] = stockHeader.map(() => '');
      row[0] = id;
      row[1] = MONITOR_MODEL;
      row[stockHeader.indexOf(translate('en-US', 'sheet.col.batch'))] = 'Batch 2026-04';
      return row;
    });
    const answer = await runImport(
      page,
      '/device/stock/importSheet',
      xlsx('registry.xlsx', [template[0] ?? [], ...rows]),
    );
    expect(answer.status, JSON.stringify(answer)).toBe(200);
    await eventually(() => dialog.getByTestId('import-done').innerText()).toBe(rowsImported(MONITORS.length));
    await shot(page, 'facility-01-registry-import');
    await closeImport(page);

    const table = page.getByTestId('stock-table');
    for (const id of MONITORS) {
      const row = table.getByRole('row').filter({ hasText: id });
      await row.waitFor();
      expect(await row.innerText()).toContain(ui('devices', 'registry.inStock'));
      expect(await row.innerText()).toContain('Batch 2026-04');
    }
    await eventually(() => totalOf(table)).toBe(inTotal(MONITORS.length));
    await shot(page, 'facility-02-registry');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the manager builds an area, a floor, 20 rooms at once and the beds of a room', async () => {
    manager = await openSession(browser, server);
    const { page, problems } = manager;
    const result = await signIn(page, home);
    expect(result.role).toBe('TWO_ROLE');
    await openMenuEntry(page, '/BunkManage/index');
    const tree = page.getByTestId('facility-tree');
    await page.getByText(ui('facility', 'tree.empty')).waitFor();

    const node = (name: string) =>
      page.locator('.facility-tree-node').filter({ has: page.getByText(name, { exact: true }) });
    const save = async (formTestId: string) => {
      await modalWith(page, formTestId)
        .getByRole('button', { name: text('en-US', 'common.save') })
        .click();
      await page.getByTestId(formTestId).waitFor({ state: 'detached', ...SLOW });
    };
    const nodeAction = async (name: string, action: string) => {
      await node(name).locator('[data-testid^="menu-"]').click();
      await page.getByRole('menuitem', { name: ui('facility', action) }).click();
    };

    await page.getByTestId('add-area').click();
    await page.getByTestId('area-form').locator('#name').fill(AREA);
    await save('area-form');
    await node(AREA).waitFor();

    await nodeAction(AREA, 'tree.addFloor');
    await expect
      .poll(() => modalWith(page, 'area-form').locator('.ant-modal-title').innerText())
      .toBe(ui('facility', 'area.addFloorTitle', { area: AREA }));
    await page.getByTestId('area-form').locator('#name').fill(FLOOR);
    await save('area-form');
    await node(FLOOR).waitFor();

    // Twenty rooms in one go, by the comma-separated list.
    await nodeAction(FLOOR, 'tree.addRooms');
    await page.getByTestId('room-form').locator('#name').fill(ROOMS.join(','));
    await shot(page, 'facility-03-add-rooms');
    await save('room-form');
    const rooms = tree.locator('[data-testid^="node-room:"]');
    await eventually(() => rooms.count()).toBe(ROOMS.length);
    expect(await rooms.locator('> span:first-child').allInnerTexts()).toEqual(ROOMS);

    // Beds in room 101: choose it in the tree, then "Add beds" above its bed list.
    const room = ROOMS[0] ?? '';
    await node(room).locator('> span:first-child').click();
    await eventually(() => page.getByTestId('add-beds').isEnabled()).toBe(true);
    await page.getByTestId('add-beds').click();
    await page.getByTestId('add-beds-form').locator('#name').fill(BEDS.join(','));
    await save('add-beds-form');

    const beds = page.getByTestId('bed-table').locator('tbody tr.ant-table-row');
    await eventually(() => beds.count()).toBe(BEDS.length);
    expect((await beds.allInnerTexts()).map((row) => row.trim().split(/\s/)[0])).toEqual(BEDS);
    // Occupied/all beds in the tree, from the room up to the area; the other rooms are empty.
    await eventually(() => node(room).innerText()).toContain('(0/3)');
    expect(await node(FLOOR).innerText()).toContain('(0/3)');
    expect(await node(AREA).innerText()).toContain('(0/3)');
    expect(await node(ROOMS[1] ?? '').innerText()).toContain('(0/0)');
    const summary = page.getByTestId('bed-summary');
    await eventually(() => statistic(summary, ui('facility', 'summary.total'))).toBe('3');
    expect(await statistic(summary, ui('facility', 'summary.free'))).toBe('3');
    expect(await statistic(summary, ui('facility', 'summary.occupied'))).toBe('0');
    expect(await statistic(summary, ui('facility', 'summary.withoutDevice'))).toBe('3');
    await shot(page, 'facility-04-tree-and-beds');
    expect(problems).toEqual([]);
  });

  it('the manager registers sleep monitors from the registry; an unknown ID is refused', async () => {
    const { page, problems } = manager;
    await openMenuEntry(page, '/deviceManage/deviceManage');
    const table = page.getByTestId('device-table');
    await table.waitFor();
    const form = page.getByTestId('device-form');
    const dialog = modalWith(page, 'device-form');
    const saveDevice = () => dialog.getByRole('button', { name: text('en-US', 'common.save') }).click();
    const typeLabel = `${MONITOR_MODEL} · ${ui('devices', 'kind.sleep_monitor')}`;

    for (const [index, id] of MONITORS.entries()) {
      await page.getByTestId('device-register').click();
      await form.waitFor();
      await pickOption(page, form.locator('.ant-select').filter({ has: page.locator('#deviceType') }), typeLabel);
      if (index === 0) {
        // A typing error: the ID is not in the registry. The server's words show under the field,
        // and what was typed stays.
        await form.locator('#deviceId').fill(UNKNOWN_MONITOR);
        await saveDevice();
        const error = form.locator('.ant-form-item-explain-error');
        await eventually(() => error.allInnerTexts()).toEqual([translate('en-US', 'device.notRegistered')]);
        expect(await form.locator('#deviceId').inputValue()).toBe(UNKNOWN_MONITOR);
        await shot(page, 'facility-05-device-refused');
      }
      await form.locator('#deviceId').fill(id);
      await saveDevice();
      await form.waitFor({ state: 'detached', ...SLOW });
      await table.getByRole('row').filter({ hasText: id }).waitFor();
    }
    expect(await table.getByRole('row').filter({ hasText: UNKNOWN_MONITOR }).count()).toBe(0);
    await eventually(() => totalOf(table)).toBe(inTotal(MONITORS.length));
    await eventually(() => page.getByTestId('summary-total').locator('.ant-statistic-content-value').innerText()).toBe(
      '3',
    );
    await shot(page, 'facility-06-devices');
    expect(problems).toEqual([]);
  });

  it(`the manager imports ${RESIDENT_COUNT} residents from a spreadsheet`, { timeout: 120_000 }, async () => {
    const { page, problems } = manager;
    await openMenuEntry(page, '/people-manage/userManage');
    const table = page.getByTestId('resident-table');
    await table.waitFor();
    await page.getByTestId('resident-import').click();
    const dialog = importDialog(page);
    await expect.poll(() => dialog.locator('.ant-modal-title').innerText()).toBe(ui('residents', 'import.title'));
    const template = await readDownload(await downloadBy(page, dialog.getByTestId('import-template')));
    expect(template).toEqual([residentHeader]);

    const answer = await runImport(
      page,
      '/userManagement/batchAdd',
      xlsx('residents.xlsx', [template[0] ?? [], ...residentRows()]),
    );
    expect(answer.status, JSON.stringify(answer)).toBe(200);
    expect(answer.data).toEqual({ imported: RESIDENT_COUNT, checkedIn: 0 });
    await eventually(() => dialog.getByTestId('import-done').innerText()).toBe(rowsImported(RESIDENT_COUNT));
    await shot(page, 'facility-07-residents-import');
    await closeImport(page);
    await eventually(() => totalOf(table)).toBe(inTotal(RESIDENT_COUNT));
    await eventually(() =>
      page.getByTestId('summary-registered').locator('.ant-statistic-content-value').innerText(),
    ).toBe(String(RESIDENT_COUNT));
    await shot(page, 'facility-08-residents');
    expect(problems).toEqual([]);
  });

  it('the manager checks a resident in to a bed, then out again', async () => {
    const { page, problems } = manager;
    const table = page.getByTestId('resident-table');
    await page.getByTestId('resident-keyword').fill(RESIDENT);
    await page.getByTestId('resident-search').click();
    const rows = table.locator('tbody tr.ant-table-row');
    await eventually(() => rows.count()).toBe(1);
    const row = rows.filter({ hasText: RESIDENT });
    await row.waitFor();
    expect(await row.innerText()).toContain(ui('residents', 'state.registered'));

    await row.getByRole('button', { name: ui('residents', 'actions.checkIn') }).click();
    const dialog = modalWith(page, 'checkin-form');
    await expect
      .poll(() => dialog.locator('.ant-modal-title').innerText())
      .toBe(ui('residents', 'checkIn.title', { name: RESIDENT }));
    // The picker offers the free beds only: area → floor → room → bed.
    await dialog.getByTestId('checkin-bed').click();
    const menus = page.locator('.ant-cascader-dropdown:not(.ant-cascader-dropdown-hidden) .ant-cascader-menu');
    const bed = BEDS[0] ?? '';
    for (const [level, label] of [AREA, FLOOR, ROOMS[0] ?? '', bed].entries()) {
      await menus.nth(level).locator(`.ant-cascader-menu-item[title="${label}"]`).click();
    }
    // Only room 101 has beds; rooms without one are left out of the picker.
    await shot(page, 'facility-09-checkin-dialog');
    const answer = page.waitForResponse((res) => new URL(res.url()).pathname === '/user/getUserCheckIn', SLOW);
    await dialog.getByRole('button', { name: ui('residents', 'checkIn.ok') }).click();
    expect(((await (await answer).json()) as { status: number }).status).toBe(200);
    const place = [AREA, FLOOR, ROOMS[0], bed].join(' / ');
    await eventually(() => row.innerText()).toContain(ui('residents', 'state.checkedIn'));
    expect(await row.innerText()).toContain(place);
    await eventually(() =>
      page.getByTestId('summary-checkedIn').locator('.ant-statistic-content-value').innerText(),
    ).toBe('1');
    await shot(page, 'facility-10-checked-in');

    await row.getByRole('button', { name: ui('residents', 'actions.checkOut') }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await eventually(() => confirm.locator('.ant-modal-confirm-content').innerText()).toBe(
      ui('residents', 'actions.checkOutConfirm', { name: RESIDENT, bed: place }),
    );
    await confirm.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
    await eventually(() => row.innerText()).toContain(ui('residents', 'state.checkedOut'));
    expect(await row.innerText()).not.toContain(place);
    await eventually(() =>
      page.getByTestId('summary-checkedOut').locator('.ant-statistic-content-value').innerText(),
    ).toBe('1');
    await shot(page, 'facility-11-checked-out');
    expect(problems).toEqual([]);
  });

  it('the manager exports the list and re-imports it, confirming the same names', { timeout: 120_000 }, async () => {
    const { page, problems } = manager;
    const table = page.getByTestId('resident-table');
    const all = String(RESIDENT_COUNT);
    await page.getByTestId('resident-reset').click();
    await eventually(() => totalOf(table)).toBe(inTotal(all));

    // The export takes the list's filters (none now): every resident, in the template's columns.
    const exported = await downloadBy(page, page.getByTestId('export'));
    expect(exported.suggestedFilename()).toBe(ui('residents', 'file.export'));
    const rows = await readDownload(exported);
    // Saved under its own name: the dialog takes .xls and .xlsx files only.
    const saved = path.join(downloads, exported.suggestedFilename());
    await exported.saveAs(saved);
    const extra = [translate('en-US', 'sheet.col.state'), translate('en-US', 'sheet.col.provider')];
    expect(rows[0]).toEqual([...residentHeader, ...extra]);
    const data = rows.slice(1);
    expect(data).toHaveLength(RESIDENT_COUNT);
    expect(data.map((r) => r[0]).sort()).toEqual(Array.from({ length: RESIDENT_COUNT }, (_, i) => residentName(i)));
    const stateColumn = residentHeader.length;
    const checkedOut = data.find((r) => r[0] === RESIDENT);
    expect(checkedOut?.[stateColumn]).toBe(translate('en-US', 'sheet.state.checkedOut'));
    // Checked out: no bed path, so the row re-imports unplaced.
    expect(checkedOut?.slice(-6, -2)).toEqual(['', '', '', '']);
    expect(data.filter((r) => r[stateColumn] === translate('en-US', 'sheet.state.registered'))).toHaveLength(
      RESIDENT_COUNT - 1,
    );
    expect(new Set(data.map((r) => r[stateColumn + 1]))).toEqual(new Set(['Maple House']));

    // The same file again: every name exists, so the server asks and the dialog offers to go on.
    await page.getByTestId('resident-import').click();
    const dialog = importDialog(page);
    const asked = await runImport(page, '/userManagement/batchAdd', saved);
    expect([asked.status, asked.msgKey]).toEqual([300, 'import.sameNameConfirm']);
    const refused = dialog.getByTestId('import-refused');
    await eventually(() => refused.innerText()).toBe(
      translate('en-US', 'import.sameNameConfirm', { count: RESIDENT_COUNT }),
    );
    const anyway = dialog.getByTestId('import-confirm');
    expect(await anyway.innerText()).toBe(text('en-US', 'transfer.importAnyway'));
    // The rows are listed with the resident each one repeats: row 2 is the file's first resident.
    expect(await dialog.locator('.ant-table-tbody tr.ant-table-row').first().locator('td').allInnerTexts()).toEqual([
      '2',
      translate('en-US', 'sheet.col.name'),
      translate('en-US', 'resident.sameName', { name: data[0]?.[0] ?? '' }),
    ]);
    await shot(page, 'facility-12-reimport-asks');
    await eventually(() => totalOf(table)).toBe(inTotal(all));

    const confirmed = await runImport(page, '/userManagement/batchAdd', saved, 'import-confirm');
    expect(confirmed.status, JSON.stringify(confirmed)).toBe(200);
    expect(confirmed.data).toEqual({ imported: RESIDENT_COUNT, checkedIn: 0 });
    await eventually(() => dialog.getByTestId('import-done').innerText()).toBe(rowsImported(all));
    await closeImport(page);
    const doubled = String(2 * RESIDENT_COUNT);
    await eventually(() => totalOf(table)).toBe(inTotal(doubled));
    await eventually(() => page.getByTestId('summary-total').locator('.ant-statistic-content-value').innerText()).toBe(
      doubled,
    );
    await shot(page, 'facility-13-residents-doubled');
    expect(problems).toEqual([]);
    await manager.context.close();
  });
});
