import { DEFAULT_SLEEP_SETTING } from '@vigil/contract';
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { beds, deviceMinutes, devices, residents, residentSleepSettings, sleepReports } from '../../db/schema.ts';
import { SLEEP_MONITOR_CODES } from '../monitor/sleep-monitors.ts';
import { storedSleepSetting } from '../sleep-settings/sleep-setting.policy.ts';

/** A resident whose nights are reported: in a bed with a sleep monitor, with their sleep times. */
export interface ReportedResident {
  residentId: number;
  providerId: number;
  bedId: number;
  sleepTime: string;
  wakeTime: string;
}

/** A report row the scheduler knows of: ready, or failed / computing since `claimedAt`. */
export type KnownNight = { state: 'ready' } | { state: 'failed' | 'computing'; claimedAt: Date };

/** What the report scheduler reads to decide which reports are due. */
export class ReportPlanRepository {
  /** Checked-in residents whose bed has a sleep monitor now, with their sleep settings (or the defaults). */
  async reportedResidents(db: Executor): Promise<ReportedResident[]> {
    const rows = await db
      .select({
        residentId: residents.id,
        providerId: residents.providerId,
        bedId: beds.id,
        settings: {
          leaveBedMode: residentSleepSettings.leaveBedMode,
          sleepTime: residentSleepSettings.sleepTime,
          wakeTime: residentSleepSettings.wakeTime,
          sensitivity: residentSleepSettings.sensitivity,
          mattress: residentSleepSettings.mattress,
        },
      })
      .from(residents)
      .innerJoin(beds, eq(beds.residentId, residents.id))
      .innerJoin(devices, eq(devices.id, beds.deviceId))
      .leftJoin(residentSleepSettings, eq(residentSleepSettings.residentId, residents.id))
      .where(and(eq(residents.state, 'checkedIn'), inArray(devices.typeCode, [...SLEEP_MONITOR_CODES])));
    return rows.map((r) => {
      // A row the calls would refuse counts as nothing saved (sleep-setting.policy.ts).
      const saved = r.settings ? storedSleepSetting(r.settings) : null;
      return {
        residentId: r.residentId,
        providerId: r.providerId,
        bedId: r.bedId,
        sleepTime: saved?.sleepTime ?? DEFAULT_SLEEP_SETTING.sleepTime,
        wakeTime: saved?.wakeTime ?? DEFAULT_SLEEP_SETTING.wakeTime,
      };
    });
  }

  /**
   * Every report row of a night on or after `fromNight`, whatever its state, by resident and
   * night. Read as one short string per resident, not a row per report: the scheduler asks every
   * look, and on PGlite each returned row and value is decoded on the server's thread.
   */
  async nightsSince(db: Executor, fromNight: string): Promise<Map<number, Map<string, KnownNight>>> {
    const r = sleepReports;
    const rows = await db
      .select({
        residentId: r.residentId,
        nights: sql<string>`string_agg(${r.night}::text || case when ${r.state} = 'ready' then '' else ' ' || ${r.state} || ' ' || floor(extract(epoch from ${r.claimedAt}) * 1000)::bigint end, ',')`,
      })
      .from(r)
      .where(gte(r.night, fromNight))
      .groupBy(r.residentId);
    const known = new Map<number, Map<string, KnownNight>>();
    for (const row of rows) {
      const nights = new Map<string, KnownNight>();
      for (const entry of row.nights.split(',')) {
        const [night = '', state, claimedAt] = entry.split(' ');
        nights.set(
          night,
          state === 'failed' || state === 'computing'
            ? { state, claimedAt: new Date(Number(claimedAt)) }
            : { state: 'ready' },
        );
      }
      known.set(row.residentId, nights);
    }
    return known;
  }

  /** Of these residents' windows, the residents with any sleep-monitor minute stored in theirs. */
  async withMinutes(
    db: Executor,
    windows: readonly { residentId: number; start: Date; end: Date }[],
  ): Promise<Set<number>> {
    if (!windows.length) return new Set();
    const values = sql.join(
      windows.map(
        (w) => sql`(${w.residentId}::int, ${w.start.toISOString()}::timestamptz, ${w.end.toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    const result = await db.execute(
      sql`select w.resident_id from (values ${values}) as w(resident_id, window_start, window_end)
          where exists (select 1 from ${deviceMinutes} m where m.resident_id = w.resident_id
            and m.minute >= w.window_start and m.minute < w.window_end)`,
    );
    const { rows } = result as unknown as { rows: { resident_id: number }[] };
    return new Set(rows.map((r) => Number(r.resident_id)));
  }
}
