import { z } from 'zod';
import { DEAL_RESULTS, RELIEVE_REASONS } from '../alarms.ts';
import { defineCall, type BinaryBody } from '../call.ts';
import { CONSTANTS } from '../constants.ts';
import { ALARM_TYPES } from '../domain.ts';
import type { Role } from '../roles.ts';
import { intId, pageOf, pageQuery } from './common.ts';

/** Who sees and handles alarms: the care roles of the console and the app (spec document 1 §2). */
export const ALARM_HANDLERS: readonly Role[] = ['ONE_ROLE', 'TWO_ROLE', 'SUB_ROLE', 'SOCIAL_WORKER', 'CARER'];
const auth = ALARM_HANDLERS as readonly [Role, ...Role[]];

/** The spec's 10-digit seconds. */
const seconds = z.coerce.number<number>().int().min(0).max(9_999_999_999);

/** An alarm as the console reads it (spec document 2 §3 "Alarm record fields read by the console"). */
export const AlarmRecordSchema = z.object({
  id: z.number().int(),
  alertRecordId: z.number().int().describe('The same as id (older clients read this name)'),
  type: z
    .enum(['sleep', 'fall', 'call', 'security', 'device'])
    .describe('Where it comes from: security alarms arrive as /safeAlertNotify, the others as /alertNotify'),
  deviceId: z.string(),
  deviceType: z.number().int().describe('Device-type catalogue code'),
  alertType: z.enum(ALARM_TYPES),
  status: z
    .union([z.literal(0), z.literal(1)])
    .describe('CONNECTION: 1 online again (released), 0 offline. Any other type: 1 active, 0 cleared'),
  bunk: z.string().nullable().describe('Bed name'),
  floorArea: z.string().nullable().describe('Area and floor, "Area / Floor"'),
  room: z.string().nullable(),
  userName: z.string().nullable().describe('Resident name'),
  userId: z.number().int().nullable().describe('Resident id'),
  alertLevel: z.union([z.literal(1), z.literal(2)]).describe('1 red, 2 orange'),
  timeStamp: z.number().int().describe('Raised at, Unix seconds (10 digits)'),
  lastTime: z.number().int().describe('Latest repeat, Unix seconds'),
  count: z.number().int().describe('How many times the condition was reported while open'),
  duration: z.number().int().describe('Seconds: how long the condition had lasted when raised, or the alarm lasted'),
  text: z.string().describe("The alarm's text in the request's language: its start text, or the disarmed one"),
  voiceWay: z
    .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)])
    .describe('0 silent, 1 audio file, 2 speech once, 3 speech repeated'),
  isRelieve: z.boolean().describe('Released (handled or cleared)'),
  releaseKind: z
    .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)])
    .describe('0 open, 1 handled in software, 2 automatic, 3 at the device, 4 at the watch'),
  relieveReason: z.enum(RELIEVE_REASONS).nullable(),
  dealResult: z.enum(DEAL_RESULTS).nullable(),
  handlerName: z.string().nullable(),
  dealTime: z.number().int().nullable().describe('Released at, Unix seconds'),
  remark: z.string().nullable().describe("The handler's details"),
  speechCount: z.number().int().describe('Kept by the console; 0 from the server'),
  speechStartTime: z.number().int().nullable().describe('Kept by the console; null from the server'),
  providerId: z.number().int().nullable(),
});
export type AlarmRecord = z.infer<typeof AlarmRecordSchema>;

const listRequest = z.object({
  ...pageQuery,
  startTime: seconds.optional().describe('Raised at or after, Unix seconds'),
  endTime: seconds.optional().describe('Raised before, Unix seconds'),
  orderBy: z.enum(['timeStamp', 'alertLevel']).default('timeStamp'),
  order: z.enum(['asc', 'desc']).default('desc'),
  keyWord: z.string().trim().max(64).optional().describe('Matches resident, bed, room and device ID'),
  alertType: z.enum(ALARM_TYPES).optional(),
  alertLevel: z.coerce.number<number>().int().min(1).max(2).optional(),
});

const binary = z.custom<BinaryBody>();

const voiceWay = z
  .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)])
  .describe('0 silent, 1 audio file, 2 speech once, 3 speech repeated');
/** How the console presents one level's alarms. */
export const LevelPresentationSchema = z.object({
  pc: z.boolean().describe('The web console pops these alarms up (under 768 px it only plays the sound)'),
  globalVoiceWay: voiceWay,
});
/** A level's settings on the wire: an object, or the same as a JSON string (older clients send one). */
const levelPresentation = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}, LevelPresentationSchema);

export const AlertLevelSettingsSchema = z.object({
  providerId: z.number().int(),
  alertTypeL1: LevelPresentationSchema.describe('Level 1 (red)'),
  alertTypeL2: LevelPresentationSchema.describe('Level 2 (orange)'),
  levelMap: z
    .record(z.enum(ALARM_TYPES), z.union([z.literal(1), z.literal(2)]))
    .describe('The level of every alarm type (the per-category level map; category = alertType)'),
  voiceFlag: z.boolean().describe('Some level is heard (its voice way is not silent)'),
});
export type AlertLevelSettings = z.infer<typeof AlertLevelSettingsSchema>;
/** Who reads a provider's alarm settings (the console's voice and popups) and who changes them. */
const SETTINGS_EDITORS = ['ONE_ROLE', 'TWO_ROLE', 'SUB_ROLE'] as const;

export const alarmCalls = {
  alarmLogUnDeal: defineCall({
    method: 'POST',
    path: '/alarmLog/unDeal',
    auth,
    input: 'json',
    request: listRequest,
    result: pageOf(AlarmRecordSchema),
    summary:
      'Pending (open) alarms of the chosen provider, or of the whole scope. The console reloads the last hour ' +
      `(${CONSTANTS.pendingAlarmLookbackSeconds} s, page size ${CONSTANTS.pendingAlarmPageSize}, newest first) on /checkAlarm`,
    tag: 'alarm',
  }),
  alarmLog: defineCall({
    method: 'POST',
    path: '/alarmLog',
    auth,
    input: 'json',
    request: listRequest,
    result: pageOf(AlarmRecordSchema),
    summary: 'Processed (released) alarms, by the time they were raised; the console shows the last month by default',
    tag: 'alarm',
  }),
  alarmDealStatus: defineCall({
    method: 'POST',
    path: '/alarm/dealStatus',
    auth,
    input: 'json',
    request: z.object({ id: intId }),
    result: AlarmRecordSchema,
    summary:
      'One alarm as it stands now: whether it is still open, and who released it how. The console asks before ' +
      'opening the handling dialog',
    tag: 'alarm',
  }),
  alarmRelieve: defineCall({
    method: 'POST',
    path: '/alarmLog/relieveAlert',
    auth,
    input: 'json',
    request: z.object({
      id: intId,
      reason: z.enum(RELIEVE_REASONS).describe('Why it is released'),
      result: z.enum(DEAL_RESULTS).optional().describe('What the caregiver found'),
      details: z.string().trim().max(CONSTANTS.remarkMaxLength).optional().describe('What the caregiver did'),
    }),
    result: AlarmRecordSchema,
    summary:
      'Handle an open alarm (release kind 1). Of any number of terminals handling one alarm at once exactly one ' +
      'succeeds; the others get alarm.handledElsewhere, and every console receives the release',
    tag: 'alarm',
  }),
  alarmExport: defineCall({
    method: 'GET',
    path: '/alarmLog/exportAlarmLog',
    auth,
    input: 'query',
    request: listRequest.omit({ pageNum: true, pageSize: true }).extend({
      deal: z.enum(['pending', 'processed']).default('processed').describe('Which list'),
    }),
    result: binary,
    produces: 'binary',
    summary: "The alarm log's rows matching the filters (at most 10,000) as .xlsx, in the caller's language",
    tag: 'alarm',
  }),
  alarmTimeline: defineCall({
    method: 'GET',
    path: '/alarmLog/timeline',
    auth,
    input: 'query',
    request: z.object({ id: intId }),
    result: z.array(
      z.object({
        at: z.number().describe('Unix seconds, with milliseconds'),
        step: z.enum(['raised', 'repeated', 'delivered', 'played', 'handled', 'released', 'notified', 'notify_failed']),
        who: z.string().nullable().describe('The account, when one acted'),
        detail: z.record(z.string(), z.unknown()),
      }),
    ),
    summary:
      "An alarm's timeline: raised, repeats, delivered to consoles and receivers, played, handled, released. " +
      'Documented extra',
    tag: 'alarm',
  }),
  queryAlertLevel: defineCall({
    method: 'POST',
    path: '/system/queryAlertLevel',
    auth,
    input: 'json',
    request: z.object({
      providerId: intId.optional().describe('A visible provider; default: the chosen provider'),
    }),
    result: AlertLevelSettingsSchema,
    summary:
      "A provider's alarm settings: each type's level and, per level, the popup flag and voice way. Defaults: " +
      'level 1 for falls, SOS, badge SOS, smoke, gas, CO and breathing stop; red spoken repeatedly, orange once',
    tag: 'alarm',
  }),
  saveAlertLevel: defineCall({
    method: 'POST',
    path: '/system/saveAlertLevel',
    auth: SETTINGS_EDITORS,
    input: 'json',
    request: z.object({
      providerId: intId.optional().describe('A visible provider; default: the chosen provider'),
      alertTypeL1: levelPresentation.optional(),
      alertTypeL2: levelPresentation.optional(),
      levelMap: z
        .partialRecord(z.enum(ALARM_TYPES), z.union([z.literal(1), z.literal(2)]))
        .optional()
        .describe('Types whose level changes; the others keep theirs'),
    }),
    result: AlertLevelSettingsSchema,
    summary: 'Change alarm levels, popups and voice ways; every console of the provider is told (/dataChange)',
    tag: 'alarm',
  }),
  alertFlag: defineCall({
    method: 'GET',
    path: '/monitor/alertFlag',
    auth,
    input: 'query',
    request: z.object({}),
    result: z.object({
      flag: z.boolean().describe('The bell shows its dot: some alarm is pending'),
      count: z.number().int().describe('Pending alarms'),
    }),
    summary: "The navbar bell's dot: whether any alarm of the chosen provider (or the scope) is pending",
    tag: 'alarm',
  }),
};
