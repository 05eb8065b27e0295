import { z } from 'zod';
import {
  DEAL_RESULTS,
  MEASURE_QUANTITIES,
  type AlarmMeasure,
  NO_MOTION_HOURS,
  RELIEVE_REASONS,
  SLEEP_ALARM_TYPES,
  SNOOZE_MINUTES_RANGE,
} from '../alarms.ts';
import { defineCall, type BinaryBody } from '../call.ts';
import { CONSTANTS } from '../constants.ts';
import { ALARM_NOTIFY_MODES, ALARM_TYPES } from '../domain.ts';
import type { Role } from '../roles.ts';
import { intId, nothing, pageOf, pageQuery } from './common.ts';

/** Who sees and handles alarms: the care roles of the console and the app (spec document 1 §2). */
export const ALARM_HANDLERS: readonly Role[] = ['ONE_ROLE', 'TWO_ROLE', 'SUB_ROLE', 'SOCIAL_WORKER', 'CARER'];
const auth = ALARM_HANDLERS as readonly [Role, ...Role[]];

/** The spec's 10-digit seconds. */
const seconds = z.coerce.number<number>().int().min(0).max(9_999_999_999);

/** The figure that raised an alarm (decision 0036). */
export const AlarmMeasureSchema = z.object({
  quantity: z
    .enum(MEASURE_QUANTITIES)
    .nullable()
    .describe(
      'What was measured: heartRate, breathRate (per minute), movement (0–100), battery (%); null: a duration only',
    ),
  value: z.number().nullable().describe('How much, when it was raised'),
  limit: z.number().nullable().describe('The limit of the bed or the settings it crossed'),
  side: z.enum(['below', 'above']).nullable().describe('Which side of the limit'),
  seconds: z.number().int().nullable().describe('How long the condition had held when it was raised'),
}) satisfies z.ZodType<AlarmMeasure>;

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
  duration: z
    .number()
    .int()
    .describe(
      'Seconds: how long the condition lasted when it cleared by itself, else how long it had held when raised (or the alarm lasted)',
    ),
  text: z.string().describe("The alarm's text in the request's language, as raised (handling never rewrites it)"),
  voiceWay: z
    .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)])
    .describe('0 silent, 1 audio file, 2 speech once, 3 speech repeated'),
  isRelieve: z.boolean().describe('Released (handled or cleared)'),
  releaseKind: z
    .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)])
    .describe('0 open, 1 handled in software, 2 automatic, 3 at the device, 4 at the watch'),
  relieveReason: z.enum(RELIEVE_REASONS).nullable(),
  dealResult: z.enum(DEAL_RESULTS).nullable(),
  handlerName: z
    .string()
    .nullable()
    .describe("Who handled it: the caregiver or account by name (a provider's own account by its login)"),
  dealTime: z.number().int().nullable().describe('Released at, Unix seconds'),
  remark: z.string().nullable().describe("The handler's details"),
  speechCount: z.number().int().describe('Kept by the console; 0 from the server'),
  speechStartTime: z.number().int().nullable().describe('Kept by the console; null from the server'),
  providerId: z.number().int().nullable(),
  awaitingAck: z
    .boolean()
    .describe(
      'Its condition cleared by itself (released, kind 2) but it latches: it stays pending (/alarmLog/unDeal) until a person handles it',
    ),
  clearedTime: z
    .number()
    .int()
    .nullable()
    .describe('When its condition cleared by itself (kind 2, or a radar cancelling a fall), Unix seconds'),
  releaseText: z
    .string()
    .nullable()
    .describe('What the clearing said ("breathing back to normal"), when the condition cleared by itself'),
  measure: AlarmMeasureSchema.nullable().describe(
    'The figure that raised it (vitals, movement, battery, how long); null for an event (a fall, a button). Documented extra',
  ),
  measureText: z
    .string()
    .nullable()
    .describe(
      'The figure in the request\'s language: "heart rate 58 /min · below the limit 75 · for 2 min"; null without one. Documented extra',
    ),
  resultOptions: z
    .array(z.enum(DEAL_RESULTS))
    .describe(
      'The handling results that fit its type, in order; /alarmLog/relieveAlert refuses others. Documented extra',
    ),
});
export type AlarmRecord = z.infer<typeof AlarmRecordSchema>;

/** The steps of an alarm's timeline, in the order they usually happen. */
export const TIMELINE_STEPS = [
  'raised',
  'repeated',
  'delivered',
  'played',
  'handled',
  'released',
  'notified',
  'notify_failed',
  'note',
] as const;
export type TimelineStepName = (typeof TIMELINE_STEPS)[number];

/** One step of an alarm's timeline. */
export const TimelineStepSchema = z.object({
  at: z.number().describe('Unix seconds, with milliseconds'),
  step: z.enum(TIMELINE_STEPS).describe('note: a note added by a person (/alarmLog/addNote)'),
  who: z
    .string()
    .nullable()
    .describe(
      'Who acted, as the alarm names its handler: a caregiver by name, an account by its display name (a ' +
        "provider's own account by its login, never the provider's name); a release at a nurse watch: the watch " +
        '(device ID)',
    ),
  detail: z
    .record(z.string(), z.unknown())
    .describe(
      'handled: reason, result; released: kind (and watchId); delivered and played: console (the wsLog type); ' +
        'note: note',
    ),
});
export type AlarmTimelineStep = z.infer<typeof TimelineStepSchema>;

const listRequest = z.object({
  ...pageQuery,
  startTime: seconds.optional().describe('Raised at or after, Unix seconds'),
  endTime: seconds.optional().describe('Raised before, Unix seconds'),
  orderBy: z.enum(['timeStamp', 'alertLevel']).default('timeStamp'),
  order: z.enum(['asc', 'desc']).default('desc'),
  keyWord: z.string().trim().max(64).optional().describe('Matches resident, bed, room and device ID'),
  alertType: z.enum(ALARM_TYPES).optional(),
  alertLevel: z.coerce.number<number>().int().min(1).max(2).optional(),
  roomId: intId.optional().describe('Only alarms raised in this room (its device placed there at the time)'),
  areaId: intId.optional().describe('Only alarms raised in this floor or area (its rooms, and its floors, included)'),
});

const binary = z.custom<BinaryBody>();

const hhmm = z
  .string()
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'validation.time' })
  .describe('HH:mm, 00:00 to 23:59');
const timeRange = z
  .object({ start: hhmm, end: hhmm })
  .describe('A daily range; an end before the start runs past midnight; equal ends: all day');
const between = (min: number, max: number, what: string) => z.number().int().min(min).max(max).describe(what);

/** A resident's bed alarm rules (the console's bed alarm settings): what the engine judges that bed by. */
export const BedAlarmRulesSchema = z
  .object({
    off: z.array(z.enum(ALARM_TYPES)).max(ALARM_TYPES.length).describe('Alarm types not watched for this bed'),
    durations: z.object({
      leftBedTime: between(10, 86_400, 'Seconds out of bed before LEAVE_BED'),
      breathStopDuration: between(5, 600, 'Seconds without breathing before BREATH_STOP'),
      manyBodyMoveDuration: between(10, 7_200, 'Seconds of much movement before BODY_MOVE'),
      noBodyMove: between(60, 86_400, 'Seconds without movement before NO_BODY_MOVE'),
      noTurnOver: between(300, 86_400, 'Seconds without turning over before NO_TURN_OVER'),
      breathExceptionDuration: between(10, 7_200, 'Seconds of abnormal breathing before BREATH_ABNORMAL'),
      heartExceptionDuration: between(10, 7_200, 'Seconds of abnormal heart rate before HEART_ABNORMAL'),
    }),
    ranges: z.object(
      Object.fromEntries(SLEEP_ALARM_TYPES.map((t) => [t, timeRange])) as Record<
        (typeof SLEEP_ALARM_TYPES)[number],
        typeof timeRange
      >,
    ),
    breathMin: between(1, 60, 'Breaths a minute below which breathing is abnormal'),
    breathMax: between(5, 100, 'Breaths a minute above which breathing is abnormal'),
    heartMin: between(20, 200, 'Beats a minute below which the heart rate is abnormal'),
    heartMax: between(40, 300, 'Beats a minute above which the heart rate is abnormal'),
    bodyMoveAbove: between(1, 100, 'Movement (0–100) that counts as much movement'),
    turnOverAbove: between(1, 100, 'Movement (0–100) that counts as turning over'),
    doorRange: timeRange.describe('A door opened in this range raises DOOR'),
    noMotionHours: z
      .union(
        NO_MOTION_HOURS.map((h) => z.literal(h)) as unknown as [z.ZodLiteral<8>, z.ZodLiteral<12>, z.ZodLiteral<24>],
      )
      .describe('Hours without motion before NO_MOTION'),
    lowBatteryPercent: between(5, 50, 'Battery per cent at or below which LOW_BATTERY is raised'),
  })
  .refine((r) => r.breathMin < r.breathMax, { error: 'alarm.breathLimits', path: ['breathMax'] })
  .refine((r) => r.heartMin < r.heartMax, { error: 'alarm.heartLimits', path: ['heartMax'] });
export type BedAlarmRules = z.infer<typeof BedAlarmRulesSchema>;

/** Who is told of a bed's alarms beyond the console, and how. */
export const BedReceiversSchema = z.object({
  receiverIds: z
    .array(intId)
    .max(100)
    .describe("Enabled caregivers of the resident's provider who receive the bed's alarms"),
  notify: z.array(z.enum(ALARM_NOTIFY_MODES)).min(1).max(3).describe('How receivers are told'),
});
export type BedReceivers = z.infer<typeof BedReceiversSchema>;

const voiceWay = z
  .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)])
  .describe('0 silent, 1 audio file, 2 speech once, 3 speech repeated');
/** How the console presents one level's alarms. */
export const LevelPresentationSchema = z.object({
  pc: z.boolean().describe('The web console pops these alarms up (under 768 px it only plays the sound)'),
  globalVoiceWay: voiceWay,
  latch: z
    .boolean()
    .describe(
      'An alarm whose condition clears by itself stays on the consoles until a person handles it (always true for level 1)',
    ),
  snoozeMinutes: z
    .number()
    .int()
    .min(SNOOZE_MINUTES_RANGE.min)
    .max(SNOOZE_MINUTES_RANGE.max)
    .describe(
      'A condition alarm handled while its condition holds is raised again after this many minutes if it still holds',
    ),
});
/** A level's settings on the wire: an object, or the same as a JSON string (older clients send one). */
const levelPresentation = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  },
  LevelPresentationSchema.partial({ latch: true, snoozeMinutes: true }),
);

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
      result: z
        .enum(DEAL_RESULTS)
        .optional()
        .describe(
          "What the caregiver found or did: one of the alarm's resultOptions (alarm.resultNotForType otherwise)",
        ),
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
    result: z.array(TimelineStepSchema),
    summary:
      "An alarm's timeline: raised, repeats, delivered to consoles and receivers, played (once per console), " +
      'handled, released, notes. Documented extra',
    tag: 'alarm',
  }),
  alarmAddNote: defineCall({
    method: 'POST',
    path: '/alarmLog/addNote',
    auth,
    input: 'json',
    request: z.object({
      id: intId.describe('The alarm, pending or handled'),
      note: z
        .string()
        .trim()
        .min(1)
        .max(CONSTANTS.remarkMaxLength)
        .describe("What the caregiver adds: kept on the alarm's timeline, never changing its handling"),
    }),
    result: TimelineStepSchema,
    summary:
      "Adds a note to an alarm's timeline, pending or already handled: what a caregiver typed while another " +
      'terminal handled the alarm is not lost. Every console that sees the alarm is told (/alarmNoteNotify). ' +
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
  bedAlarmSetting: defineCall({
    method: 'GET',
    path: '/bunk/alarmSetting',
    auth: SETTINGS_EDITORS,
    input: 'query',
    request: z.object({ userId: intId.describe('The resident') }),
    result: z.object({
      userId: z.number().int(),
      userName: z.string().describe("The resident's name: the screen names the resident, never an id"),
      bedId: z.number().int().nullable().describe("The resident's bed; null: in no bed now"),
      bunk: z.string().nullable().describe('Bed name'),
      room: z.string().nullable(),
      floorArea: z.string().nullable().describe('Area and floor, "Area / Floor"'),
      providerId: z.number().int().describe("The resident's provider: its enabled caregivers may receive the alarms"),
      rules: BedAlarmRulesSchema,
      custom: z.boolean().describe("false: no rules of the resident's own, the defaults apply"),
      receivers: BedReceiversSchema.nullable().describe("The bed's own receivers; null: the community's apply"),
      communityReceivers: BedReceiversSchema.nullable().describe(
        "What applies when the bed has none: the resident's community's (null: no community, or none set)",
      ),
      receiverNames: z
        .array(z.object({ id: z.number().int(), name: z.string() }))
        .describe('The caregivers named in receivers and communityReceivers, with their names'),
      updateTime: z.string().nullable(),
    }),
    summary:
      "A resident's bed alarm rules (the console's bed alarm settings, /BunkManage/alarmSetting/:userId): " +
      'durations, limits, time ranges, types switched off, receivers and notification modes; the defaults ' +
      "(and the community's receivers) when none were saved. Documented extra",
    tag: 'alarm',
  }),
  saveBedAlarmSetting: defineCall({
    method: 'POST',
    path: '/bunk/saveAlarmSetting',
    auth: SETTINGS_EDITORS,
    input: 'json',
    request: z.object({
      userId: intId.describe('The resident'),
      rules: BedAlarmRulesSchema.nullable().optional().describe('null: back to the defaults; omitted: unchanged'),
      receivers: BedReceiversSchema.nullable()
        .optional()
        .describe("The bed's own receivers and modes; null: the community's apply; omitted: unchanged"),
    }),
    result: nothing,
    summary:
      "Save a resident's bed alarm rules and receivers; the alarm engine applies them at once and the provider's consoles " +
      'are told (/dataChange). Documented extra',
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
