import type { SleepConfig } from '@vigil/contract';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { beds, residents, residentSleepSettings } from '../../db/schema.ts';

export type SleepSettingRow = typeof residentSleepSettings.$inferSelect;

/** A resident whose settings are written, with the provider the row is filed under (the resident's). */
export interface SleepSettingOwner {
  residentId: number;
  providerId: number;
}

/** What the sleep-setting calls read of a resident (the residents module owns the table). */
export interface ResidentRef {
  id: number;
  providerId: number;
}

/**
 * resident_sleep_setting: one row per resident with saved sleep settings. Written by the
 * BunkManage calls and the community calls alike; the report scheduler and the alarm engine read it.
 */
export class SleepSettingRepository {
  async findOne(db: Executor, residentId: number): Promise<SleepSettingRow | undefined> {
    const [row] = await db.select().from(residentSleepSettings).where(eq(residentSleepSettings.residentId, residentId));
    return row;
  }

  async findMany(db: Executor, residentIds: readonly number[]): Promise<SleepSettingRow[]> {
    if (!residentIds.length) return [];
    return db
      .select()
      .from(residentSleepSettings)
      .where(inArray(residentSleepSettings.residentId, [...residentIds]));
  }

  /**
   * The same settings for every given resident, replacing what they had. Rows are written in
   * resident order, so two batches sharing residents lock them in the same order.
   */
  async upsert(
    db: Executor,
    owners: readonly SleepSettingOwner[],
    config: SleepConfig,
    stamp: { at: Date; by: number },
  ): Promise<void> {
    if (!owners.length) return;
    const values = {
      leaveBedMode: config.leaveBedMode,
      sleepTime: config.sleepTime,
      wakeTime: config.wakeTime,
      sensitivity: config.sensitivity,
      mattress: config.mattress,
      updatedAt: stamp.at,
      updatedBy: stamp.by,
    };
    await db
      .insert(residentSleepSettings)
      .values([...owners].sort((a, b) => a.residentId - b.residentId).map((o) => ({ ...o, ...values })))
      .onConflictDoUpdate({
        target: residentSleepSettings.residentId,
        set: { ...values, providerId: sql.raw(`excluded.${residentSleepSettings.providerId.name}`) },
      });
  }

  /**
   * Gives the residents' current beds the settings' mattress, so the bed list shows what the
   * settings say; beds that have it already are left untouched. Answers the beds changed.
   */
  async mirrorMattress(db: Executor, residentIds: readonly number[], mattress: string, at: Date): Promise<number[]> {
    if (!residentIds.length) return [];
    const rows = await db
      .update(beds)
      .set({ mattress, updatedAt: at })
      .where(and(inArray(beds.residentId, [...residentIds]), ne(beds.mattress, mattress)))
      .returning({ id: beds.id });
    return rows.map((r) => r.id);
  }

  async residentsByIds(db: Executor, ids: readonly number[]): Promise<ResidentRef[]> {
    if (!ids.length) return [];
    return db
      .select({ id: residents.id, providerId: residents.providerId })
      .from(residents)
      .where(inArray(residents.id, [...ids]));
  }

  /**
   * The settings of every resident whose bed-leaving watch is not all day (the others change
   * nothing in the alarm rules): what the alarm engine holds in memory, reloaded with its other
   * settings in one query.
   */
  async narrowedLeaveBedWatches(db: Executor): Promise<SleepSettingRow[]> {
    return db
      .select()
      .from(residentSleepSettings)
      .where(ne(residentSleepSettings.leaveBedMode, 'allDay' satisfies SleepConfig['leaveBedMode']))
      .orderBy(asc(residentSleepSettings.residentId));
  }
}
