import {
  DEFAULT_SLEEP_SETTING,
  LEAVE_BED_MODES,
  MATTRESSES,
  SLEEP_SENSITIVITIES,
  type CallResult,
  type Calls,
  type SleepConfig,
} from '@vigil/contract';

/** A resident's sleep settings as the calls show them: saved ones, or the platform's defaults. */
export type SleepSetting = CallResult<Calls['bedSleepSetting']>;

/** What the store holds of one resident (resident_sleep_setting). */
export interface StoredSleepSetting {
  leaveBedMode: string;
  sleepTime: string;
  wakeTime: string;
  sensitivity: string;
  mattress: string;
}

const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const oneOf = <T extends string>(values: readonly T[], value: string): value is T =>
  (values as readonly string[]).includes(value);

/**
 * A stored row's settings, or null when it holds a value the calls would refuse (rows copied by
 * migration 0017 from the old community jsonb were never checked): such a resident has the
 * defaults, as if nothing had been saved, rather than a night or a watch nobody chose.
 */
export const storedSleepSetting = (row: StoredSleepSetting): SleepConfig | null => {
  const { leaveBedMode, sleepTime, wakeTime, sensitivity, mattress } = row;
  if (
    !oneOf(LEAVE_BED_MODES, leaveBedMode) ||
    !oneOf(SLEEP_SENSITIVITIES, sensitivity) ||
    !oneOf(MATTRESSES, mattress) ||
    !CLOCK_TIME.test(sleepTime) ||
    !CLOCK_TIME.test(wakeTime) ||
    sleepTime === wakeTime
  )
    return null;
  return { leaveBedMode, sleepTime, wakeTime, sensitivity, mattress };
};

/** The settings in force for a resident: the saved row when it is readable, else the defaults. */
export const effectiveSleepSetting = (
  residentId: number,
  row: (StoredSleepSetting & { updatedAt: Date }) | undefined,
): SleepSetting => {
  const saved = row ? storedSleepSetting(row) : null;
  return saved && row
    ? { userId: residentId, ...saved, source: 'resident', updateTime: row.updatedAt.toISOString() }
    : { userId: residentId, ...DEFAULT_SLEEP_SETTING, source: 'default', updateTime: null };
};
