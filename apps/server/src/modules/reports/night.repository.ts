import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { deviceMinutes, deviceSeconds } from '../../db/schema.ts';

/** A slice of the night per query: on PGlite each is one stretch of the server's thread (a few ms). */
export const SLICE_MINUTES = 120;

/** Reads what was stored of a resident's nights. */
export class NightRepository {
  /** The night `[from, to)` in slices of `SLICE_MINUTES`, each read apart from the others. */
  static slicesOf(from: Date, to: Date): { from: Date; to: Date }[] {
    const slices: { from: Date; to: Date }[] = [];
    for (let start = from.getTime(); start < to.getTime(); start += SLICE_MINUTES * 60_000)
      slices.push({ from: new Date(start), to: new Date(Math.min(to.getTime(), start + SLICE_MINUTES * 60_000)) });
    return slices;
  }

  /**
   * The resident's sleep-monitor minutes in `[from, to)`, whatever monitor their bed had then
   * (the minute rows carry the resident of the moment), with their seconds where kept, packed
   * by the database into one string (packed-night.ts); null when none was stored.
   */
  async packedSlice(db: Executor, residentId: number, from: Date, to: Date): Promise<string | null> {
    const m = deviceMinutes;
    const minute = sql`extract(epoch from ${m.minute})::bigint::text || ':' || coalesce(encode(${deviceSeconds.seconds}, 'base64'), '') || ':' || coalesce(array_to_string(${m.rri}, ','), '')`;
    const [row] = await db
      .select({ packed: sql<string | null>`string_agg(${minute}, ';' order by ${m.minute})` })
      .from(m)
      .leftJoin(deviceSeconds, and(eq(deviceSeconds.deviceId, m.deviceId), eq(deviceSeconds.minute, m.minute)))
      .where(and(eq(m.residentId, residentId), gte(m.minute, from), lt(m.minute, to)));
    return row?.packed ?? null;
  }
}
