/**
 * Numbers, durations, dates and clock times as the report's language writes them, in the
 * platform's time zone. Every figure that is null prints as "—": a report never shows 0 for
 * what the data could not support.
 */
import type { Language } from '@vigil/contract';
import type { Translate } from './texts/index.ts';

export const DASH = '—';

interface Formatters {
  numbers: Map<number, Intl.NumberFormat>;
  percent: Intl.NumberFormat;
  clock: Intl.DateTimeFormat;
  hour: Intl.DateTimeFormat;
  minuteOfHour: Intl.DateTimeFormat;
  longDate: Intl.DateTimeFormat;
  shortDate: Intl.DateTimeFormat;
  month: Intl.DateTimeFormat;
  dateTime: Intl.DateTimeFormat;
}

/* Building an Intl formatter costs far more than using one; a process serves few languages and zones. */
const cache = new Map<string, Formatters>();

function formattersOf(language: Language, timeZone: string): Formatters {
  const key = `${language} ${timeZone}`;
  let found = cache.get(key);
  if (!found) {
    // Calendar dates (a night, a month) are not instants: read at noon UTC they never shift a day.
    const calendar = { timeZone: 'UTC' } as const;
    // ICU's Korean data writes "PM 10:10" with Latin letters; Korean care records use the 24-hour clock.
    const cycle = language === 'ko' ? ({ hourCycle: 'h23' } as const) : {};
    found = {
      numbers: new Map(),
      percent: new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 }),
      clock: new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit', timeZone, ...cycle }),
      hour: new Intl.DateTimeFormat(language, { hour: 'numeric', timeZone, ...cycle }),
      minuteOfHour: new Intl.DateTimeFormat('en-US', { minute: 'numeric', timeZone }),
      longDate: new Intl.DateTimeFormat(language, { dateStyle: 'long', ...calendar }),
      shortDate: new Intl.DateTimeFormat(language, { weekday: 'short', month: 'short', day: 'numeric', ...calendar }),
      month: new Intl.DateTimeFormat(language, { year: 'numeric', month: 'long', ...calendar }),
      dateTime: new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone, ...cycle }),
    };
    cache.set(key, found);
  }
  return found;
}

const noonOf = (day: string): Date => new Date(`${day}T12:00:00Z`);

export class ReportFormat {
  private readonly f: Formatters;

  /** Throws a RangeError for a time zone Intl does not know, before anything is drawn. */
  constructor(
    readonly language: Language,
    readonly timeZone: string,
    private readonly t: Translate,
  ) {
    this.f = formattersOf(language, timeZone);
  }

  number(value: number | null | undefined, digits = 0): string {
    if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
    let format = this.f.numbers.get(digits);
    if (!format) {
      format = new Intl.NumberFormat(this.language, { minimumFractionDigits: digits, maximumFractionDigits: digits });
      this.f.numbers.set(digits, format);
    }
    return format.format(value);
  }

  /** A share 0–1 as a whole percentage. */
  percent(share: number | null | undefined): string {
    if (share === null || share === undefined || !Number.isFinite(share)) return DASH;
    return this.f.percent.format(share);
  }

  /** Seconds as hours and minutes ("7 h 12 min"), or minutes alone under an hour. */
  duration(seconds: number | null | undefined): string {
    if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return DASH;
    const minutes = Math.round(seconds / 60);
    if (minutes < 60) return this.t('unit.minutes', { m: this.number(minutes) });
    return this.t('unit.hoursMinutes', { h: this.number(Math.floor(minutes / 60)), m: this.number(minutes % 60) });
  }

  /** A moment as a clock time in the platform's zone. */
  clock(unix: number | null | undefined): string {
    if (unix === null || unix === undefined) return DASH;
    return this.f.clock.format(unix * 1000);
  }

  /** A full hour's label for a time axis ("22", "10 PM", "22時"). */
  hour(unix: number): string {
    return this.f.hour.format(unix * 1000);
  }

  /** The local full hours between two moments, for a time axis. */
  fullHours(start: number, end: number): number[] {
    const hours: number[] = [];
    // Zones are offset from UTC by whole quarter hours, so every local full hour is on a quarter.
    for (let t = Math.ceil(start / 900) * 900; t <= end; t += 900) {
      if (this.f.minuteOfHour.format(t * 1000) === '0') hours.push(t);
    }
    return hours;
  }

  /** A night ("2026-03-02") as a long date. */
  longDate(day: string): string {
    return this.f.longDate.format(noonOf(day));
  }

  /** A night with its weekday, for the monthly table ("Mon, Mar 2"). */
  shortDate(day: string): string {
    return this.f.shortDate.format(noonOf(day));
  }

  /** A month ("2026-03") as its name and year. */
  month(month: string): string {
    return this.f.month.format(noonOf(`${month}-15`));
  }

  /** An ISO 8601 moment as date and time. */
  dateTime(iso: string | null | undefined): string {
    if (!iso) return DASH;
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? DASH : this.f.dateTime.format(date);
  }
}
