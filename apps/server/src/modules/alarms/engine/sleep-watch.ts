import {
  inTimeRange,
  type AlarmMeasure,
  SLEEP_ALARM_TYPES,
  SLEEP_DURATION_KEYS,
  type AlarmRules,
  type SleepAlarmType,
} from '@vigil/contract';
import type { Subject, VitalsSample } from './engine-types.ts';
import type { SpellVerdict } from './shared-spell.ts';

/** Whether one sample shows the condition of a sleep-monitor alarm (before duration and time range). */
export const sleepCondition = (type: SleepAlarmType, v: VitalsSample, rules: AlarmRules): boolean => {
  switch (type) {
    case 'LEAVE_BED':
      return !v.inBed;
    case 'BREATH_STOP':
      return v.inBed && v.rr === 0;
    case 'BODY_MOVE':
      return v.inBed && v.move >= rules.bodyMoveAbove;
    case 'NO_BODY_MOVE':
      return v.inBed && v.move === 0;
    case 'NO_TURN_OVER':
      return v.inBed && v.move < rules.turnOverAbove;
    case 'BREATH_ABNORMAL':
      return v.inBed && v.rr > 0 && (v.rr < rules.breathMin || v.rr > rules.breathMax);
    case 'HEART_ABNORMAL':
      return v.inBed && v.hr > 0 && (v.hr < rules.heartMin || v.hr > rules.heartMax);
  }
};

/** How one sleep-monitor alarm stands for one device. */
export interface Tracker {
  /** When the condition began holding without a break; null while it does not hold. */
  since: Date | null;
  /** The alarm is raised (open) for the current spell. */
  raised: boolean;
  /** The value that made the last sample count, for the alarm's detail. */
  value: number;
  /** With shared spells (several instances): the number of the spell `since` belongs to; -1 without. */
  spell: number;
  /** With shared spells: the raises claimed on that spell, as last known here. */
  gen: number;
}

export type SleepTrackers = Record<SleepAlarmType, Tracker>;

export const newTrackers = (): SleepTrackers =>
  Object.fromEntries(
    SLEEP_ALARM_TYPES.map((t) => [t, { since: null, raised: false, value: 0, spell: -1, gen: 0 }]),
  ) as SleepTrackers;

export const durationOf = (type: SleepAlarmType, rules: AlarmRules): number =>
  rules.durations[SLEEP_DURATION_KEYS[type]];

/** Whether the type is watched for this bed at this minute of the day. */
export const watched = (type: SleepAlarmType, rules: AlarmRules, minute: number): boolean =>
  !rules.off.includes(type) && inTimeRange(rules.ranges[type], minute);

/**
 * How one sample stands for one type: the condition and counted (`hold`), the condition but not
 * watched (out of its time range, no resident checked in, away: `pause`), or not the condition (`clear`).
 */
export const verdictOf = (type: SleepAlarmType, v: VitalsSample, subject: Subject, minute: number): SpellVerdict => {
  if (!sleepCondition(type, v, subject.rules)) return 'clear';
  const counted = subject.occupied && watched(type, subject.rules, minute) && !(type === 'LEAVE_BED' && subject.absent);
  return counted ? 'hold' : 'pause';
};

/** The measured value a sample gives an alarm's detail. */
export const valueOf = (type: SleepAlarmType, v: VitalsSample): number => {
  switch (type) {
    case 'BREATH_STOP':
    case 'BREATH_ABNORMAL':
      return v.rr;
    case 'HEART_ABNORMAL':
      return v.hr;
    case 'BODY_MOVE':
    case 'NO_BODY_MOVE':
    case 'NO_TURN_OVER':
      return v.move;
    case 'LEAVE_BED':
      return 0;
  }
};

/** Which limit a rate outside its range crossed. */
const crossed = (value: number, min: number, max: number): Pick<AlarmMeasure, 'limit' | 'side'> =>
  value < min ? { limit: min, side: 'below' } : { limit: max, side: 'above' };

/**
 * The figure a sleep-monitor alarm is raised with: the value of the sample that made the condition
 * count, the bed's limit it crossed and on which side, and how long it had held (seconds).
 */
export const measureOf = (type: SleepAlarmType, value: number, rules: AlarmRules, seconds: number): AlarmMeasure => {
  const held = { quantity: null, value: null, limit: null, side: null, seconds };
  switch (type) {
    case 'HEART_ABNORMAL':
      return { ...held, quantity: 'heartRate', value, ...crossed(value, rules.heartMin, rules.heartMax) };
    case 'BREATH_ABNORMAL':
      return { ...held, quantity: 'breathRate', value, ...crossed(value, rules.breathMin, rules.breathMax) };
    case 'BREATH_STOP':
      return { ...held, quantity: 'breathRate', value: 0 };
    case 'BODY_MOVE':
      return { ...held, quantity: 'movement', value, limit: rules.bodyMoveAbove, side: 'above' };
    case 'LEAVE_BED':
    case 'NO_BODY_MOVE':
    case 'NO_TURN_OVER':
      // How long is the figure: out of bed, still, not turned over.
      return held;
  }
};
