import { and, asc, count, desc, eq, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { PAIRING_COMMANDS } from '@vigil/contract';
import type { Executor } from '../../db/database.ts';
import { deviceCommands } from '../../db/schema.ts';

export type CommandRecord = typeof deviceCommands.$inferSelect;

/** The sub-device a pairing command names (its `deviceId` param). */
const namedSubDevice = sql<string | null>`${deviceCommands.payload}->>'deviceId'`;
/** Pairing commands a gateway host was sent for one sub-device. */
const pairingsOf = (hostRowId: number, subDeviceId: string): SQL | undefined =>
  and(
    eq(deviceCommands.deviceRowId, hostRowId),
    inArray(deviceCommands.command, [...PAIRING_COMMANDS]),
    eq(namedSubDevice, subDeviceId),
  );

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

  /**
   * Pending pairing commands of a host for one sub-device are superseded by a newer one (whichever
   * of pair, pair_scan and unpair: the latest request for a sub-device wins).
   */
  async supersedePairing(db: Executor, hostRowId: number, subDeviceId: string, now: Date): Promise<void> {
    await db
      .update(deviceCommands)
      .set({ state: 'superseded', updatedAt: now })
      .where(and(pairingsOf(hostRowId, subDeviceId), eq(deviceCommands.state, 'pending')));
  }

  /** The latest pairing command of a host for a sub-device, or the one asked for by id. */
  async latestPairing(
    db: Executor,
    hostRowId: number,
    subDeviceId: string,
    commandId?: number,
  ): Promise<CommandRecord | undefined> {
    const [row] = await db
      .select()
      .from(deviceCommands)
      .where(
        and(pairingsOf(hostRowId, subDeviceId), commandId === undefined ? undefined : eq(deviceCommands.id, commandId)),
      )
      .orderBy(desc(deviceCommands.id))
      .limit(1);
    return row;
  }

  /** Unanswered pairing commands naming sub-devices that leave their host: cancelled. */
  async cancelPairings(db: Executor, hostRowId: number, subDeviceIds: readonly string[], now: Date): Promise<void> {
    if (!subDeviceIds.length) return;
    await db
      .update(deviceCommands)
      .set({ state: 'cancelled', updatedAt: now })
      .where(
        and(
          eq(deviceCommands.deviceRowId, hostRowId),
          inArray(deviceCommands.command, [...PAIRING_COMMANDS]),
          inArray(namedSubDevice, [...subDeviceIds]),
          inArray(deviceCommands.state, ['pending', 'sent']),
        ),
      );
  }

  /**
   * A device's commands, newest first: those addressed to it and, for a sub-device, the pairing
   * commands its host was sent for it.
   */
  async history(
    db: Executor,
    q: {
      deviceRowId: number;
      pairing: { hostRowId: number; subDeviceId: string } | null;
      offset: number;
      limit: number;
    },
  ): Promise<{ rows: CommandRecord[]; total: number }> {
    const where = or(
      eq(deviceCommands.deviceRowId, q.deviceRowId),
      q.pairing ? pairingsOf(q.pairing.hostRowId, q.pairing.subDeviceId) : undefined,
    );
    const rows = await db
      .select()
      .from(deviceCommands)
      .where(where)
      .orderBy(desc(deviceCommands.id))
      .limit(q.limit)
      .offset(q.offset);
    const [total] = await db.select({ n: count() }).from(deviceCommands).where(where);
    return { rows, total: total?.n ?? 0 };
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

  /**
   * The latest command of a kind for each device (force_init: what a sensor's state is read from),
   * whatever its state.
   */
  async latestOf(db: Executor, deviceRowIds: readonly number[], command: string): Promise<CommandRecord[]> {
    if (!deviceRowIds.length) return [];
    return db
      .selectDistinctOn([deviceCommands.deviceRowId])
      .from(deviceCommands)
      .where(and(inArray(deviceCommands.deviceRowId, [...deviceRowIds]), eq(deviceCommands.command, command)))
      .orderBy(deviceCommands.deviceRowId, desc(deviceCommands.id));
  }

  /**
   * The latest pairing command (pair, pair_scan or unpair) of each host for each of the named
   * sub-devices, whatever its state: what a sub-device's pairing state is read from.
   */
  async latestPairings(
    db: Executor,
    hostRowIds: readonly number[],
    subDeviceIds: readonly string[],
  ): Promise<(CommandRecord & { subDeviceId: string | null })[]> {
    if (!hostRowIds.length || !subDeviceIds.length) return [];
    const rows = await db
      .selectDistinctOn([deviceCommands.deviceRowId, namedSubDevice], {
        command: deviceCommands,
        subDeviceId: namedSubDevice,
      })
      .from(deviceCommands)
      .where(
        and(
          inArray(deviceCommands.deviceRowId, [...hostRowIds]),
          inArray(deviceCommands.command, ['pair', 'pair_scan', 'unpair']),
          inArray(namedSubDevice, [...subDeviceIds]),
        ),
      )
      .orderBy(deviceCommands.deviceRowId, namedSubDevice, desc(deviceCommands.id));
    return rows.map((r) => ({ ...r.command, subDeviceId: r.subDeviceId }));
  }

  async update(db: Executor, id: number, values: Partial<typeof deviceCommands.$inferInsert>): Promise<void> {
    await db.update(deviceCommands).set(values).where(eq(deviceCommands.id, id));
  }
}
