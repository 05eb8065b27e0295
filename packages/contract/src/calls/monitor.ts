import { z } from 'zod';
import { defineCall } from '../call.ts';
import { ALARM_HANDLERS, AlarmRecordSchema } from './alarms.ts';
import { intId, nothing, pageOf, pageQuery } from './common.ts';
import { DeviceStateSchema } from './devices.ts';
import type { Role } from '../roles.ts';
import { LIVE_STATES, MONITOR_LIMITS } from '../monitor-constants.ts';

const auth = ALARM_HANDLERS as readonly [Role, ...Role[]];

/** One bed's latest vitals, as `/vitalsNotify` carries them and the lists start from. */
export const LiveVitalsSchema = z.object({
  userId: z.number().int().describe('Resident id'),
  deviceId: z.string().describe("The bed's sleep monitor"),
  online: z.boolean().describe('The sleep monitor\u2019s online state, as every list shows it (decision 0034)'),
  inBed: z.boolean().nullable().describe('null: not known (no sample yet, or offline)'),
  heartRate: z.number().int().nullable().describe('Beats per minute; null or 0: not measured'),
  breathRate: z.number().int().nullable().describe('Breaths per minute; null or 0: not measured'),
  move: z.number().int().nullable().describe('Body movement of the latest sample (0 still)'),
  ts: z.number().int().nullable().describe('When the latest sample was received, Unix seconds'),
  upgrading: z
    .boolean()
    .describe('A firmware upgrade is under way (docs/firmware.md): the monitor may restart, monitoring is paused'),
});
export type LiveVitals = z.infer<typeof LiveVitalsSchema>;

/** A resident with where they lie and how they are now: the rows of the monitoring screens. */
export const LiveResidentSchema = z.object({
  userId: z.number().int(),
  userName: z.string(),
  gender: z.string().nullable().describe('"0" male, "1" female'),
  age: z.number().int().nullable(),
  bedId: z.number().int().nullable(),
  bunk: z.string().nullable().describe('Bed name'),
  room: z.string().nullable(),
  floorArea: z.string().nullable().describe('Area and floor, "Area / Floor"'),
  communityName: z.string().nullable(),
  away: z.boolean().describe('On a temporary absence now'),
  focus: z.boolean().describe("In the caller's focus residents"),
  vitals: LiveVitalsSchema.nullable().describe('null: no sleep monitor on the bed'),
  pendingAlarms: z.number().int().describe('Open alarms of the resident'),
  alertLevel: z
    .union([z.literal(1), z.literal(2)])
    .nullable()
    .describe('The most urgent open alarm: 1 red, 2 orange; null: none'),
});
export type LiveResident = z.infer<typeof LiveResidentSchema>;

/** A device of the resident's bed, as the resident page lists it. */
export const LiveDeviceSchema = z.object({
  deviceId: z.string(),
  deviceType: z.number().int().describe('Device-type catalogue code'),
  online: DeviceStateSchema.shape.online,
  battery: z.number().int().nullable().describe('Percent, when the device reports it'),
  lastSeen: z.number().int().nullable().describe('Unix seconds'),
  ...DeviceStateSchema.pick({
    installed: true,
    installState: true,
    paired: true,
    pairState: true,
    sensorInitialised: true,
    sensorState: true,
    signal: true,
    signalUnit: true,
  }).shape,
});
export type LiveDevice = z.infer<typeof LiveDeviceSchema>;

/** The limits outside which a bed's heart or breathing rate is abnormal (its alarm rules). */
export const VitalLimitsSchema = z.object({
  heartMin: z.number().int().describe('Beats a minute below which the heart rate is abnormal'),
  heartMax: z.number().int().describe('Beats a minute above which the heart rate is abnormal'),
  breathMin: z.number().int().describe('Breaths a minute below which breathing is abnormal'),
  breathMax: z.number().int().describe('Breaths a minute above which breathing is abnormal'),
});
export type VitalLimits = z.infer<typeof VitalLimitsSchema>;

/** One minute of the resident's vitals (averages of measured samples). */
export const VitalsMinuteSchema = z.object({
  ts: z.number().int().describe("The minute's start, Unix seconds"),
  heartRate: z.number().nullable(),
  breathRate: z.number().nullable(),
  inBedSeconds: z.number().int(),
});
export type VitalsMinute = z.infer<typeof VitalsMinuteSchema>;

export const monitorCalls = {
  monitorUserList: defineCall({
    method: 'POST',
    path: '/monitor/userList',
    auth,
    input: 'json',
    request: z.object({
      ...pageQuery,
      pageSize: z.coerce.number<number>().int().min(1).max(MONITOR_LIMITS.maxPageSize).default(50),
      keyWord: z.string().trim().max(64).optional().describe('Part of the resident, bed or room name'),
      areaId: intId.optional().describe('Area/building or floor/unit'),
      communityId: intId.optional(),
      state: z.enum(LIVE_STATES).optional(),
    }),
    result: pageOf(LiveResidentSchema),
    summary:
      'Checked-in residents of the chosen provider (or the scope) with their live state, by area, room and bed; ' +
      '/realMonitor/residentList',
    tag: 'monitor',
  }),
  focusUsers: defineCall({
    method: 'POST',
    path: '/monitor/focusUsers',
    auth,
    input: 'json',
    request: z.object({}),
    result: z.object({ rows: z.array(LiveResidentSchema) }),
    summary: "The caller's focus residents within the chosen provider (or the scope), in the order they were added",
    tag: 'monitor',
  }),
  addFocusUser: defineCall({
    method: 'POST',
    path: '/monitor/addFocusUser',
    auth,
    input: 'json',
    request: z.object({ userId: intId }),
    result: nothing,
    summary:
      `Adds a resident to the caller's focus residents (at most ${MONITOR_LIMITS.maxFocus}, else monitor.focusLimit); ` +
      'adding one twice is no error',
    tag: 'monitor',
  }),
  deleteFocusUser: defineCall({
    method: 'POST',
    path: '/monitor/deleteFocusUser',
    auth,
    input: 'json',
    request: z.object({ userId: intId }),
    result: nothing,
    summary: "Removes a resident from the caller's focus residents; removing one not there is no error",
    tag: 'monitor',
  }),
  residentLive: defineCall({
    method: 'GET',
    path: '/monitor/resident',
    auth,
    input: 'query',
    request: z.object({ userId: intId }),
    result: z.object({
      resident: LiveResidentSchema,
      devices: z.array(LiveDeviceSchema).describe("The devices of the resident's bed and room"),
      history: z.array(VitalsMinuteSchema).describe('The last hour, minute by minute, oldest first'),
      alarmsToday: z.array(AlarmRecordSchema).describe("Today's alarms of the resident, newest first"),
      limits: VitalLimitsSchema.describe(
        "The bed's heart and breathing rate alarm limits, as the alarm engine applies them (the resident's own or the defaults)",
      ),
    }),
    summary:
      "The resident home page (/realMonitor/resident): live state, devices, the last hour's vitals and today's alarms. Documented extra",
    tag: 'monitor',
  }),
  subscribeVitals: defineCall({
    method: 'POST',
    path: '/websocket/subscribe/',
    auth,
    input: 'json',
    request: z.object({
      userIds: z
        .array(intId)
        .max(MONITOR_LIMITS.maxSubscribed)
        .describe('Residents whose vitals this session follows; replaces the previous list; [] stops'),
    }),
    result: z.object({ subscribed: z.number().int().describe('Residents followed (those the caller may see)') }),
    summary:
      "Follows residents' vitals on every live socket of this session: /vitalsNotify at most once a second per bed. " +
      'A socket can also send the /websocket/subscribe/ frame for itself alone',
    tag: 'monitor',
  }),
};
