import type { MinuteOfDay } from './engine/engine-types.ts';

/**
 * The minute of the day (0–1439) of an instant in a time zone. Asked for every vitals sample, so
 * the zone's offset is worked out once per quarter hour (offsets change at most on the quarter
 * hour, at daylight-saving changes) instead of formatting every instant.
 */
export const minuteOfDayIn = (timeZone: string): MinuteOfDay => {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: 'numeric', hourCycle: 'h23' });
  const QUARTER = 15 * 60_000;
  let cachedQuarter = Number.NaN;
  /** Local minute of the day at the start of the cached quarter hour. */
  let cachedMinute = 0;
  return (at: Date) => {
    const ms = at.getTime();
    const quarter = Math.floor(ms / QUARTER);
    if (quarter !== cachedQuarter) {
      const parts = format.formatToParts(new Date(quarter * QUARTER));
      const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
      const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
      cachedQuarter = quarter;
      cachedMinute = hour * 60 + minute;
    }
    return (cachedMinute + Math.floor((ms - quarter * QUARTER) / 60_000)) % 1440;
  };
};
