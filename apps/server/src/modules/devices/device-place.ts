import { DEVICE_PLACE_KEYS, type DevicePlaceInput } from '@vigil/contract';
import type { Executor } from '../../db/database.ts';
import { fail } from '../../core/app-error.ts';
import { kindOf } from './device.policy.ts';
import { DevicePlaceRepository, type PlaceTarget } from './device-place.repository.ts';

/** The device row's place columns (decision 0046): at most one of them is set. */
const PLACE_COLUMNS = ['placeRoomId', 'placeBedId', 'placeAreaId', 'placeResidentId', 'placeCaregiverId'] as const;

/** A device's place as the device row stores it. */
export type StoredPlace = Record<(typeof PLACE_COLUMNS)[number], number | null>;

export const NO_PLACE: StoredPlace = {
  placeRoomId: null,
  placeBedId: null,
  placeAreaId: null,
  placeResidentId: null,
  placeCaregiverId: null,
};

/** Whether a call names a place at all (an edit without any place field keeps the place). */
export const namesPlace = (input: DevicePlaceInput): boolean =>
  DEVICE_PLACE_KEYS.some((key) => input[key] !== undefined);

const repo = new DevicePlaceRepository();

const own = (target: PlaceTarget | undefined, providerId: number): PlaceTarget => {
  if (!target) throw fail('device.placeNotFound');
  if (target.providerId !== providerId) throw fail('device.placeOtherProvider');
  return target;
};

/**
 * The place a call asks for, checked for a device of `providerId` and type `typeCode`: one place
 * only (a room with a bed of it is the bed), of the device's provider, of a kind that fits the
 * device — sleep monitors and fall radars are placed by their bed link, never here; badges are
 * worn by a resident and nurse watches by a caregiver, other devices are in a room, at a bed or
 * in an area. No field: no place.
 */
export const checkedPlace = async (
  tx: Executor,
  device: { providerId: number; typeCode: number },
  input: DevicePlaceInput,
): Promise<StoredPlace> => {
  const { roomId, bunkId, areaId, userId, caregiverId } = input;
  const anchors = [bunkId ?? roomId, areaId, userId, caregiverId].filter((id) => id !== null && id !== undefined);
  if (!anchors.length) return NO_PLACE;
  if (anchors.length > 1) throw fail('device.placeOneOnly');
  const kind = kindOf(device.typeCode);
  if (kind === 'sleep_monitor' || kind === 'fall_radar') throw fail('device.placedByBed');
  const worn = kind === 'badge' || kind === 'nurse_watch';
  const { providerId } = device;
  if (userId || caregiverId) {
    if ((userId && kind !== 'badge') || (caregiverId && kind !== 'nurse_watch')) throw fail('device.placeNotWorn');
    if (userId) {
      own(await repo.resident(tx, userId), providerId);
      return { ...NO_PLACE, placeResidentId: userId };
    }
    own(await repo.caregiver(tx, caregiverId as number), providerId);
    return { ...NO_PLACE, placeCaregiverId: caregiverId as number };
  }
  if (worn) throw fail('device.placeWorn');
  if (bunkId) {
    const bed = own(await repo.bed(tx, bunkId), providerId);
    if (roomId) {
      own(await repo.room(tx, roomId), providerId);
      if (bed.roomId !== roomId) throw fail('device.placeBedNotInRoom');
    }
    return { ...NO_PLACE, placeBedId: bunkId };
  }
  if (roomId) {
    own(await repo.room(tx, roomId), providerId);
    return { ...NO_PLACE, placeRoomId: roomId };
  }
  own(await repo.area(tx, areaId as number), providerId);
  return { ...NO_PLACE, placeAreaId: areaId as number };
};

export const samePlace = (a: StoredPlace, b: StoredPlace): boolean => PLACE_COLUMNS.every((c) => a[c] === b[c]);

/** Only the place columns of a row (a device row carries many more). */
export const storedPlaceOf = (row: StoredPlace): StoredPlace =>
  Object.fromEntries(PLACE_COLUMNS.map((c) => [c, row[c]])) as StoredPlace;

/** The separator of a place's names in a spreadsheet cell ("Main Building / Ground Floor / 102 / A"). */
export const PLACE_PATH_SEPARATOR = ' / ';

/**
 * A spreadsheet's place columns as a call's place fields: the path of names of the device's
 * provider, or the name of who wears it (a resident for a badge, a caregiver for a nurse watch).
 * A name not found is device.placeNotFound; a person's name shared by two is device.placeAmbiguous.
 */
export const placeOfNames = async (
  tx: Executor,
  device: { providerId: number; typeCode: number },
  names: { place?: string | undefined; wornBy?: string | undefined },
): Promise<DevicePlaceInput> => {
  const out: DevicePlaceInput = {};
  if (names.place) {
    const path = names.place.split('/').map((n) => n.trim());
    const found = path.every(Boolean) ? await repo.byPath(tx, device.providerId, path) : undefined;
    if (!found) throw fail('device.placeNotFound');
    Object.assign(out, found);
  }
  if (names.wornBy) {
    const who = kindOf(device.typeCode) === 'nurse_watch' ? 'caregiver' : 'resident';
    const ids = await repo.namedPeople(tx, device.providerId, names.wornBy, who);
    if (ids.length > 1) throw fail('device.placeAmbiguous', { name: names.wornBy });
    if (!ids[0]) throw fail('device.placeNotFound');
    if (who === 'caregiver') out.caregiverId = ids[0];
    else out.userId = ids[0];
  }
  return out;
};
