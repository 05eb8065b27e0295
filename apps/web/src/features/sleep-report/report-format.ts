import type { ReportResident } from '@vigil/contract/browser';

/**
 * How the sleep reports write their figures. A figure the night's data cannot support is null
 * on the wire and a dash here, never 0. Times are written in a time zone: the platform's when it
 * is known (the zone nights are named in), else the browser's.
 */

export const DASH = '—';
/** Below this share of the night with data, a scored night is read with care. */
export const LOW_COVERAGE = 0.6;

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatterFor = (timeZone: string | undefined): Intl.DateTimeFormat => {
  const key = timeZone ?? '';
  let formatter = formatters.get(key);
  if (!formatter) {
    const options: Intl.DateTimeFormatOptions = {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    };
    try {
      formatter = new Intl.DateTimeFormat('en-CA', { ...options, timeZone });
    } catch {
      // A zone this browser does not know: its own zone is the next best.
      formatter = new Intl.DateTimeFormat('en-CA', options);
    }
    formatters.set(key, formatter);
  }
  return formatter;
};

/** The local date (YYYY-MM-DD) and clock time (HH:mm) of an instant in milliseconds. */
export const localParts = (ms: number, timeZone?: string): { date: string; clock: string } => {
  const parts = formatterFor(timeZone).formatToParts(new Date(ms));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return { date: `${get('year')}-${get('month')}-${get('day')}`, clock: `${get('hour')}:${get('minute')}` };
};

/** A clock time (HH:mm) of Unix seconds; a dash when there is none. */
export const clockTime = (unix: number | null | undefined, timeZone?: string): string =>
  unix === null || unix === undefined ? DASH : localParts(unix * 1000, timeZone).clock;

/** Date and time (YYYY-MM-DD HH:mm) of an ISO instant; a dash when there is none or it is unreadable. */
export const instantText = (iso: string | null | undefined, timeZone?: string): string => {
  const ms = iso ? Date.parse(iso) : NaN;
  if (Number.isNaN(ms)) return DASH;
  const { date, clock } = localParts(ms, timeZone);
  return `${date} ${clock}`;
};

/** Hours and whole minutes of a duration in seconds, rounded to the minute. */
export const durationParts = (seconds: number): { hours: number; minutes: number } => {
  const total = Math.round(seconds / 60);
  return { hours: Math.floor(total / 60), minutes: total % 60 };
};

/** A share (0–1) as a whole percentage in the interface language; a dash when there is none. */
export const percentText = (share: number | null | undefined, language: string): string =>
  share === null || share === undefined
    ? DASH
    : new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 }).format(share);

/** A number with at most `digits` decimals in the interface language; a dash when there is none. */
export const numberText = (value: number | null | undefined, language: string, digits = 1): string =>
  value === null || value === undefined
    ? DASH
    : new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value);

export const AHI_GRADES = ['normal', 'mild', 'moderate', 'severe'] as const;
export type AhiGrade = (typeof AHI_GRADES)[number];

/** The usual apnea grades: under 5 normal, 5–15 mild, 15–30 moderate, 30 and more severe. */
export const ahiGrade = (ahi: number): AhiGrade =>
  ahi < 5 ? 'normal' : ahi < 15 ? 'mild' : ahi < 30 ? 'moderate' : 'severe';

/** Where the resident sleeps: "area / floor · room · bed"; null when they have no bed. */
export const placeOf = (resident: Pick<ReportResident, 'floorArea' | 'room' | 'bunk'>): string | null =>
  [resident.floorArea, resident.room, resident.bunk].filter(Boolean).join(' · ') || null;

const DAY_MS = 86_400_000;
const utcOf = (night: string): number => Date.parse(`${night}T00:00:00Z`);

/** The night `days` after (or before) a night, both YYYY-MM-DD. */
export const addDays = (night: string, days: number): string =>
  new Date(utcOf(night) + days * DAY_MS).toISOString().slice(0, 10);

/** Today's date in a time zone (the browser's when none is given). */
export const today = (timeZone?: string, nowMs: number = Date.now()): string => localParts(nowMs, timeZone).date;

/** The first and last of the `count` nights up to and including `last`. */
export const lastNights = (last: string, count: number): [string, string] => [addDays(last, -(count - 1)), last];

/** Minutes and share of each stage of a night. */
export const stageShares = (stages: { wake: number; rem: number; light: number; deep: number }) => {
  const total = stages.wake + stages.rem + stages.light + stages.deep;
  return (['wake', 'rem', 'light', 'deep'] as const).map((stage) => ({
    stage,
    minutes: Math.round(stages[stage] / 60),
    share: total > 0 ? stages[stage] / total : null,
  }));
};
