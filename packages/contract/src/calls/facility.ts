import { z } from 'zod';
import { CONFIRM_MOVE_KEY, MATTRESSES, PLACE_BATCH_MAX, PLACE_NAME_MAX } from '../domain.ts';
import { defineCall, type CallDef } from '../call.ts';
import { flag, intId, nothing, pageOf, pageQuery, remark } from './common.ts';
import { DeviceStateSchema } from './devices.ts';

/**
 * Calls of the facility domain (issue 4): the address hierarchy area/building → floor/unit →
 * room → bed ("bunk" on the wire), and who or what occupies a bed (check-in, check-out, device
 * links). Wire names follow the spec: a resident is a "user" (`userId`, `userName`), a bed a "bunk".
 */

/** Provider accounts and platform administrators change the facility; government viewers never do. */
const EDITORS = ['SUPER_ROLE', 'SENIOR_ROLE', 'ONE_ROLE', 'TWO_ROLE', 'SUB_ROLE'] as const;
/** Staff who read the facility (bed pickers, monitoring): editors, business staff, social workers, caregivers. */
const READERS = [...EDITORS, 'BUSINESS_ROLE', 'SOCIAL_WORKER', 'CARER'] as const;
/** Platform roles: the all-provider bed list. */
const PLATFORM = ['SUPER_ROLE', 'SENIOR_ROLE', 'BUSINESS_ROLE'] as const;

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const NO_CONTROL = /^[^\u0000-\u001f\u007f]+$/;
/** One place name: 1–32 characters, no comma (full or half width), no control character. */
const placeName = z
  .string()
  .trim()
  .min(1)
  .max(PLACE_NAME_MAX)
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  .regex(/^[^,，\u0000-\u001f\u007f]+$/, { error: 'facility.nameChars' });
/** Several names separated by commas (half or full width), each trimmed; empty items are ignored. */
const nameList = z
  .string()
  .trim()
  .min(1)
  .max(4000)
  .regex(NO_CONTROL, { error: 'facility.nameChars' })
  .describe(`Comma-separated names (, or ，), at most ${PLACE_BATCH_MAX}, each 1–${PLACE_NAME_MAX} characters`);
const keyWord = z.string().trim().max(64).optional().describe('Matches names along the path, resident and device');
const sort = z.number().int().min(0).max(9999);
const mattress = z.enum(MATTRESSES);
/** A device as users know it: its plaintext device ID. */
const deviceCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{1,64}$/, { error: 'validation.format' });
const providerFilter = intId
  .optional()
  .describe('Only this provider (must be visible); default: the chosen provider, else the whole scope');

const counts = {
  bedCount: z.number().int(),
  occupiedCount: z.number().int().describe('Beds with a resident'),
  deviceCount: z.number().int().describe('Beds with a device'),
};

export const AreaSchema = z.object({
  id: z.number().int(),
  providerId: z.number().int(),
  providerName: z.string(),
  parentId: z.number().int().nullable().describe('The area of a floor; null for an area/building'),
  parentName: z.string().nullable(),
  level: z.enum(['area', 'floor']),
  name: z.string(),
  sort: z.number().int(),
  remark: z.string().nullable(),
  floorCount: z.number().int().describe('Floors of an area (0 for a floor)'),
  roomCount: z.number().int(),
  ...counts,
  createTime: z.string(),
});
export type Area = z.infer<typeof AreaSchema>;

export const RoomSchema = z.object({
  id: z.number().int(),
  providerId: z.number().int(),
  providerName: z.string(),
  areaId: z.number().int(),
  areaName: z.string(),
  floorId: z.number().int(),
  floorName: z.string(),
  name: z.string(),
  remark: z.string().nullable(),
  ...counts,
  createTime: z.string(),
});
export type Room = z.infer<typeof RoomSchema>;

export const BunkSchema = z.object({
  id: z.number().int(),
  providerId: z.number().int(),
  providerName: z.string(),
  areaId: z.number().int(),
  areaName: z.string(),
  floorId: z.number().int(),
  floorName: z.string(),
  roomId: z.number().int(),
  roomName: z.string(),
  name: z.string().describe('Bed name'),
  mattress: mattress,
  deviceId: z.string().nullable().describe('Device ID of the linked device'),
  deviceType: z.number().int().nullable(),
  deviceOnline: z.boolean().nullable().describe('deviceState.online; null: no device'),
  deviceState: DeviceStateSchema.nullable().describe('The linked device\u2019s state, as the device list shows it'),
  userId: z.number().int().nullable().describe('The resident in the bed'),
  userName: z.string().nullable().describe("The resident's name"),
  remark: z.string().nullable(),
  createTime: z.string(),
});
export type Bunk = z.infer<typeof BunkSchema>;

/** One reason a bed save or check-in needs confirmation. */
export const BunkConflictSchema = z.object({
  kind: z
    .enum(['device', 'resident', 'occupant'])
    .describe(
      'device: the device is linked to another bed (moves here); resident: the resident is in another bed (moves here); ' +
        'occupant: this bed holds another resident (checked out on confirmation)',
    ),
  bunkId: z.number().int().describe('The bed the device or resident is linked to now'),
  bunkPath: z.string().describe('Area / floor / room / bed of that bed'),
  deviceId: z.string().nullable(),
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
});
export type BunkConflict = z.infer<typeof BunkConflictSchema>;
/**
 * `data` of the confirm-move failure (inner status 300, msgKey `bed.confirmMove`). Nothing was
 * changed; sending the same request with `confirm: true` performs the move in one transaction.
 */
export const ConfirmMoveSchema = z.object({
  confirmRequired: z.literal(true),
  conflicts: z.array(BunkConflictSchema),
});
export type ConfirmMove = z.infer<typeof ConfirmMoveSchema>;

/** `data` of a refused batch add: every bad name with its message key. */
export const NameProblemSchema = z.object({
  index: z.number().int().describe('Position in the list, from 0'),
  name: z.string(),
  msgKey: z.string(),
});
export type NameProblem = z.infer<typeof NameProblemSchema>;

const counted = { ...counts, freeCount: z.number().int() };
const RoomNodeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  ...counted,
  residentCount: z
    .number()
    .int()
    .describe(
      'Residents whose address is this room (checked in, or checked out and not logged off); such a room is not deleted',
    ),
});
const FloorNodeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  sort: z.number().int(),
  ...counted,
  rooms: z.array(RoomNodeSchema),
});
export const AreaNodeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  sort: z.number().int(),
  providerId: z.number().int(),
  providerName: z.string(),
  ...counted,
  floors: z.array(FloorNodeSchema),
});

const BedOptionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  mattress: mattress,
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
  deviceId: z.string().nullable(),
});
const configurationSchema = z.object({
  mattresses: z.array(mattress),
  deviceTypes: z.array(z.number().int()).describe('Device types a bed accepts'),
  areas: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      providerId: z.number().int(),
      floors: z.array(
        z.object({
          id: z.number().int(),
          name: z.string(),
          rooms: z.array(z.object({ id: z.number().int(), name: z.string(), beds: z.array(BedOptionSchema) })),
        }),
      ),
    }),
  ),
});

const bedTotals = {
  total: z.number().int(),
  occupied: z.number().int(),
  free: z.number().int(),
  withDevice: z.number().int(),
};
const summarySchema = z.object({
  ...bedTotals,
  withoutDevice: z.number().int(),
  areas: z.array(
    z.object({
      areaId: z.number().int(),
      areaName: z.string(),
      providerId: z.number().int(),
      providerName: z.string(),
      ...bedTotals,
    }),
  ),
});

const created = z.object({ ids: z.array(z.number().int()).describe('New ids, in list order') });

// --- Areas and floors ------------------------------------------------------------------------

export const getAreaList = defineCall({
  method: 'POST',
  path: '/area/getAreaList',
  auth: READERS,
  input: 'json',
  request: z.object({
    ...pageQuery,
    keyWord: z.string().trim().max(64).optional(),
    areaId: intId.optional().describe('List the floors of this area; omitted: the areas/buildings'),
    providerId: providerFilter,
  }),
  result: pageOf(AreaSchema),
  summary: 'Areas/buildings (or the floors of one area) with their counts, by sort order then name',
  tag: 'area',
});

export const insertArea = defineCall({
  method: 'POST',
  path: '/area/insertArea',
  creates: true,
  auth: EDITORS,
  input: 'json',
  request: z.object({
    name: placeName,
    areaId: intId.optional().describe('Create a floor/unit in this area; omitted: an area/building'),
    providerId: intId
      .optional()
      .describe('Provider of a new area (platform and class 1 callers); default: the chosen provider'),
    sort: sort.optional(),
    remark: remark.optional(),
  }),
  result: z.object({ id: z.number().int() }),
  summary: 'Create an area/building or a floor/unit; names are unique per provider (areas) or per area (floors)',
  tag: 'area',
});

export const updateArea = defineCall({
  method: 'POST',
  path: '/area/updateArea',
  auth: EDITORS,
  input: 'json',
  request: z.object({
    id: intId,
    name: placeName.optional(),
    sort: sort.optional(),
    remark: remark.nullable().optional(),
  }),
  result: nothing,
  summary: 'Rename an area or floor, or change its sort order or remark',
  tag: 'area',
});

export const getAreaWithRoomList = defineCall({
  method: 'POST',
  path: '/area/getAreaWithRoomList',
  auth: READERS,
  input: 'json',
  request: z.object({ providerId: providerFilter }),
  result: z.array(AreaNodeSchema),
  summary: 'The facility tree (areas → floors → rooms) with bed counts on every node, for the console',
  tag: 'area',
});

export const getRoomListByAreaId = defineCall({
  method: 'GET',
  path: '/area/getRoomListByAreaId',
  auth: READERS,
  input: 'query',
  request: z.object({ areaId: intId.describe('An area (rooms of all its floors) or a floor') }),
  result: z.array(RoomSchema),
  summary: 'Rooms of an area or a floor',
  tag: 'area',
});

export const deleteAreaById = defineCall({
  method: 'GET',
  path: '/area/deleteAreaById',
  auth: EDITORS,
  input: 'query',
  request: z.object({ id: intId }),
  result: nothing,
  summary: 'Delete an area without floors, or a floor without rooms',
  tag: 'area',
});

// --- Rooms -----------------------------------------------------------------------------------

export const getRoomList = defineCall({
  method: 'POST',
  path: '/room/getRoomList',
  auth: READERS,
  input: 'json',
  request: z.object({
    ...pageQuery,
    keyWord,
    areaId: intId.optional().describe('Rooms of this area or floor'),
    providerId: providerFilter,
  }),
  result: pageOf(RoomSchema),
  summary: 'Rooms with their path and counts, by area, floor and room name',
  tag: 'room',
});

export const insertRoom = defineCall({
  method: 'POST',
  path: '/room/insert',
  creates: true,
  auth: EDITORS,
  input: 'json',
  request: z.object({
    floorId: intId.describe('The floor/unit the rooms belong to'),
    name: nameList,
    remark: remark.optional(),
  }),
  result: created,
  summary:
    'Add one room or several (comma-separated names); all or nothing: a name listed twice or already on the floor ' +
    'refuses the whole list with every bad name in data.problems',
  tag: 'room',
});

export const updateRoom = defineCall({
  method: 'POST',
  path: '/room/updateRoom',
  auth: EDITORS,
  input: 'json',
  request: z.object({
    id: intId,
    name: placeName.optional(),
    floorId: intId.optional().describe('Move the room to another floor of the same provider'),
    remark: remark.nullable().optional(),
  }),
  result: nothing,
  summary: 'Rename a room, move it to another floor or change its remark',
  tag: 'room',
});

export const deleteRoomById = defineCall({
  method: 'GET',
  path: '/room/deleteRoomById',
  auth: EDITORS,
  input: 'query',
  request: z.object({ id: intId }),
  result: nothing,
  summary: 'Delete a room without beds that is no resident’s address',
  tag: 'room',
});

// --- Beds ------------------------------------------------------------------------------------

export const getBunkListByRoomId = defineCall({
  method: 'GET',
  path: '/bunk/getBunkListByRoomId',
  auth: READERS,
  input: 'query',
  request: z.object({ roomId: intId }),
  result: z.array(BunkSchema),
  summary: 'Beds of a room with their device and resident',
  tag: 'bunk',
});

export const batchAddBunk = defineCall({
  method: 'POST',
  path: '/bunk/batchAddBunk',
  creates: true,
  auth: EDITORS,
  input: 'json',
  request: z.object({
    roomId: intId,
    name: nameList,
    mattress: mattress.default('sponge'),
    remark: remark.optional(),
  }),
  result: created,
  summary:
    'Add one bed or several (comma-separated names) to a room; all or nothing: a name listed twice or already in ' +
    'the room refuses the whole list with every bad name in data.problems',
  tag: 'bunk',
});

const bedListFilters = {
  keyWord,
  areaId: intId.optional().describe('Beds of this area or floor'),
  roomId: intId.optional(),
  free: flag.optional().describe('true: only beds without a resident; false: only occupied beds'),
};

export const getAdminBunkList = defineCall({
  method: 'GET',
  path: '/system/getAdminBunkList',
  auth: PLATFORM,
  input: 'query',
  request: z.object({ ...pageQuery, keyWord, providerId: providerFilter }),
  result: pageOf(BunkSchema),
  summary: 'Every bed of every provider in the platform caller’s scope, by provider and path',
  tag: 'bunk',
});

export const getUserBunkList = defineCall({
  method: 'GET',
  path: '/userBunk/getUserBunkList',
  auth: READERS,
  input: 'query',
  request: z.object({ ...pageQuery, ...bedListFilters }),
  result: pageOf(BunkSchema),
  summary: 'Beds with their residents (free: true lists the beds a resident can check in to)',
  tag: 'bunk',
});

export const getBunkConfiguration = defineCall({
  method: 'GET',
  path: '/userBunk/getConfiguration',
  auth: READERS,
  input: 'query',
  request: z.object({
    providerId: providerFilter,
    free: flag.optional().describe('true: only beds without a resident'),
  }),
  result: configurationSchema,
  summary: 'Options of the bed forms: mattress materials, bed device types and the area → floor → room → bed picker',
  tag: 'bunk',
});

export const bunkSummary = defineCall({
  method: 'GET',
  path: '/bunkManagement/bunkSummary',
  auth: READERS,
  input: 'query',
  request: z.object({ providerId: providerFilter }),
  result: summarySchema,
  summary: 'Bed counts (total, occupied, free, with and without a device), overall and by area',
  tag: 'bunk',
});

export const deleteBunk = defineCall({
  method: 'GET',
  path: '/bunkManagement/deleteBunk',
  auth: EDITORS,
  input: 'query',
  request: z.object({ id: intId }),
  result: nothing,
  summary: 'Delete a bed without a resident or a device',
  tag: 'bunk',
});

export const getBunkRoomList = defineCall({
  method: 'GET',
  path: '/bunkManagement/getRoomList',
  auth: READERS,
  input: 'query',
  request: z.object({ keyWord, areaId: intId.optional().describe('Rooms of this area or floor') }),
  result: z.array(RoomSchema),
  summary: 'Every room in scope with its path and counts (the bed screen’s room filter)',
  tag: 'bunk',
});

export const getBunksByRoomName = defineCall({
  method: 'GET',
  path: '/bunkManagement/getBunksByRoomName',
  auth: READERS,
  input: 'query',
  request: z.object({
    roomName: placeName.describe('Exact room name, case-insensitive'),
    areaId: intId.optional().describe('Only rooms of this area or floor'),
  }),
  result: z.array(BunkSchema),
  summary: 'Beds of every room with this name (room names repeat across floors)',
  tag: 'bunk',
});

export const bunkList = defineCall({
  method: 'POST',
  path: '/bunkManagement/bunkList',
  auth: READERS,
  input: 'json',
  request: z.object({
    ...pageQuery,
    ...bedListFilters,
    hasDevice: flag.optional().describe('true: only beds with a device; false: only beds without'),
    providerId: providerFilter,
  }),
  result: pageOf(BunkSchema),
  summary: 'Beds with path, device and resident, by area, floor, room and bed name',
  tag: 'bunk',
});

const confirmNote =
  ' When the device or resident is linked to another bed, or this bed holds another resident, and confirm is not ' +
  `true, nothing changes and the answer is inner status 300 with msgKey ${CONFIRM_MOVE_KEY} and data ` +
  '{confirmRequired: true, conflicts}; sent again with confirm: true the move happens in one transaction';

export const updateBunk = defineCall({
  method: 'POST',
  path: '/bunkManagement/updateBunk',
  auth: EDITORS,
  input: 'json',
  request: z.object({
    id: intId,
    name: placeName.optional(),
    mattress: mattress.optional(),
    remark: remark.nullable().optional(),
    deviceId: deviceCode
      .nullable()
      .optional()
      .describe('Device ID to link (a sleep monitor or fall radar of the same provider); null unlinks; omitted keeps'),
    userId: intId
      .nullable()
      .optional()
      .describe('Resident to check in to this bed; null checks the current resident out; omitted keeps'),
    confirm: flag.default(false).describe('Move a device or resident linked elsewhere'),
  }),
  result: BunkSchema,
  summary: `Save a bed: name, mattress, remark, device and resident.${confirmNote}`,
  tag: 'bunk',
});

export const bunkCheckOut = defineCall({
  method: 'POST',
  path: '/bunkManagement/checkOut',
  auth: EDITORS,
  input: 'json',
  request: z.object({ userId: intId.describe('The resident to check out') }),
  result: nothing,
  summary: 'Check a resident out: the bed is emptied, the resident keeps their data and room address (checkedOut)',
  tag: 'bunk',
});

export const userCheckIn = defineCall({
  method: 'POST',
  path: '/user/getUserCheckIn',
  auth: EDITORS,
  input: 'json',
  request: z.object({
    userId: intId.describe('The resident'),
    bunkId: intId.describe('The bed'),
    confirm: flag.default(false).describe('Move the resident from another bed, or check out the current occupant'),
  }),
  result: BunkSchema,
  summary: `Check a resident in to a bed (registered, checked-out and logged-off residents).${confirmNote}`,
  tag: 'bunk',
});

export const facilityCalls = {
  getAreaList,
  insertArea,
  updateArea,
  getAreaWithRoomList,
  getRoomListByAreaId,
  deleteAreaById,
  getRoomList,
  insertRoom,
  updateRoom,
  deleteRoomById,
  getBunkListByRoomId,
  batchAddBunk,
  getAdminBunkList,
  getUserBunkList,
  getBunkConfiguration,
  bunkSummary,
  deleteBunk,
  getBunkRoomList,
  getBunksByRoomName,
  bunkList,
  updateBunk,
  bunkCheckOut,
  userCheckIn,
} as const satisfies Record<string, CallDef>;
