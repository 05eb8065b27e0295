import {
  ALARM_TYPES,
  defaultAlarmRules,
  SLEEP_ALARM_TYPES,
  type AlarmType,
  type BedAlarmRules,
  type SleepDurationKey,
  type TimeRange,
} from '@vigil/contract/browser';

/** The bed list, where the screen is opened from and returns to. */
export const LIST_PATH = '/BunkManage/index';

/** What the bed list hands the screen in the route's state, so the header can name the resident at once. */
export interface BedAlarmState {
  userName?: string | null;
  bed?: string | null;
}

/** Types the "other sensors" grid switches, in the order shown; FENCE has its own settings and keeps its state. */
export const OTHER_TYPES: readonly AlarmType[] = [
  'FALL',
  'FALL_SUSPECTED',
  'SITTING_UP',
  'SOS',
  'BADGE_SOS',
  'DOOR',
  'SMOKE',
  'GAS',
  'CO',
  'FLOOD',
  'NO_MOTION',
  'MAT_DISLODGED',
  'CONNECTION',
  'LOW_BATTERY',
];

/** Limits of the rules, as the contract's BedAlarmRulesSchema has them (the browser cannot import zod). */
export const DURATION_LIMITS: Readonly<Record<SleepDurationKey, readonly [number, number]>> = {
  leftBedTime: [10, 86_400],
  breathStopDuration: [5, 600],
  manyBodyMoveDuration: [10, 7_200],
  noBodyMove: [60, 86_400],
  noTurnOver: [300, 86_400],
  breathExceptionDuration: [10, 7_200],
  heartExceptionDuration: [10, 7_200],
};
export const LIMITS = {
  breathMin: [1, 60],
  breathMax: [5, 100],
  heartMin: [20, 200],
  heartMax: [40, 300],
  bodyMoveAbove: [1, 100],
  turnOverAbove: [1, 100],
  lowBatteryPercent: [5, 50],
} as const satisfies Record<string, readonly [number, number]>;
export type LimitKey = keyof typeof LIMITS;

/** What the form edits: the rules without `off`, and whether each type is watched. */
export interface AlarmFormValues {
  rules: Omit<BedAlarmRules, 'off'>;
  watched: Record<AlarmType, boolean>;
}

const copyRange = (range: TimeRange): TimeRange => ({ start: range.start, end: range.end });

/** The rules a bed has with no settings of its own (the contract's defaults, without the levels). */
export const defaultRules = (): BedAlarmRules => {
  // Levels, latching and snooze are the provider's, not a bed's.
  const { levels: _levels, latch: _latch, snoozeMinutes: _snooze, ...rules } = defaultAlarmRules();
  return {
    ...rules,
    off: [...rules.off],
    durations: { ...rules.durations },
    ranges: Object.fromEntries(
      SLEEP_ALARM_TYPES.map((type) => [type, copyRange(rules.ranges[type])]),
    ) as BedAlarmRules['ranges'],
    doorRange: copyRange(rules.doorRange),
  };
};

/** The form's values from the server's rules. */
export const valuesOf = (rules: BedAlarmRules): AlarmFormValues => ({
  rules: {
    durations: { ...rules.durations },
    ranges: Object.fromEntries(
      SLEEP_ALARM_TYPES.map((type) => [type, copyRange(rules.ranges[type])]),
    ) as BedAlarmRules['ranges'],
    breathMin: rules.breathMin,
    breathMax: rules.breathMax,
    heartMin: rules.heartMin,
    heartMax: rules.heartMax,
    bodyMoveAbove: rules.bodyMoveAbove,
    turnOverAbove: rules.turnOverAbove,
    doorRange: copyRange(rules.doorRange),
    noMotionHours: rules.noMotionHours,
    lowBatteryPercent: rules.lowBatteryPercent,
  },
  watched: Object.fromEntries(ALARM_TYPES.map((type) => [type, !rules.off.includes(type)])) as Record<
    AlarmType,
    boolean
  >,
});

/** The whole rules object a save sends: every field, `off` in the contract's type order. */
export const rulesOf = (values: AlarmFormValues): BedAlarmRules => {
  const { rules } = values;
  return {
    off: ALARM_TYPES.filter((type) => values.watched[type] === false),
    durations: { ...rules.durations },
    ranges: Object.fromEntries(
      SLEEP_ALARM_TYPES.map((type) => [type, copyRange(rules.ranges[type])]),
    ) as BedAlarmRules['ranges'],
    breathMin: rules.breathMin,
    breathMax: rules.breathMax,
    heartMin: rules.heartMin,
    heartMax: rules.heartMax,
    bodyMoveAbove: rules.bodyMoveAbove,
    turnOverAbove: rules.turnOverAbove,
    doorRange: copyRange(rules.doorRange),
    noMotionHours: rules.noMotionHours,
    lowBatteryPercent: rules.lowBatteryPercent,
  };
};

/** Whether two sets of form values hold the same rules. */
export const sameValues = (a: AlarmFormValues, b: AlarmFormValues): boolean =>
  JSON.stringify(rulesOf(a)) === JSON.stringify(rulesOf(b));

/** The whole day, as the "All day" box sets it (equal ends mean all day). */
export const ALL_DAY_RANGE: TimeRange = { start: '00:00', end: '00:00' };
export const isAllDay = (range: TimeRange | undefined): boolean => !range || range.start === range.end;

/** A duration in seconds as people read it: "45 s", "10 min", "1 h 30 min". */
export const durationParts = (seconds: number): { h: number; min: number; s: number } => ({
  h: Math.floor(seconds / 3600),
  min: Math.floor((seconds % 3600) / 60),
  s: seconds % 60,
});
