import type { Executor } from '../../db/database.ts';
import { fail } from '../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../core/caller.ts';
import type { DeviceRecord, DeviceRepository } from './device.repository.ts';

/**
 * A device named by its device ID that the caller may see, optionally row-locked. A missing device
 * and another provider's device get the same answer ("the device does not exist").
 */
export const visibleDevice = async (
  repo: DeviceRepository,
  caller: Caller,
  deviceId: string,
  tx: Executor,
  lock = false,
): Promise<DeviceRecord> => {
  const row = await repo.findBySerial(tx, deviceId, lock);
  if (!row || !canSeeProvider(caller.scope, row.providerId)) throw fail('device.notFound');
  return row;
};

/** Refuses when any of the devices is linked to a bed (the bed belongs to the facility; unlink it there). */
export const assertNotOnBed = async (repo: DeviceRepository, deviceRowIds: readonly number[], tx: Executor) => {
  const [bed] = await repo.bedsOf(tx, deviceRowIds);
  if (bed) throw fail('device.linkedToBed', { bed: `${bed.roomName} ${bed.bedName}` });
};
