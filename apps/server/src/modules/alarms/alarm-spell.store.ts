import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { alarmSpells } from '../../db/schema.ts';

/** A device's sleep-monitor conditions that had held for a while, as last written. */
export interface StoredSpells {
  deviceId: string;
  /** Alarm type → since, ms since the epoch. */
  spells: Record<string, number>;
  updatedAt: Date;
}

/** The alarm engine's duration clocks on disk (table `alarm_spell`): what a restart resumes. */
export class AlarmSpellStore {
  constructor(private readonly db: Db) {}

  /** Every device's spells as last written (at most one row per device). */
  async load(): Promise<StoredSpells[]> {
    return this.db.select().from(alarmSpells);
  }

  /** Writes each device's spells, replacing what it had: one statement per thousand devices. */
  async save(spells: ReadonlyMap<string, Record<string, number>>, at: Date): Promise<void> {
    const rows = [...spells].map(([deviceId, s]) => ({ deviceId, spells: s, updatedAt: at }));
    for (let i = 0; i < rows.length; i += 1000)
      await this.db
        .insert(alarmSpells)
        .values(rows.slice(i, i + 1000))
        .onConflictDoUpdate({
          target: alarmSpells.deviceId,
          set: { spells: sql`excluded.spells`, updatedAt: sql`excluded.updated_at` },
        });
  }

  /** Forgets the spells of devices whose conditions ended. */
  async remove(deviceIds: readonly string[]): Promise<void> {
    if (deviceIds.length) await this.db.delete(alarmSpells).where(inArray(alarmSpells.deviceId, [...deviceIds]));
  }
}
