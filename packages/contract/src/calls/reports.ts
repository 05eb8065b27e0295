import { z } from 'zod';
import { defineCall, type BinaryBody } from '../call.ts';
import type { Role } from '../roles.ts';
import { ALARM_HANDLERS } from './alarms.ts';
import { intId, pageOf, pageQuery } from './common.ts';
import { sleepConfigFields, SleepConfigSchema } from './caregivers.ts';
import { VitalLimitsSchema } from './monitor.ts';
import {
  AF_RISKS,
  HYPNOGRAM_EPOCH_SECONDS,
  INSUFFICIENT_REASONS,
  REPORT_STATES,
  RISK_GRADES,
  RISK_REASONS,
  SLEEP_SETTING_SOURCES,
} from '../domain.ts';

/**
 * Sleep reports (issue 11; spec document 1 sections 1–3, document 2 sections 7 and 9): one
 * report per resident and night, produced within 15 minutes after the resident's wake time
 * from what their bed's sleep monitor sent, and monthly reports built from the daily ones.
 * A night is named by the local date (platform TIME_ZONE) of waking. The analysis and its
 * limits are in docs/sleep-analysis.md; the production in docs/sleep-reports.md.
 *
 * A report never invents: when the night's data cannot support a figure it is null, and a
 * night with too little valid signal has `insufficient` set and no score.
 */

const auth = ALARM_HANDLERS as readonly [Role, ...Role[]];
/** Who changes sleep settings: the care providers' own accounts (like bed alarm settings). */
const SETTINGS_EDITORS = ['ONE_ROLE', 'TWO_ROLE', 'SUB_ROLE'] as const;

const night = z.iso
  .date({
    error: (issue) => (issue.input === undefined || issue.input === '' ? 'validation.required' : 'report.dateFormat'),
  })
  .describe('The night, named by the local date of waking: YYYY-MM-DD');
const month = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'report.monthFormat' })
  .describe('A month, YYYY-MM');
const unix = z.number().int().describe('Unix seconds');
const seconds = z.number().int().describe('Seconds');
const share = z.number().describe('0 to 1');

const RangeSchema = z.object({ min: z.number(), avg: z.number(), max: z.number() });
const SpanSchema = z.object({ start: unix, end: unix });

/** Who the report is about, as the report's header shows it. */
export const ReportResidentSchema = z.object({
  userId: z.number().int(),
  userName: z.string(),
  gender: z.string().nullable().describe('"0" male, "1" female'),
  age: z.number().int().nullable(),
  bunk: z.string().nullable().describe('Bed name'),
  room: z.string().nullable(),
  floorArea: z.string().nullable().describe('Area and floor, "Area / Floor"'),
  providerName: z.string().nullable(),
});
export type ReportResident = z.infer<typeof ReportResidentSchema>;

/** The figures of one night (the SleepReport of @vigil/sleep without its series). null: not supported by the data. */
export const NightFiguresSchema = z.object({
  windowStart: unix.describe('Start of the analysed window (usual sleep time − 2 h)'),
  windowEnd: unix.describe('End of the analysed window (usual wake time + 10 min)'),
  coverage: share.describe('Share of the window with any message from the monitor'),
  signalCoverage: share.describe('Share of the time in bed with a valid heart rate'),
  insufficient: z.enum(INSUFFICIENT_REASONS).nullable().describe('Why the night cannot be scored; null: it can'),
  bedTime: unix.nullable(),
  getUpTime: unix.nullable(),
  sleepOnset: unix.nullable(),
  wakeTime: unix.nullable(),
  timeInBed: seconds.nullable(),
  totalSleep: seconds.nullable(),
  latency: seconds.nullable().describe('From lying down to falling asleep'),
  wakeAfterOnset: seconds.nullable(),
  efficiency: share.nullable().describe('Sleep / time in bed'),
  stages: z.object({ wake: seconds, rem: seconds, light: seconds, deep: seconds }).nullable(),
  deepShare: share.nullable(),
  continuity: share.nullable(),
  awakenings: z.number().int().nullable(),
  movementPerHour: z.number().nullable().describe('Body movements per hour asleep'),
  ahi: z.number().nullable().describe('Apnea-hypopnea index, events per hour asleep'),
  apneaEvents: z.number().int().nullable(),
  leaveBedCount: z.number().int().nullable(),
  leaveBedSeconds: seconds.nullable(),
  hrv: z
    .object({ rmssd: z.number(), sdnn: z.number(), intervals: z.number().int() })
    .nullable()
    .describe('ms, over the normal beat intervals while asleep'),
  heart: RangeSchema.nullable().describe('Beats per minute while in bed'),
  breath: RangeSchema.nullable().describe('Breaths per minute while in bed'),
  af: z
    .object({ burden: share, longestMinutes: z.number().int(), risk: z.enum(AF_RISKS) })
    .nullable()
    .describe('Atrial-fibrillation risk from beat intervals (a screening, not a diagnosis)'),
  score: z.number().int().nullable().describe('0–100'),
  scoreParts: z
    .object({
      duration: z.number(),
      efficiency: z.number(),
      depth: z.number(),
      continuity: z.number(),
      latency: z.number(),
    })
    .nullable()
    .describe('Points of each part: duration /30, efficiency /20, depth /20, continuity /20, latency /10'),
  riskGrade: z.enum(RISK_GRADES).nullable(),
  riskReasons: z.array(z.enum(RISK_REASONS)),
});
export type NightFigures = z.infer<typeof NightFiguresSchema>;

export const DailyReportSchema = z.object({
  resident: ReportResidentSchema,
  night,
  state: z.enum(REPORT_STATES).describe('computing: being made now; failed: could not be made (it is retried)'),
  computeTime: z.string().nullable().describe('When the report was made, ISO 8601'),
  figures: NightFiguresSchema.nullable().describe('null unless ready'),
});
export type DailyReport = z.infer<typeof DailyReportSchema>;

/** One minute of the night, for the curves. */
export const ReportMinuteSchema = z.object({
  ts: unix.describe("The minute's start"),
  heartRate: z.number().nullable(),
  breathRate: z.number().nullable(),
  move: z.number().int().describe('Seconds with body movement'),
  inBed: z.boolean().describe('In bed for most of the minute'),
});
export type ReportMinute = z.infer<typeof ReportMinuteSchema>;

export const DailyReportDataSchema = z.object({
  night,
  windowStart: unix,
  windowEnd: unix,
  epochSeconds: z.literal(HYPNOGRAM_EPOCH_SECONDS),
  hypnogram: z
    .array(z.number().int())
    .describe('From windowStart, one code per 30 s: 0 wake, 1 REM, 2 light, 3 deep, 255 unknown'),
  minutes: z.array(ReportMinuteSchema).describe('Minutes of the window with data, in time order'),
  apneaEvents: z.array(SpanSchema),
  leaveBed: z.array(SpanSchema),
  limits: VitalLimitsSchema.nullable().describe(
    "The bed's heart and breathing rate alarm limits in force now, as the live charts show them (the curves' bands)",
  ),
});
export type DailyReportData = z.infer<typeof DailyReportDataSchema>;

/** One night in a list or a month. */
export const NightSummarySchema = z.object({
  night,
  state: z.enum(REPORT_STATES),
  insufficient: z.enum(INSUFFICIENT_REASONS).nullable(),
  coverage: share.nullable(),
  score: z.number().int().nullable(),
  totalSleep: seconds.nullable(),
  efficiency: share.nullable(),
  deepShare: share.nullable(),
  awakenings: z.number().int().nullable(),
  movementPerHour: z.number().nullable(),
  ahi: z.number().nullable(),
  leaveBedCount: z.number().int().nullable(),
  heartAvg: z.number().nullable(),
  breathAvg: z.number().nullable(),
  rmssd: z.number().nullable(),
  afRisk: z.enum(AF_RISKS).nullable(),
  riskGrade: z.enum(RISK_GRADES).nullable(),
});
export type NightSummary = z.infer<typeof NightSummarySchema>;

const averages = z.object({
  score: z.number().nullable(),
  totalSleep: z.number().nullable(),
  efficiency: z.number().nullable(),
  deepShare: z.number().nullable(),
  awakenings: z.number().nullable(),
  movementPerHour: z.number().nullable(),
  ahi: z.number().nullable(),
  leaveBedCount: z.number().nullable(),
  heartAvg: z.number().nullable(),
  breathAvg: z.number().nullable(),
  rmssd: z.number().nullable(),
});

export const MonthReportSchema = z.object({
  resident: ReportResidentSchema,
  month,
  nights: z.array(NightSummarySchema).describe('Every night of the month with a report, in date order'),
  scoredNights: z.number().int().describe('Nights with a score'),
  insufficientNights: z.number().int().describe('Nights whose data could not support a score'),
  averages: averages.describe('Means over the scored nights; null when there are none'),
  riskNights: z.object({ low: z.number().int(), medium: z.number().int(), high: z.number().int() }),
  riskReasons: z
    .array(z.object({ reason: z.enum(RISK_REASONS), nights: z.number().int() }))
    .describe('How many nights gave each risk reason, most frequent first'),
});
export type MonthReport = z.infer<typeof MonthReportSchema>;

/** A resident of the report list: who has a sleep monitor, and their latest night. */
export const ReportUserSchema = z.object({
  userId: z.number().int(),
  userName: z.string(),
  gender: z.string().nullable(),
  age: z.number().int().nullable(),
  bunk: z.string().nullable(),
  room: z.string().nullable(),
  floorArea: z.string().nullable(),
  deviceId: z.string().nullable().describe("The bed's sleep monitor; null when the bed has none now"),
  latest: NightSummarySchema.nullable().describe('The latest night with a report; null: none yet'),
  reports: z.number().int().describe('Nights with a report'),
});
export type ReportUser = z.infer<typeof ReportUserSchema>;

export const DailyReportRowSchema = NightSummarySchema.extend({
  userId: z.number().int(),
  userName: z.string(),
  bunk: z.string().nullable(),
  room: z.string().nullable(),
});
export type DailyReportRow = z.infer<typeof DailyReportRowSchema>;

export const SleepSettingSchema = SleepConfigSchema.extend({
  userId: z.number().int(),
  source: z
    .enum(SLEEP_SETTING_SOURCES)
    .describe("resident: saved for the resident; default: none saved, the platform's apply"),
  updateTime: z.string().nullable(),
});
export type SleepSetting = z.infer<typeof SleepSettingSchema>;

const residentAndNight = z.object({ userId: intId.describe('The resident'), date: night });
const binary = z.custom<BinaryBody>();
const lang = z
  .string()
  .trim()
  .max(16)
  .optional()
  .describe('Language of the PDF (zh-CN, en-US, ko, ja, de, cs, it, fr); default: the caller’s');

export const reportCalls = {
  sleepReportUserList: defineCall({
    method: 'POST',
    path: '/sleepReport/userList',
    auth,
    input: 'json',
    request: z.object({
      ...pageQuery,
      keyWord: z.string().trim().max(64).optional().describe('Part of the resident, bed or room name'),
      areaId: intId.optional().describe('Area/building or floor/unit'),
    }),
    result: pageOf(ReportUserSchema),
    summary:
      'Checked-in residents of the chosen provider (or the scope) whose bed has a sleep monitor, by area, room and ' +
      'bed, each with their latest night and how many ready reports they have',
    tag: 'report',
  }),
  dailyReportPageList: defineCall({
    method: 'POST',
    path: '/report/getDailyReportPageList',
    auth,
    input: 'json',
    request: z.object({
      ...pageQuery,
      userId: intId.optional().describe('One resident; omitted: every resident the caller sees'),
      startDate: night.optional().describe('First night (inclusive)'),
      endDate: night.optional().describe('Last night (inclusive)'),
      riskGrade: z.enum(RISK_GRADES).optional(),
    }),
    result: pageOf(DailyReportRowSchema),
    summary: 'Daily reports, newest night first, then by bed',
    tag: 'report',
  }),
  dailyReport: defineCall({
    method: 'GET',
    path: '/report/getDailyReport',
    auth,
    input: 'query',
    request: residentAndNight,
    result: DailyReportSchema.nullable().describe('null: no report for that night (yet)'),
    summary: "One night's report: who, when it was made, and every figure with its coverage",
    tag: 'report',
  }),
  dailyReportData: defineCall({
    method: 'GET',
    path: '/report/getDailyReportData',
    auth,
    input: 'query',
    request: residentAndNight,
    result: DailyReportDataSchema.nullable().describe('null: no ready report for that night'),
    summary:
      "One night's curves: the 30-second hypnogram, heart and breathing per minute, movement, apnea events and " +
      'times out of bed',
    tag: 'report',
  }),
  timePeriod: defineCall({
    method: 'GET',
    path: '/report/getTimePeriod',
    auth,
    input: 'query',
    request: z.object({ userId: intId.describe('The resident') }),
    result: z.object({
      firstNight: z.string().nullable().describe('The earliest night with a report; null: none'),
      lastNight: z.string().nullable().describe('The latest night with a report; null: none'),
      sleepTime: z.string().describe('HH:mm in force'),
      wakeTime: z.string().describe('HH:mm in force'),
      timeZone: z.string().describe('The platform time zone nights are named in'),
      nextReportAt: z.string().describe('When the next daily report is due, ISO 8601'),
    }),
    summary: "The span of a resident's reports and the sleep window that defines their nights",
    tag: 'report',
  }),
  monthReportTimes: defineCall({
    method: 'GET',
    path: '/report/getMonthReportTimes',
    auth,
    input: 'query',
    request: z.object({ userId: intId.describe('The resident') }),
    result: z.array(z.string().describe('YYYY-MM')).describe('Months with at least one ready report, newest first'),
    summary: 'The months a resident has a monthly report for',
    tag: 'report',
  }),
  monthReport: defineCall({
    method: 'GET',
    path: '/report/getMonthReport',
    auth,
    input: 'query',
    request: z.object({ userId: intId.describe('The resident'), month }),
    result: MonthReportSchema,
    summary: "A resident's month: each night's figures, the month's averages, and the nights' risk grades and reasons",
    tag: 'report',
  }),
  recomputeDailyReport: defineCall({
    method: 'POST',
    path: '/report/recompute',
    auth: SETTINGS_EDITORS,
    input: 'json',
    request: residentAndNight,
    result: DailyReportSchema.nullable().describe('The new report; null when the night has not ended yet'),
    summary:
      "Make one night's report again from the stored data (after a settings change or a late upload); waits for " +
      'the result. Documented extra',
    tag: 'report',
  }),
  dailyReportPdf: defineCall({
    method: 'GET',
    path: '/report/dailyPdf',
    auth,
    input: 'query',
    request: residentAndNight.extend({ lang }),
    result: binary,
    produces: 'binary',
    summary:
      "One night's report as PDF (<name>-<date>.pdf). report.notFound when there is no ready report. Documented extra",
    tag: 'report',
  }),
  monthReportPdf: defineCall({
    method: 'GET',
    path: '/report/monthPdf',
    auth,
    input: 'query',
    request: z.object({ userId: intId.describe('The resident'), month, lang }),
    result: binary,
    produces: 'binary',
    summary: "A resident's monthly report as PDF (<name>-<month>.pdf). Documented extra",
    tag: 'report',
  }),
  bedSleepSetting: defineCall({
    method: 'GET',
    path: '/bunk/sleepSetting',
    auth: SETTINGS_EDITORS,
    input: 'query',
    request: z.object({ userId: intId.describe('The resident') }),
    result: SleepSettingSchema,
    summary:
      "A resident's sleep settings (BunkManage): bed-leaving watch, sleep and wake time, sensitivity and mattress; " +
      'the defaults when none were saved. The same settings /community/saveUserSleepConfig(s) saves. Documented extra',
    tag: 'report',
  }),
  saveBedSleepSetting: defineCall({
    method: 'POST',
    path: '/bunk/saveSleepSetting',
    auth: SETTINGS_EDITORS,
    input: 'json',
    request: z.object({
      userIds: z.array(intId).min(1).max(1000).describe('Residents (one, or a batch); duplicates are ignored'),
      ...sleepConfigFields,
    }),
    result: z.object({ count: z.number().int().describe('Residents whose settings were saved') }),
    summary:
      'Save the same sleep settings for one or several residents (all or none); the next night is analysed with ' +
      'them. Documented extra',
    tag: 'report',
  }),
};
