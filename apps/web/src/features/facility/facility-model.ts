import {
  CONSTANTS,
  type bunkList,
  type EndpointRequest,
  type EndpointResult,
  type FailureKey,
  type getAreaWithRoomList,
  type queryCommunityList,
  type saveAlarmConfig,
  type saveUserSleepConfigs,
} from '@vigil/contract/browser';

/**
 * The facility screen's shapes, derived from the contract's endpoints, and the contract's rule
 * values it checks in its forms.
 */

export type AreaNode = EndpointResult<typeof getAreaWithRoomList>[number];
export type FloorNode = AreaNode['floors'][number];
export type RoomNode = FloorNode['rooms'][number];
export type Bed = EndpointResult<typeof bunkList>['rows'][number];
export type BedFilters = Omit<EndpointRequest<typeof bunkList>, 'pageNum' | 'pageSize'>;
export type Mattress = Bed['mattress'];

export type Community = EndpointResult<typeof queryCommunityList>['rows'][number];
type SleepInput = EndpointRequest<typeof saveUserSleepConfigs>;
export type LeaveBedMode = SleepInput['leaveBedMode'];
export type Sensitivity = SleepInput['sensitivity'];
type AlarmInput = EndpointRequest<typeof saveAlarmConfig>;
export type CommunityAlarmType = NonNullable<AlarmInput['level1']>[number];
export type NotifyMode = NonNullable<AlarmInput['notify']>[number];

export {
  ALARM_NOTIFY_MODES as NOTIFY_MODES,
  COMMUNITY_ALARM_TYPES,
  CONFIRM_MOVE_KEY,
  LEAVE_BED_MODES,
  MATTRESSES,
  PLACE_BATCH_MAX,
  PLACE_NAME_MAX,
  SLEEP_SENSITIVITIES as SENSITIVITIES,
} from '@vigil/contract/browser';
/** The contract's remark limit (CONSTANTS.remarkMaxLength). */
export const REMARK_MAX = CONSTANTS.remarkMaxLength;
export const SORT_MAX = 9999;
/** A community's receivers: at most this many caregivers (saveAlarmConfig). */
export const RECEIVERS_MAX = 100;

/** A node of the facility tree the user picked; the bed list narrows to it. */
export type PlaceSelection =
  | { level: 'area'; area: AreaNode }
  | { level: 'floor'; area: AreaNode; floor: FloorNode }
  | { level: 'room'; area: AreaNode; floor: FloorNode; room: RoomNode };

/** The bed list's location filter for a selection: areaId covers an area or a floor. */
export const locationFilter = (selection: PlaceSelection | null): Pick<BedFilters, 'areaId' | 'roomId'> => {
  if (!selection) return {};
  if (selection.level === 'room') return { roomId: selection.room.id };
  return { areaId: selection.level === 'floor' ? selection.floor.id : selection.area.id };
};

/** "Area / floor / room" of a selection, the way the console writes paths. */
export const selectionPath = (selection: PlaceSelection): string => {
  const parts = [selection.area.name];
  if (selection.level !== 'area') parts.push(selection.floor.name);
  if (selection.level === 'room') parts.push(selection.room.name);
  return parts.join(' / ');
};

/** Message keys of a refused list of room or bed names; each carries every bad name (failures.ts). */
export const NAME_LIST_REFUSALS = [
  'facility.nameTooLong',
  'facility.duplicateInList',
  'room.exists',
  'bed.exists',
] as const satisfies readonly FailureKey[];
