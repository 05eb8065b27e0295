import type { AlarmType } from './domain.ts';

/**
 * The alarm domain's constants and pure rules (spec document 2 sections 3, 4 and 9), without zod,
 * so the server's engine and the console read the same ones.
 */

/** 1 red, 2 orange. */
export type AlarmLevel = 1 | 2;

/**
 * Where an alarm comes from. The socket pushes security sensors as `/safeAlertNotify` and the
 * rest as `/alertNotify`; `device` alarms are about the device itself, not the resident, and
 * are raised for a checked-out bed too.
 */
export type AlarmSource = 'sleep' | 'fall' | 'call' | 'security' | 'device';

export const ALARM_SOURCE: Readonly<Record<AlarmType, AlarmSource>> = {
  LEAVE_BED: 'sleep',
  BREATH_STOP: 'sleep',
  BODY_MOVE: 'sleep',
  NO_BODY_MOVE: 'sleep',
  NO_TURN_OVER: 'sleep',
  BREATH_ABNORMAL: 'sleep',
  HEART_ABNORMAL: 'sleep',
  FALL: 'fall',
  FALL_SUSPECTED: 'fall',
  SITTING_UP: 'fall',
  SOS: 'call',
  BADGE_SOS: 'call',
  FENCE: 'call',
  DOOR: 'security',
  SMOKE: 'security',
  GAS: 'security',
  CO: 'security',
  FLOOD: 'security',
  NO_MOTION: 'security',
  CONNECTION: 'device',
  MAT_DISLODGED: 'device',
  LOW_BATTERY: 'device',
};

/** Level 1 out of the box: a life may be at stake within minutes. Every other type is level 2. */
export const DEFAULT_LEVEL1_TYPES: readonly AlarmType[] = [
  'FALL',
  'SOS',
  'BADGE_SOS',
  'SMOKE',
  'GAS',
  'CO',
  'BREATH_STOP',
];

/** Alarm removal kinds (spec document 2 section 4). */
export const RELEASE_KIND = {
  /** Still open. */
  none: 0,
  /** Handled by a caregiver in the console or the app. */
  software: 1,
  /** The condition cleared (back in bed, smoke gone, device online again). */
  automatic: 2,
  /** Released at the device (its button, or the radar cancelled the fall). */
  device: 3,
  /** Released at the nurse watch. */
  watch: 4,
} as const;
export type ReleaseKind = (typeof RELEASE_KIND)[keyof typeof RELEASE_KIND];

export const RELIEVE_REASONS = ['CHECKED', 'MISTAKE_ABNORMAL', 'MISTAKE_RECHECK', 'TEST', 'REMOVE_DEVICE'] as const;
export type RelieveReason = (typeof RELIEVE_REASONS)[number];
/**
 * Handling results: the spec's four (a finding and the fall radar's three postures), then our
 * additions (decision 0036), only ever appended: what the caregiver did beyond the room.
 */
export const DEAL_RESULTS = [
  'NO_ABNORMALITY',
  'BED_HOLD_UP',
  'SIT_ASIDE_BED',
  'LIVING_OR_SIT_IN_TAIL_STOCK',
  'DOCTOR_INFORMED',
  'FAMILY_CONTACTED',
] as const;
export type DealResult = (typeof DEAL_RESULTS)[number];
/** The fall radar's posture findings: what a caregiver finds after a fall alarm, and after no other. */
export const POSTURE_RESULTS: readonly DealResult[] = ['BED_HOLD_UP', 'SIT_ASIDE_BED', 'LIVING_OR_SIT_IN_TAIL_STOCK'];

/**
 * The handling results that fit an alarm type, in the order a console offers them: a fall gets
 * the radar's postures; an alarm about the resident (sleep, call, security) a doctor informed or
 * the family contacted; a device's own fault only "no abnormality". The server refuses others.
 */
export const dealResultsFor = (type: AlarmType): readonly DealResult[] => {
  switch (ALARM_SOURCE[type]) {
    case 'fall':
      return DEAL_RESULTS;
    case 'device':
      return ['NO_ABNORMALITY'];
    default:
      return DEAL_RESULTS.filter((r) => !POSTURE_RESULTS.includes(r));
  }
};

/** What an alarm's figure measured: heart and breathing rate per minute, movement 0–100, battery per cent. */
export const MEASURE_QUANTITIES = ['heartRate', 'breathRate', 'movement', 'battery'] as const;
export type MeasureQuantity = (typeof MEASURE_QUANTITIES)[number];
export const MEASURE_UNITS: Readonly<Record<MeasureQuantity, '/min' | '%' | null>> = {
  heartRate: '/min',
  breathRate: '/min',
  movement: null,
  battery: '%',
};

/**
 * The figure that raised an alarm (decision 0036): what was measured and how much, the limit
 * it crossed and on which side, and how long the condition had held when it was raised. An
 * alarm of an event (a fall, a button) has none; a duration alarm may have only `seconds`.
 */
export interface AlarmMeasure {
  quantity: MeasureQuantity | null;
  value: number | null;
  limit: number | null;
  side: 'below' | 'above' | null;
  seconds: number | null;
}

/** The spec's duration keys of the seven sleep-monitor alarms, in seconds. */
export const SLEEP_DURATION_KEYS = {
  LEAVE_BED: 'leftBedTime',
  BREATH_STOP: 'breathStopDuration',
  BODY_MOVE: 'manyBodyMoveDuration',
  NO_BODY_MOVE: 'noBodyMove',
  NO_TURN_OVER: 'noTurnOver',
  BREATH_ABNORMAL: 'breathExceptionDuration',
  HEART_ABNORMAL: 'heartExceptionDuration',
} as const satisfies Partial<Record<AlarmType, string>>;
export type SleepAlarmType = keyof typeof SLEEP_DURATION_KEYS;
export type SleepDurationKey = (typeof SLEEP_DURATION_KEYS)[SleepAlarmType];
export const SLEEP_ALARM_TYPES = Object.keys(SLEEP_DURATION_KEYS) as SleepAlarmType[];

/** Infrared empty-room alarm: hours without motion the settings may choose (spec section 9). */
export const NO_MOTION_HOURS = [8, 12, 24] as const;
export type NoMotionHours = (typeof NO_MOTION_HOURS)[number];

/** A daily time range, HH:mm to HH:mm; an end before the start runs past midnight; equal ends mean all day. */
export interface TimeRange {
  start: string;
  end: string;
}

/** The whole day. */
export const ALL_DAY: TimeRange = { start: '00:00', end: '00:00' };

/** Minutes after midnight of an HH:mm. */
export const minutesOf = (hhmm: string): number => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

/** Whether a minute of the day (0–1439) lies in the range: start included, end excluded. */
export const inTimeRange = (range: TimeRange, minute: number): boolean => {
  const start = minutesOf(range.start);
  const end = minutesOf(range.end);
  if (start === end) return true;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
};

/**
 * What a bed's alarms are judged by: the seven sleep-monitor alarms' durations (seconds), the
 * limits they compare with and their time ranges, the door and infrared rules, and which types
 * are watched at all. The server fills it from the bed's settings over its community's over
 * these defaults.
 */
export interface AlarmRules {
  /** Types not watched for this bed (the settings switched them off). */
  off: readonly AlarmType[];
  durations: Record<SleepDurationKey, number>;
  /** The time range each sleep-monitor alarm is watched in. */
  ranges: Record<SleepAlarmType, TimeRange>;
  /** Breathing below or above, per minute, is abnormal (0: none measured, never abnormal). */
  breathMin: number;
  breathMax: number;
  heartMin: number;
  heartMax: number;
  /** Movement (0–100) at or above which a sample counts as much body movement. */
  bodyMoveAbove: number;
  /** Movement (0–100) at or above which a sample counts as turning over. */
  turnOverAbove: number;
  /** A door opened inside this range raises DOOR. */
  doorRange: TimeRange;
  noMotionHours: NoMotionHours;
  /** A battery report at or below this per cent raises LOW_BATTERY; the alarm clears at 2× it. */
  lowBatteryPercent: number;
  levels: Record<AlarmType, AlarmLevel>;
  /** Per level: an alarm whose condition clears by itself stays pending until a person handles it (level 1 always). */
  latch: Record<AlarmLevel, boolean>;
  /** Per level: a condition alarm handled while the condition holds is raised again after this many minutes if it still holds. */
  snoozeMinutes: Record<AlarmLevel, number>;
}

export const defaultAlarmLevels = (): Record<AlarmType, AlarmLevel> =>
  Object.fromEntries(
    (Object.keys(ALARM_SOURCE) as AlarmType[]).map((t) => [t, DEFAULT_LEVEL1_TYPES.includes(t) ? 1 : 2]),
  ) as Record<AlarmType, AlarmLevel>;

/** The rules of a bed with no settings of its own or of its community. */
export const defaultAlarmRules = (): AlarmRules => ({
  off: [],
  durations: {
    leftBedTime: 600,
    breathStopDuration: 30,
    manyBodyMoveDuration: 120,
    noBodyMove: 3600,
    noTurnOver: 7200,
    breathExceptionDuration: 120,
    heartExceptionDuration: 120,
  },
  ranges: {
    LEAVE_BED: ALL_DAY,
    BREATH_STOP: ALL_DAY,
    BODY_MOVE: ALL_DAY,
    NO_BODY_MOVE: ALL_DAY,
    NO_TURN_OVER: ALL_DAY,
    BREATH_ABNORMAL: ALL_DAY,
    HEART_ABNORMAL: ALL_DAY,
  },
  breathMin: 8,
  breathMax: 30,
  heartMin: 40,
  heartMax: 120,
  bodyMoveAbove: 60,
  turnOverAbove: 30,
  doorRange: { start: '22:00', end: '06:00' },
  noMotionHours: 12,
  lowBatteryPercent: 15,
  levels: defaultAlarmLevels(),
  latch: { ...DEFAULT_LATCH },
  snoozeMinutes: { ...DEFAULT_SNOOZE_MINUTES },
});

/**
 * Latching (IEC 60601-1-8): a level 1 alarm whose condition clears by itself stays on the
 * consoles, marked resolved, until a person handles it; level 2 only where the provider says so.
 */
export const DEFAULT_LATCH: Readonly<Record<AlarmLevel, boolean>> = { 1: true, 2: false };
/** A handled condition alarm is raised again after this many minutes if its condition still holds. */
export const DEFAULT_SNOOZE_MINUTES: Readonly<Record<AlarmLevel, number>> = { 1: 10, 2: 30 };
export const SNOOZE_MINUTES_RANGE = { min: 5, max: 240 } as const;

/** Voice modes (spec document 2 section 4): 0 silent, 1 audio file, 2 speech once, 3 speech repeated. */
export const VOICE_WAYS = [0, 1, 2, 3] as const;
export type VoiceWay = (typeof VOICE_WAYS)[number];
/** Out of the box: a red alarm is spoken until handled, an orange one once. */
export const DEFAULT_VOICE_WAY: Readonly<Record<AlarmLevel, VoiceWay>> = { 1: 3, 2: 2 };
