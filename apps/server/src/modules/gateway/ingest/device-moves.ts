import { inArray } from 'drizzle-orm';
import type { Executor } from '../../../db/database.ts';
import { devices } from '../../../db/schema.ts';
import type { Emit } from '../../../db/transactions.ts';
import { DEVICE_CONTEXT_CHANGED } from '../../../core/event-catalogue.ts';

/**
 * Work done in the transaction that moved devices, after the move: the alarms module closes the
 * open alarms a device left behind at a provider it no longer serves.
 */
export type DeviceMovedHook = (tx: Executor, emit: Emit, deviceIds: readonly string[]) => Promise<void>;

/** What a move names: device IDs, device rows, or both (blanks ignored). */
export interface MovedDevices {
  deviceIds?: readonly (string | null | undefined)[];
  deviceRowIds?: readonly (number | null | undefined)[];
}

/**
 * The one way a change of a device's provider, bed or resident is announced: every path that
 * moves a device, a bed's occupant or a resident calls `record` in its own transaction, after
 * its writes, so the announcement commits (outbox) or rolls back with the move.
 */
export class DeviceMoves {
  private readonly hooks: DeviceMovedHook[] = [];

  /** Adds work to every move's transaction (before start). */
  onMoved(hook: DeviceMovedHook): void {
    this.hooks.push(hook);
  }

  async record(tx: Executor, emit: Emit, moved: MovedDevices): Promise<void> {
    const ids = new Set<string>();
    for (const id of moved.deviceIds ?? []) if (id) ids.add(id.toUpperCase());
    const rowIds = [...new Set((moved.deviceRowIds ?? []).filter((id): id is number => typeof id === 'number'))];
    if (rowIds.length) {
      const rows = await tx.select({ deviceId: devices.deviceId }).from(devices).where(inArray(devices.id, rowIds));
      for (const row of rows) ids.add(row.deviceId.toUpperCase());
    }
    if (!ids.size) return;
    const deviceIds = [...ids].sort();
    // Platform-wide (no provider): it names devices only, and no console ever receives it.
    emit({ type: DEVICE_CONTEXT_CHANGED, providerId: null, payload: { deviceIds } });
    for (const hook of this.hooks) await hook(tx, emit, deviceIds);
  }
}
