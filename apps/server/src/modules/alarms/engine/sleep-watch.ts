import {
  inTimeRange,
  SLEEP_ALARM_TYPES,
  SLEEP_DURATION_KEYS,
  type AlarmRules,
  type SleepAlarmType,
} from '@vigil/contract';
import type { VitalsSample } from './engine-types.ts';

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
}

export type SleepTrackers = Record<SleepAlarmType, Tracker>;

export const newTrackers = (): SleepTrackers =>
  Object.fromEntries(SLEEP_ALARM_TYPES.map((t) => [t, { since: null, raised: false, value: 0 }])) as SleepTrackers;

export const durationOf = (type: SleepAlarmType, rules: AlarmRules): number =>
  rules.durations[SLEEP_DURATION_KEYS[type]];

/** Whether the type is watched for this bed at this minute of the day. */
export const watched = (type: SleepAlarmType, rules: AlarmRules, minute: number): boolean =>
  !rules.off.includes(type) && inTimeRange(rules.ranges[type], minute);

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
