import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, linkBed, loadStock, placeBed, T } from '../apps/server/src/modules/devices/device-test-support.ts';
import { latestEndedNight } from '../apps/server/src/modules/reports/night-window.ts';
import { readPdf } from '../apps/server/src/modules/reports/pdf/pdf-text.ts';
import { storeNight } from '../apps/server/src/modules/reports/report-test-support.ts';
import { launchBrowser, openSession, settled, signIn, stillScreenshot } from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import { apiLogin, createProvider, startServer, type E2eServer, type Login } from './support/server.ts';

warnWhenNoChromium('sleep reports');

// Issue 11: a resident slept with a sleep monitor under the bed; once the night has ended the
// scheduler makes the report. A caregiver opens it from the report list, sees the score and the
// charts, and downloads the PDF, whose text names the resident and carries the same score.

const PASSWORD = 'Care#Home2026';
/** Accents that need the embedded Latin font, in a name the PDF must print. */
const RESIDENT = 'Zdeněk Šťastný';
const FEATURE_LOCALE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../apps/web/src/features/sleep-report/locales/en-US.json',
);
const label = (key: string): string => {
  const texts = JSON.parse(fs.readFileSync(FEATURE_LOCALE, 'utf8')) as Record<string, string>;
  const value = texts[key];
  if (value === undefined) throw new Error(`no ${key} in the sleep report texts`);
  return value;
};

describe.skipIf(!hasChromium)('sleep reports (browser)', () => {
  let server: E2eServer;
  let browser: Browser;
  let residentId = 0;
  let night = '';
  const home: Login = { userName: 'pineHome', password: PASSWORD };

  beforeAll(async () => {
    server = await startServer();
    const group = await createProvider(server, { name: 'Pine Group', userName: 'pineGroup', password: PASSWORD });
    const groupToken = (await apiLogin(server, { userName: 'pineGroup', password: PASSWORD })).token;
    const homeProvider = await createProvider(server, { name: 'Pine Home', ...home, parentId: group.id }, groupToken);
    const homeToken = (await apiLogin(server, home)).token;
    await loadStock(server.app, server.adminToken, [{ deviceId: 'PINE-SLEEP-1', deviceType: T.sleep }]);
    await addDevice(server.app, homeToken, 'PINE-SLEEP-1', T.sleep);
    const bed = await placeBed(server.app, homeProvider.id, {
      area: 'Pine House',
      room: '12',
      bed: 'B',
      resident: RESIDENT,
    });
    residentId = bed.residentId ?? 0;
    await linkBed(server.app, bed.bedId, 'PINE-SLEEP-1');
    // Last night with the default settings (21:00 → 07:00) in the server's zone, as ingest stores it.
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const window = latestEndedNight(new Date(), '21:00', '07:00', zone);
    night = window.night;
    const minutes = Math.round((window.end.getTime() - window.start.getTime()) / 60_000);
    await storeNight(server.app, {
      deviceId: 'PINE-SLEEP-1',
      providerId: homeProvider.id,
      bedId: bed.bedId,
      residentId,
      from: window.start,
      minutes,
      inBedFrom: 150,
      inBedTo: minutes - 20,
    });
    const made = await server.app.services.reports.scheduler.tick();
    expect(made).toMatchObject({ made: 1, failed: 0 });
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens the latest report from the list and downloads its PDF', async () => {
    const { page, context, problems } = await openSession(browser, server);
    await signIn(page, home);

    await page.goto('/sleep-report/reportList');
    await settled(page);
    const row = page.getByTestId('sleep-report-list').locator('tr', { hasText: RESIDENT });
    await row.waitFor();
    await stillScreenshot(page, 'reports-01-list');
    await row.getByRole('button', { name: label('action.latestReport') }).click();
    await page.waitForURL(`**/sleep-report/dailyDetails/reportDetails?*date=${night}*`);
    await settled(page);

    const score = page.getByTestId('report-score-value');
    await score.waitFor();
    const shown = Number((await score.textContent())?.trim());
    expect(shown).toBeGreaterThan(0);
    expect(await page.getByTestId('daily-report').textContent()).toContain(RESIDENT);
    await page.getByTestId('report-hypnogram').locator('canvas').first().waitFor();
    await stillScreenshot(page, 'reports-02-daily');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-pdf').click()]);
    expect(download.suggestedFilename()).toBe(`${RESIDENT}-${night}.pdf`);
    const file = await download.path();
    const pdf = await readPdf(new Uint8Array(fs.readFileSync(file)));
    expect(pdf.flat).toContain(RESIDENT);
    expect(pdf.flat).toContain(String(shown));
    expect(pdf.fontFiles).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
