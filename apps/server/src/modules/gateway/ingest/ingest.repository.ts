import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../../db/database.ts';
import { deviceEvents, deviceMinutes, deviceRawMinutes, deviceSeconds } from '../../../db/schema.ts';
import type { MinuteSummary } from './minute-rollup.ts';

export type DeviceEventRow = typeof deviceEvents.$inferInsert;

/** The ingest's SQL: multi-row statements only, never one per message. */
export class IngestRepository {
  /**
   * Stores events; a redelivered one (same device, seq and time) is skipped by the unique index.
   * Answers the rows stored (not those skipped) with their ids.
   */
  async insertEvents(
    db: Executor,
    rows: readonly DeviceEventRow[],
  ): Promise<{ id: number; deviceId: string; seq: number | null; occurredAt: Date }[]> {
    if (!rows.length) return [];
    return db
      .insert(deviceEvents)
      .values([...rows])
      .onConflictDoNothing({ target: [deviceEvents.deviceId, deviceEvents.seq, deviceEvents.occurredAt] })
      .returning({
        id: deviceEvents.id,
        deviceId: deviceEvents.deviceId,
        seq: deviceEvents.seq,
        occurredAt: deviceEvents.occurredAt,
      });
  }

  /** Writes minute summaries, merging with a part of the same minute written before. */
  async upsertMinutes(db: Executor, minutes: readonly MinuteSummary[]): Promise<void> {
    if (!minutes.length) return;
    const m = deviceMinutes;
    const avg = (sum: number, n: number) => (n ? sum / n : null);
    const merged = (avg: SQLWrapper, n: SQLWrapper, column: string, nColumn: string) =>
      sql`case when ${n} + excluded.${sql.identifier(nColumn)} = 0 then null else
        (coalesce(${avg}, 0) * ${n} + coalesce(excluded.${sql.identifier(column)}, 0) * excluded.${sql.identifier(nColumn)})
        / (${n} + excluded.${sql.identifier(nColumn)}) end`;
    await db
      .insert(m)
      .values(
        minutes.map((s) => ({
          deviceId: s.deviceId,
          minute: new Date(s.minute),
          providerId: s.providerId,
          bedId: s.bedId,
          residentId: s.residentId,
          samples: s.samples,
          hrSamples: s.hrSamples,
          hrMin: s.hrMin,
          hrAvg: avg(s.hrSum, s.hrSamples),
          hrMax: s.hrMax,
          rrSamples: s.rrSamples,
          rrMin: s.rrMin,
          rrAvg: avg(s.rrSum, s.rrSamples),
          rrMax: s.rrMax,
          inBedSeconds: Math.min(60, Math.round(s.inBedSeconds)),
          asleepSeconds: Math.min(60, Math.round(s.asleepSeconds)),
          moveAvg: s.samples ? s.moveSum / s.samples : 0,
          moveMax: s.moveMax,
          rri: s.rri,
        })),
      )
      .onConflictDoUpdate({
        target: [m.deviceId, m.minute],
        set: {
          providerId: sql`coalesce(${m.providerId}, excluded.provider_id)`,
          bedId: sql`coalesce(${m.bedId}, excluded.bed_id)`,
          residentId: sql`coalesce(${m.residentId}, excluded.resident_id)`,
          samples: sql`${m.samples} + excluded.samples`,
          hrSamples: sql`${m.hrSamples} + excluded.hr_samples`,
          hrMin: sql`least(${m.hrMin}, excluded.hr_min)`,
          hrAvg: merged(m.hrAvg, m.hrSamples, 'hr_avg', 'hr_samples'),
          hrMax: sql`greatest(${m.hrMax}, excluded.hr_max)`,
          rrSamples: sql`${m.rrSamples} + excluded.rr_samples`,
          rrMin: sql`least(${m.rrMin}, excluded.rr_min)`,
          rrAvg: merged(m.rrAvg, m.rrSamples, 'rr_avg', 'rr_samples'),
          rrMax: sql`greatest(${m.rrMax}, excluded.rr_max)`,
          inBedSeconds: sql`least(60, ${m.inBedSeconds} + excluded.in_bed_s)`,
          asleepSeconds: sql`least(60, ${m.asleepSeconds} + excluded.asleep_s)`,
          moveAvg: sql`(${m.moveAvg} * ${m.samples} + excluded.move_avg * excluded.samples) / (${m.samples} + excluded.samples)`,
          moveMax: sql`greatest(${m.moveMax}, excluded.move_max)`,
          rri: sql`case when ${m.rri} is null then excluded.rri when excluded.rri is null then ${m.rri} else ${m.rri} || excluded.rri end`,
        },
      });
  }

  /** Writes raw minutes, appending to a part of the same minute written before. */
  async upsertRaw(db: Executor, minutes: readonly MinuteSummary[]): Promise<void> {
    const rows = minutes.filter((s) => s.raw?.t.length);
    if (!rows.length) return;
    const r = deviceRawMinutes;
    const keys = ['t', 'hr', 'rr', 'inBed', 'asleep', 'move', 'rri'];
    const appended = sql.join(
      keys.map((k) => sql`${k}::text, (${r.samples} -> ${k}::text) || (excluded.samples -> ${k}::text)`),
      sql`, `,
    );
    await db
      .insert(r)
      .values(
        rows.map((s) => ({
          deviceId: s.deviceId,
          minute: new Date(s.minute),
          providerId: s.providerId,
          samples: s.raw ?? { t: [], hr: [], rr: [], inBed: [], asleep: [], move: [], rri: [] },
        })),
      )
      .onConflictDoUpdate({
        target: [r.deviceId, r.minute],
        set: { samples: sql`jsonb_build_object(${appended})` },
      });
  }

  /** Writes minutes second by second; a late part fills only the seconds it carries. */
  async upsertSeconds(db: Executor, minutes: readonly MinuteSummary[]): Promise<void> {
    if (!minutes.length) return;
    const d = deviceSeconds;
    await db
      .insert(d)
      .values(
        minutes.map((s) => ({
          deviceId: s.deviceId,
          minute: new Date(s.minute),
          providerId: s.providerId,
          seconds: s.seconds,
        })),
      )
      .onConflictDoUpdate({
        target: [d.deviceId, d.minute],
        set: {
          providerId: sql`coalesce(${d.providerId}, excluded.provider_id)`,
          seconds: sql`vigil_overlay_seconds(${d.seconds}, excluded.seconds)`,
        },
      });
  }
}
