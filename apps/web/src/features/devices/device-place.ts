import {
  isNumberedRoom,
  type DeviceKind,
  type EndpointResult,
  type getBunkConfiguration,
} from '@vigil/contract/browser';
import type { TFunction } from 'i18next';
import type { DeviceRow } from './device-model.ts';

/** The area → floor → room → bed tree of the bed forms (getBunkConfiguration), every provider's. */
export type PlaceTree = EndpointResult<typeof getBunkConfiguration>['areas'];

/** How a kind is placed (decision 0046): by its bed link, worn by a resident or a caregiver, or somewhere. */
export type PlaceMode = 'bedLink' | 'resident' | 'caregiver' | 'place';
export const placeModeOf = (kind: DeviceKind): PlaceMode =>
  kind === 'sleep_monitor' || kind === 'fall_radar'
    ? 'bedLink'
    : kind === 'badge'
      ? 'resident'
      : kind === 'nurse_watch'
        ? 'caregiver'
        : 'place';

export interface PlaceOption {
  value: number;
  label: string;
  children?: PlaceOption[];
}

/**
 * The place picker's options for one provider (another's would be refused): every area, floor,
 * room and bed, since a device may be placed at any level of the tree.
 */
export const placeOptions = (tree: PlaceTree, providerId: number | undefined): PlaceOption[] =>
  tree
    .filter((area) => providerId === undefined || area.providerId === providerId)
    .map((area) => ({
      value: area.id,
      label: area.name,
      children: area.floors.map((floor) => ({
        value: floor.id,
        label: floor.name,
        children: floor.rooms.map((room) => ({
          value: room.id,
          label: room.name,
          children: room.beds.map((bed) => ({ value: bed.id, label: bed.name })),
        })),
      })),
    }));

/** The place fields a picked path sets (null clears on an edit). */
export interface PlaceFields {
  roomId: number | null;
  bunkId: number | null;
  areaId: number | null;
}

/**
 * The wire's place of a picked path (area, floor, room, bed): a bed alone (its room is implied),
 * a room, or a floor or area; an empty path clears the place.
 */
export const placeOfPath = (path: readonly number[] | undefined): PlaceFields => {
  const none: PlaceFields = { roomId: null, bunkId: null, areaId: null };
  if (!path?.length) return none;
  if (path.length >= 4) return { ...none, bunkId: path[3] ?? null };
  if (path.length === 3) return { ...none, roomId: path[2] ?? null };
  return { ...none, areaId: path.at(-1) ?? null };
};

/** The picker's path of a device's place: area, then floor, room and bed as far as it goes. */
export const pathOfPlace = (
  row: Pick<DeviceRow, 'placeKind' | 'areaId' | 'floorId' | 'roomId' | 'bunkId'>,
): number[] => {
  if (row.placeKind !== 'bed' && row.placeKind !== 'room' && row.placeKind !== 'area') return [];
  const path: number[] = [];
  for (const id of [row.areaId, row.floorId, row.roomId, row.placeKind === 'bed' ? row.bunkId : null]) {
    if (id === null) break;
    path.push(id);
  }
  return path;
};

/** A room as people say it: "Room 102" for a number, the name itself otherwise ("Lounge"); any namespace's `t`. */
export const roomLabel = (t: TFunction, name: string): string =>
  isNumberedRoom(name) ? t('devices:place.room', { name }) : name;

type PlacedRow = Pick<
  DeviceRow,
  'placeKind' | 'areaName' | 'floorName' | 'roomName' | 'bunkName' | 'userName' | 'caregiverName'
>;

/**
 * Where a device is, in one line and a secondary one: "Room 102 · A" (area / floor under it),
 * "Ground Floor" (its area under it), the wearer's name (their room under it); null when not set.
 */
export const placeLines = (t: TFunction, row: PlacedRow): { main: string; sub: string | null } | null => {
  const path = (...parts: (string | null)[]) => parts.filter((p): p is string => Boolean(p)).join(' / ') || null;
  const room = row.roomName ? roomLabel(t, row.roomName) : null;
  switch (row.placeKind) {
    case 'bed':
    case 'room':
      return room
        ? { main: [room, row.bunkName].filter(Boolean).join(' · '), sub: path(row.areaName, row.floorName) }
        : null;
    case 'area':
      return row.floorName
        ? { main: row.floorName, sub: row.areaName }
        : row.areaName
          ? { main: row.areaName, sub: null }
          : null;
    case 'resident':
      return row.userName
        ? { main: row.userName, sub: room ? [room, row.bunkName].filter(Boolean).join(' · ') : null }
        : null;
    case 'caregiver':
      return row.caregiverName ? { main: row.caregiverName, sub: null } : null;
    default:
      return null;
  }
};

/** The place filter's choice for devices whose place is not set. */
export const UNPLACED = 'unplaced';
export type PlaceFilterPath = (number | typeof UNPLACED)[];

/** The place filter's options: "Place not set", then areas, floors and rooms (a list narrows to rooms). */
export const placeFilterOptions = (
  tree: PlaceTree,
  unplacedLabel: string | null,
): { value: number | string; label: string; children?: PlaceOption[] }[] => [
  ...(unplacedLabel === null ? [] : [{ value: UNPLACED, label: unplacedLabel }]),
  ...placeOptions(tree, undefined).map((area) => ({
    ...area,
    children: area.children?.map((floor) => ({
      ...floor,
      children: floor.children?.map(({ value, label }) => ({ value, label })),
    })),
  })),
];

export interface PlaceFilterChoice {
  roomId: number | undefined;
  areaId: number | undefined;
  placed: boolean | undefined;
}

/** A list's place filter of a picked path: a room, a floor or area, or (devices) none set. */
export const placeFilterOf = (path: readonly (number | string)[] | undefined): PlaceFilterChoice => {
  // Every key, so a new choice replaces the previous one when merged into a list's filters.
  const none = { roomId: undefined, areaId: undefined, placed: undefined };
  if (!path?.length) return none;
  if (path[0] === UNPLACED) return { ...none, placed: false };
  const ids = path.map(Number);
  return ids.length >= 3 ? { ...none, roomId: ids[2] } : { ...none, areaId: ids.at(-1) };
};
