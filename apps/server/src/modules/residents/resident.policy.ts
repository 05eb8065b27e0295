import { absenceTimesProblem as sharedAbsenceRule, RESIDENT_LIMITS, type MessageKey } from '@vigil/contract';

/**
 * Pure rules of the residents module: ages from birth dates, which residents may be deleted,
 * and the time rules of temporary absences. Dates are calendar dates (YYYY-MM-DD) in the
 * server's time zone.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The calendar date of an instant in the server's time zone. */
export const localDate = (at: Date): string =>
  `${pad(at.getFullYear(), 4)}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;

const parts = (date: string) => {
  const [y = 0, m = 0, d = 0] = date.split('-').map(Number);
  return { y, m, d };
};

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Whole years from a birth date to a day; the birthday itself counts (29 February birthdays count on 1 March in common years). */
export const ageOn = (birthDate: string, today: string): number => {
  const b = parts(birthDate);
  const t = parts(today);
  const hadBirthday = t.m > b.m || (t.m === b.m && t.d >= b.d);
  return t.y - b.y - (hadBirthday ? 0 : 1);
};

/**
 * The last birth date of anyone at least `years` old on `today`: the same day `years` earlier
 * (28 February when that year has no 29th).
 */
export const bornOnOrBefore = (today: string, years: number): string => {
  const t = parts(today);
  const y = t.y - years;
  const d = t.m === 2 && t.d === 29 && !isLeap(y) ? 28 : t.d;
  return `${pad(y, 4)}-${pad(t.m)}-${pad(d)}`;
};

/** Birth-date bounds of an age range (whole years, inclusive) for SQL: born on or before / born after. */
export const ageRangeBounds = (today: string, min?: number, max?: number) => ({
  bornOnOrBefore: min === undefined ? undefined : bornOnOrBefore(today, min),
  bornAfter: max === undefined ? undefined : bornOnOrBefore(today, max + 1),
});

/** Why a birth date is refused, or null: not in the future and an age of at most 130 years. */
export const birthDateProblem = (birthDate: string, today: string): MessageKey | null => {
  if (birthDate > today) return 'resident.birthDateFuture';
  if (ageOn(birthDate, today) > RESIDENT_LIMITS.maxAgeYears) return 'resident.birthDateTooOld';
  return null;
};

/**
 * A resident is deleted outright only while registered and never checked in: nobody has watched
 * over them yet, so no care history is lost. Anyone admitted once is logged off instead (their
 * data is kept, spec doc 1 §4).
 */
export const canDelete = (resident: { state: string; admittedAt: Date | null }, hasBed: boolean): boolean =>
  resident.state === 'registered' && resident.admittedAt === null && !hasBed;

/** Why a new absence's times are refused, as a message key, or null (the contract's shared rule). */
export const absenceTimesProblem = (
  start: Date,
  end: Date | null,
  now: Date,
  admittedAt: Date | null,
): MessageKey | null => {
  const problem = sharedAbsenceRule(start, end, now, admittedAt);
  return problem ? `absence.${problem}` : null;
};

/** Not yet ended: an absence under way or planned. One at a time per resident. */
export const isOpen = (absence: { endsAt: Date | null }, now: Date): boolean =>
  absence.endsAt === null || absence.endsAt.getTime() > now.getTime();

/** Under way now: bed-leaving alarms pause while a checked-in resident is away. */
export const isActive = (absence: { startsAt: Date; endsAt: Date | null }, now: Date): boolean =>
  absence.startsAt.getTime() <= now.getTime() && isOpen(absence, now);
