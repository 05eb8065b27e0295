import { BED_DEVICE_TYPES, PLACE_BATCH_MAX, PLACE_NAME_MAX, type MessageKey } from '@vigil/contract';

/** Pure rules of the facility: name lists, bed devices, paths and the resident lifecycle. */

export interface NameProblem {
  /** Position in the list, from 0. */
  index: number;
  name: string;
  msgKey: MessageKey;
}

export type NameList =
  | { ok: true; names: string[] }
  | { ok: false; key: MessageKey; params: Record<string, string | number>; problems: NameProblem[] };

/** Case-insensitive comparison key of a place name (PostgreSQL's lower() on the unique indexes). */
export const nameKey = (name: string): string => name.trim().toLowerCase();

const SEPARATORS = /[,，]/;

/**
 * Splits a comma-separated list (half- or full-width commas), trims every name and drops empty
 * items. Refuses an empty list, too many names, names that are too long and names listed twice
 * (case-insensitive; every repetition after the first is reported).
 */
export const parseNameList = (raw: string, max = PLACE_BATCH_MAX): NameList => {
  const names = raw
    .split(SEPARATORS)
    .map((n) => n.trim())
    .filter((n) => n.length > 0);
  if (!names.length) return { ok: false, key: 'facility.namesEmpty', params: {}, problems: [] };
  if (names.length > max) return { ok: false, key: 'facility.tooManyNames', params: { max }, problems: [] };
  const problems: NameProblem[] = [];
  const seen = new Set<string>();
  names.forEach((name, index) => {
    if (name.length > PLACE_NAME_MAX) problems.push({ index, name, msgKey: 'facility.nameTooLong' });
    const key = nameKey(name);
    if (seen.has(key)) problems.push({ index, name, msgKey: 'facility.duplicateInList' });
    seen.add(key);
  });
  if (problems.length) return refusal(problems);
  return { ok: true, names };
};

/** The failure for a list with problems: the first problem's message naming every name with that problem. */
export const refusal = (problems: NameProblem[]): Extract<NameList, { ok: false }> => {
  const first = problems[0];
  if (!first) throw new Error('refusal without problems');
  const names = [...new Set(problems.filter((p) => p.msgKey === first.msgKey).map((p) => p.name))].join(', ');
  return { ok: false, key: first.msgKey, params: { names, max: PLACE_NAME_MAX }, problems };
};

export const isBedDeviceType = (typeCode: number): boolean => BED_DEVICE_TYPES.includes(typeCode);

/** "Area / floor / room / bed", the way the console shows a bed. */
export const bedPath = (p: { areaName: string; floorName: string; roomName: string; name: string }): string =>
  `${p.areaName} / ${p.floorName} / ${p.roomName} / ${p.name}`;

/** Resident lifecycle (spec document 1, section 4). */
export const RESIDENT_STATES = ['registered', 'checkedIn', 'checkedOut', 'loggedOff'] as const;
export type ResidentState = (typeof RESIDENT_STATES)[number];

/** The occupancy columns of a resident, as this module writes them. */
export interface Occupancy {
  state: ResidentState;
  roomId: number | null;
  admittedAt: Date | null;
  checkedOutAt: Date | null;
  loggedOffAt: Date | null;
}

/**
 * Checked in to a bed of `roomId`. A resident moving from one bed to another keeps the admission
 * time; anyone else (registered, checked out, logged off) is admitted now.
 */
export const checkedIn = (current: Occupancy, roomId: number, now: Date, moving: boolean): Occupancy => ({
  state: 'checkedIn',
  roomId,
  admittedAt: moving && current.state === 'checkedIn' && current.admittedAt ? current.admittedAt : now,
  checkedOutAt: null,
  loggedOffAt: null,
});

/** Checked out: the bed is emptied elsewhere; data and the room address are kept. */
export const checkedOut = (current: Occupancy, now: Date): Occupancy => ({
  ...current,
  state: 'checkedOut',
  checkedOutAt: now,
});

/** Logged off: the address link is cleared, data kept; a resident still in a bed is checked out at the same time. */
export const loggedOff = (current: Occupancy, now: Date): Occupancy => ({
  state: 'loggedOff',
  roomId: null,
  admittedAt: current.admittedAt,
  checkedOutAt: current.state === 'checkedIn' ? now : current.checkedOutAt,
  loggedOffAt: now,
});

/** What a confirmation is asked for before a bed save or a check-in. */
export type ConflictKind = 'device' | 'resident' | 'occupant';

/** Comparison key of a bed's full path (area, floor, room and bed names). */
export const bedPathKey = (area: string, floor: string, room: string, bed: string): string =>
  [area, floor, room, bed].map(nameKey).join('\u0000');
