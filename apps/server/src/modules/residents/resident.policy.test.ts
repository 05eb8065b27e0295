import { describe, expect, it } from 'vitest';
import {
  absenceTimesProblem,
  ageOn,
  ageRangeBounds,
  birthDateProblem,
  bornOnOrBefore,
  canDelete,
  isActive,
  isOpen,
  localDate,
} from './resident.policy.ts';

describe('resident policy', () => {
  it('counts whole years, the birthday included', () => {
    expect(ageOn('1946-03-15', '2026-03-15')).toBe(80);
    expect(ageOn('1946-03-16', '2026-03-15')).toBe(79);
    expect(ageOn('1946-12-31', '2026-01-01')).toBe(79);
    expect(ageOn('2026-03-15', '2026-03-15')).toBe(0);
    // 29 February birthdays count on 1 March in common years.
    expect(ageOn('2000-02-29', '2025-02-28')).toBe(24);
    expect(ageOn('2000-02-29', '2025-03-01')).toBe(25);
    expect(ageOn('2000-02-29', '2024-02-29')).toBe(24);
  });

  it('turns age ranges into birth-date bounds that agree with ageOn', () => {
    expect(bornOnOrBefore('2026-03-15', 80)).toBe('1946-03-15');
    expect(bornOnOrBefore('2024-02-29', 1)).toBe('2023-02-28');
    expect(bornOnOrBefore('2024-02-29', 4)).toBe('2020-02-29');
    expect(ageRangeBounds('2026-03-15', 70, 80)).toEqual({ bornOnOrBefore: '1956-03-15', bornAfter: '1945-03-15' });
    expect(ageRangeBounds('2026-03-15')).toEqual({ bornOnOrBefore: undefined, bornAfter: undefined });
    // Every birth date of four years around the bounds lands where its age says.
    for (const today of ['2026-03-15', '2024-02-29', '2025-02-28', '2025-03-01']) {
      const { bornOnOrBefore: upper, bornAfter: lower } = ageRangeBounds(today, 80, 81);
      const start = new Date(`${Number(today.slice(0, 4)) - 83}-01-01T00:00:00Z`);
      for (let d = 0; d < 4 * 366; d++) {
        const birth = new Date(start.getTime() + d * 86_400_000).toISOString().slice(0, 10);
        const age = ageOn(birth, today);
        const inside = birth <= (upper ?? '') && birth > (lower ?? '');
        expect(inside, `${birth} on ${today}: ${age}`).toBe(age >= 80 && age <= 81);
      }
    }
  });

  it('refuses birth dates in the future or over 130 years ago', () => {
    expect(birthDateProblem('2026-03-16', '2026-03-15')).toBe('resident.birthDateFuture');
    expect(birthDateProblem('2026-03-15', '2026-03-15')).toBeNull();
    expect(birthDateProblem('1896-03-15', '2026-03-15')).toBeNull();
    expect(birthDateProblem('1895-03-16', '2026-03-15')).toBeNull();
    expect(birthDateProblem('1895-03-15', '2026-03-15')).toBe('resident.birthDateTooOld');
  });

  it('formats the local calendar date', () => {
    expect(localDate(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(localDate(new Date(999, 11, 31, 12))).toBe('0999-12-31');
  });

  it('deletes only residents registered and never admitted, without a bed', () => {
    expect(canDelete({ state: 'registered', admittedAt: null }, false)).toBe(true);
    expect(canDelete({ state: 'registered', admittedAt: null }, true)).toBe(false);
    expect(canDelete({ state: 'registered', admittedAt: new Date() }, false)).toBe(false);
    for (const state of ['checkedIn', 'checkedOut', 'loggedOff']) {
      expect(canDelete({ state, admittedAt: null }, false)).toBe(false);
    }
  });

  it('checks absence times: start window, end after start and now, length, not before admission', () => {
    const now = new Date('2026-03-15T12:00:00Z');
    const h = (n: number) => new Date(now.getTime() + n * 3_600_000);
    expect(absenceTimesProblem(now, null, now, null)).toBeNull();
    expect(absenceTimesProblem(h(-24), h(1), now, null)).toBeNull();
    expect(absenceTimesProblem(h(-24.01), null, now, null)).toBe('absence.startRange');
    expect(absenceTimesProblem(h(30 * 24), null, now, null)).toBeNull();
    expect(absenceTimesProblem(h(30 * 24 + 0.01), null, now, null)).toBe('absence.startRange');
    expect(absenceTimesProblem(h(2), h(2), now, null)).toBe('absence.endBeforeStart');
    expect(absenceTimesProblem(h(-3), h(0), now, null)).toBe('absence.endPast');
    expect(absenceTimesProblem(now, h(366 * 24), now, null)).toBeNull();
    expect(absenceTimesProblem(now, h(366 * 24 + 1), now, null)).toBe('absence.tooLong');
    expect(absenceTimesProblem(h(-2), null, now, h(-1))).toBe('absence.beforeAdmission');
    expect(absenceTimesProblem(h(-1), null, now, h(-1))).toBeNull();
  });

  it('tells open (not ended) from active (under way) absences', () => {
    const now = new Date('2026-03-15T12:00:00Z');
    const h = (n: number) => new Date(now.getTime() + n * 3_600_000);
    expect(isOpen({ endsAt: null }, now)).toBe(true);
    expect(isOpen({ endsAt: now }, now)).toBe(false);
    expect(isOpen({ endsAt: h(1) }, now)).toBe(true);
    expect(isActive({ startsAt: h(-1), endsAt: null }, now)).toBe(true);
    expect(isActive({ startsAt: h(1), endsAt: null }, now)).toBe(false);
    expect(isActive({ startsAt: h(-2), endsAt: h(-1) }, now)).toBe(false);
  });
});
