import { inArray, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/database.ts';
import { beds, devices } from '../../../db/schema.ts';
import type { Emit } from '../../../db/transactions.ts';
import { DEVICE_CONTEXT_CHANGED } from '../../../core/event-catalogue.ts';

/**
 * Work done in the transaction that moved devices, after the move: the alarms module closes the
 * open alarms a device left behind at a provider it no longer serves.
 */
export type DeviceMovedHook = (tx: Executor, emit: Emit, deviceIds: readonly string[]) => Promise<void>;

/**
 * What a move names: device IDs, device rows, or beds and residents whose occupancy changed — the
 * devices of those are the bed's own (bed.device_id) and those placed at the bed or worn by the
 * resident (decision 0046), whose context names the bed's resident or the resident's bed. Blanks ignored.
 */
export interface MovedDevices {
  deviceIds?: readonly (string | null | undefined)[];
  deviceRowIds?: readonly (number | null | undefined)[];
  bedIds?: readonly (number | null | undefined)[];
  residentIds?: readonly (number | null | undefined)[];
}

const numbers = (list: readonly (number | null | undefined)[] | undefined): number[] => [
  ...new Set((list ?? []).filter((id): id is number => typeof id === 'number')),
];

/**
 * The one way a change of a device's provider, place, bed or resident is announced: every path that
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
    const rowIds = numbers(moved.deviceRowIds);
    const bedIds = numbers(moved.bedIds);
    const residentIds = numbers(moved.residentIds);
    if (bedIds.length) {
      const held = await tx.select({ deviceId: beds.deviceId }).from(beds).where(inArray(beds.id, bedIds));
      for (const bed of held) if (bed.deviceId !== null) rowIds.push(bed.deviceId);
    }
    const which: SQL[] = [];
    if (rowIds.length) which.push(inArray(devices.id, rowIds));
    if (bedIds.length) which.push(inArray(devices.placeBedId, bedIds));
    if (residentIds.length) which.push(inArray(devices.placeResidentId, residentIds));
    if (which.length) {
      const rows = await tx
        .select({ deviceId: devices.deviceId })
        .from(devices)
        .where(or(...which));
      for (const row of rows) ids.add(row.deviceId.toUpperCase());
    }
    if (!ids.size) return;
    const deviceIds = [...ids].sort();
    // Platform-wide (no provider): it names devices only, and no console ever receives it.
    emit({ type: DEVICE_CONTEXT_CHANGED, providerId: null, payload: { deviceIds } });
    for (const hook of this.hooks) await hook(tx, emit, deviceIds);
  }
}
