import {
  CONSTANTS,
  RESIDENT_LIMITS as CONTRACT_LIMITS,
  type EndpointRequest,
  type EndpointResult,
  type getBunkConfiguration,
  type getResident,
  type insertResident,
  type residentList,
  type residentSummary,
  type startAbsence,
  type userCheckIn,
} from '@vigil/contract/browser';

/** Shapes of the residents calls, derived from the contract rather than declared again. */
export type ResidentRow = EndpointResult<typeof residentList>['rows'][number];
export type ResidentListQuery = EndpointRequest<typeof residentList>;
export type ResidentSummary = EndpointResult<typeof residentSummary>;
export type ResidentDetail = EndpointResult<typeof getResident>;
export type NewResidentRequest = EndpointRequest<typeof insertResident>;
export type ResidentState = ResidentRow['state'];
export type Gender = ResidentRow['gender'];
export type MedicalCondition = ResidentRow['medicalHistory'][number];
export type ContactRelation = ResidentDetail['contacts'][number]['relation'];
export type BedConfiguration = EndpointResult<typeof getBunkConfiguration>;
export type CheckInRequest = EndpointRequest<typeof userCheckIn>;
export type AbsenceRequest = EndpointRequest<typeof startAbsence>;

export { CONFIRM_MOVE_KEY, CONTACT_RELATIONS, MEDICAL_HISTORY, RESIDENT_STATES } from '@vigil/contract/browser';
export const GENDERS = [0, 1] as const;

type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** Compile-time only: the genders above are exactly the contract's. */
export type ContractChecks = [Assert<Exact<(typeof GENDERS)[number], Gender>>];

/** The contract's resident limits, with the few the form adds (phone and remark lengths of other schemas). */
export const RESIDENT_LIMITS = {
  ...CONTRACT_LIMITS,
  bodySizeMax: Math.min(CONTRACT_LIMITS.heightMax, CONTRACT_LIMITS.weightMax),
  phoneMaxLength: 32,
  remarkMaxLength: CONSTANTS.remarkMaxLength,
} as const;

/** Where the two screens live (CONSOLE_ROUTES PeopleManage and addAndEditUser). */
export const LIST_PATH = '/people-manage/userManage';
export const EDIT_PATH = '/people-manage/addAndEdit/addAndEditUser';

/** What the list hands the edit page so that saving returns to the same filters and page. */
export interface ReturnState {
  listSearch: string;
}

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- free text keeps tabs and line breaks
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** The server refuses control characters in names (one line) and in free text (line breaks allowed). */
export const hasControlChars = (value: string, allowBreaks = false): boolean =>
  (allowBreaks ? CONTROL_BUT_LINES : CONTROL).test(value);

/** Tag colour of each lifecycle state. */
export const STATE_COLOURS: Record<ResidentState, string> = {
  registered: 'blue',
  checkedIn: 'green',
  checkedOut: 'default',
  loggedOff: 'default',
};

/** Where a resident lives or lived: area / floor / room / bed, as far as known. */
export const placeOf = (row: Pick<ResidentRow, 'areaName' | 'floorName' | 'roomName' | 'bedName'>): string =>
  [row.areaName, row.floorName, row.roomName, row.bedName].filter(Boolean).join(' / ');
