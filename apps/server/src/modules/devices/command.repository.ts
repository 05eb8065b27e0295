import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { deviceCommands } from '../../db/schema.ts';

export type CommandRecord = typeof deviceCommands.$inferSelect;

/** Commands queued for devices: the only SQL on device_command. */
export class CommandRepository {
  async insert(db: Executor, values: typeof deviceCommands.$inferInsert): Promise<CommandRecord> {
    const [row] = await db.insert(deviceCommands).values(values).returning();
    if (!row) throw new Error('device command insert returned nothing');
    return row;
  }

  async findById(db: Executor, id: number, lock = false): Promise<CommandRecord | undefined> {
    const query = db.select().from(deviceCommands).where(eq(deviceCommands.id, id));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  }

  /** Pending commands of one kind for a device become superseded by a newer one. */
  async supersede(db: Executor, deviceRowId: number, command: string, now: Date): Promise<void> {
    await db
      .update(deviceCommands)
      .set({ state: 'superseded', updatedAt: now })
      .where(
        and(
          eq(deviceCommands.deviceRowId, deviceRowId),
          eq(deviceCommands.command, command),
          eq(deviceCommands.state, 'pending'),
        ),
      );
  }

  /** Commands not yet answered (pending or sent) of devices leaving: cancelled. */
  async cancelOpen(db: Executor, deviceRowIds: readonly number[], now: Date): Promise<void> {
    if (!deviceRowIds.length) return;
    await db
      .update(deviceCommands)
      .set({ state: 'cancelled', updatedAt: now })
      .where(
        and(inArray(deviceCommands.deviceRowId, [...deviceRowIds]), inArray(deviceCommands.state, ['pending', 'sent'])),
      );
  }

  /** Commands follow their devices to another provider. */
  async moveProvider(db: Executor, deviceRowIds: readonly number[], providerId: number, now: Date): Promise<void> {
    if (!deviceRowIds.length) return;
    await db
      .update(deviceCommands)
      .set({ providerId, updatedAt: now })
      .where(inArray(deviceCommands.deviceRowId, [...deviceRowIds]));
  }

  /** Commands awaiting delivery (pending) or acknowledgement (sent), oldest first. */
  async open(db: Executor, deviceRowIds: readonly number[]): Promise<CommandRecord[]> {
    if (!deviceRowIds.length) return [];
    return db
      .select()
      .from(deviceCommands)
      .where(
        and(inArray(deviceCommands.deviceRowId, [...deviceRowIds]), inArray(deviceCommands.state, ['pending', 'sent'])),
      )
      .orderBy(asc(deviceCommands.id));
  }

  /** Pending commands addressed to a device ID, oldest first: what the device gateway delivers next. */
  async pendingFor(db: Executor, deviceId: string): Promise<CommandRecord[]> {
    return db
      .select()
      .from(deviceCommands)
      .where(and(eq(deviceCommands.deviceId, deviceId), eq(deviceCommands.state, 'pending')))
      .orderBy(asc(deviceCommands.id));
  }

  /** Commands to (re)send when a device connects: pending, or sent and never answered; oldest first. */
  async undeliveredFor(db: Executor, deviceId: string): Promise<CommandRecord[]> {
    return db
      .select()
      .from(deviceCommands)
      .where(and(eq(deviceCommands.deviceId, deviceId), inArray(deviceCommands.state, ['pending', 'sent'])))
      .orderBy(asc(deviceCommands.id));
  }

  /** Unanswered commands queued before `before` expire; returns them. */
  async expire(db: Executor, before: Date, now: Date): Promise<CommandRecord[]> {
    return db
      .update(deviceCommands)
      .set({ state: 'expired', updatedAt: now })
      .where(and(inArray(deviceCommands.state, ['pending', 'sent']), lt(deviceCommands.createdAt, before)))
      .returning();
  }

  async update(db: Executor, id: number, values: Partial<typeof deviceCommands.$inferInsert>): Promise<void> {
    await db.update(deviceCommands).set(values).where(eq(deviceCommands.id, id));
  }
}
