/** Tenancy matrix seed of the sleep reports: one ready report of each tenant's resident, last night. */
import { analyseNight, emptyNight, minuteCurves } from '@vigil/sleep';
import { sleepReports } from '../db/schema.ts';
import type { TestApp } from './harness.ts';
import { reportNight } from './tenancy-probe.ts';

/**
 * A report of yesterday's night (the probe's `date` and `month` samples, `reportNight`: a night
 * that has ended whatever the hour, so a recompute of it is taken) for the foreign resident
 * (B, whose name carries the marker) and the own one (A), so a report call that forgets the
 * caller's scope shows B's resident in its answer.
 */
export const seedReports = async (
  app: TestApp,
  foreign: { providerId: number; residentId: number | undefined },
  own: { providerId: number; residentId: number | undefined },
): Promise<void> => {
  const night = reportNight(app.clock.now());
  const end = new Date(`${night}T07:10:00Z`);
  const start = new Date(end.getTime() - 12 * 3600_000);
  const signals = emptyNight(start.getTime() / 1000, 12 * 3600);
  const report = { report: analyseNight(signals), curves: minuteCurves(signals) };
  for (const tenant of [foreign, own]) {
    if (tenant.residentId === undefined) throw new Error('seed reports: a tenant has no resident');
    await app.database.db.insert(sleepReports).values({
      providerId: tenant.providerId,
      residentId: tenant.residentId,
      night,
      windowStart: start,
      windowEnd: end,
      state: 'ready',
      claimedAt: end,
      computedAt: end,
      analysisVersion: 1,
      report,
    });
  }
};
