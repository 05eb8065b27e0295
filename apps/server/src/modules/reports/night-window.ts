/**
 * Which stretch of time is a resident's night, from their sleep settings (`sleepTime`,
 * `wakeTime`, HH:mm in the platform's TIME_ZONE). A night is named by the local date the
 * resident wakes on. It starts `BEFORE_SLEEP_MINUTES` before the usual sleep time, to catch an
 * early bedtime and the time it takes to fall asleep, and ends `AFTER_WAKE_MINUTES` after the
 * usual wake time: the report is due within 15 minutes of the wake time (spec), so that is when
 * the night can be analysed.
 */
export const BEFORE_SLEEP_MINUTES = 120;
export const AFTER_WAKE_MINUTES = 10;

export interface NightWindow {
  /** The local date of waking, YYYY-MM-DD. */
  night: string;
  start: Date;
  end: Date;
}

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** The zone's offset from UTC (ms) at an instant, by formatting it there. */
function offsetAt(ms: number, format: Intl.DateTimeFormat): number {
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour) % 24,
    Number(parts.minute),
    Number(parts.second),
  );
  return asUtc - Math.floor(ms / 1000) * 1000;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** One formatter per zone for the process: building one costs about a millisecond, and the
 * scheduler asks for every resident's night at each look (the server's own thread). */
const formatter = (timeZone: string): Intl.DateTimeFormat => {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  return format;
};

/** The instant of a local date and minute of the day. In a daylight-saving gap the later
 * offset applies; in an overlap the earlier instant. */
export function localInstant(date: string, minuteOfDay: number, timeZone: string): Date {
  const [y, mo, d] = date.split('-').map(Number);
  const wall = Date.UTC(y ?? 1970, (mo ?? 1) - 1, d ?? 1) + minuteOfDay * MINUTE;
  const format = formatter(timeZone);
  // Offsets change at most once within a day: the offsets half a day either side give every
  // instant that can show this wall time.
  const first = wall - offsetAt(wall - DAY / 2, format);
  const second = wall - offsetAt(wall + DAY / 2, format);
  const showsWall = [first, second].filter((at) => at + offsetAt(at, format) === wall);
  // Both show it in an overlap (take the earlier); neither in a gap (take the one after it).
  return new Date(showsWall.length ? Math.min(...showsWall) : Math.max(first, second));
}

/** The local date (YYYY-MM-DD) of an instant. */
export function localDate(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${String(parts.month).padStart(2, '0')}-${String(parts.day).padStart(2, '0')}`;
}

const previousDate = (date: string): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) - DAY).toISOString().slice(0, 10);

/** The night that ends on the morning of `night` (a local date). A sleep time later in the day
 * than the wake time is on the evening before; an earlier one (01:00 to 09:00) the same day. */
export function nightWindow(night: string, sleepTime: string, wakeTime: string, timeZone: string): NightWindow {
  const sleep = minutesOf(sleepTime);
  const wake = minutesOf(wakeTime);
  const sleepDate = sleep >= wake ? previousDate(night) : night;
  return {
    night,
    start: new Date(localInstant(sleepDate, sleep, timeZone).getTime() - BEFORE_SLEEP_MINUTES * MINUTE),
    end: new Date(localInstant(night, wake, timeZone).getTime() + AFTER_WAKE_MINUTES * MINUTE),
  };
}

/** The latest night whose window has ended by `now`: the one a report is due for. */
export function latestEndedNight(now: Date, sleepTime: string, wakeTime: string, timeZone: string): NightWindow {
  const today = localDate(now, timeZone);
  const tonight = nightWindow(today, sleepTime, wakeTime, timeZone);
  return tonight.end.getTime() <= now.getTime()
    ? tonight
    : nightWindow(previousDate(today), sleepTime, wakeTime, timeZone);
}
