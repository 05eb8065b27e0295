import { CONSTANTS } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { afterFailure, lockedMinutes, type LockoutState } from './lockout.policy.ts';

const MIN = 60_000;
const t0 = new Date('2026-03-01T10:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const clean: LockoutState = { failedLogins: 0, firstFailedAt: null, lockedUntil: null };

/** Applies failures at the given offsets and returns every intermediate state. */
const failAt = (offsets: number[], start: LockoutState = clean): LockoutState[] => {
  const states: LockoutState[] = [];
  let state = start;
  for (const offset of offsets) {
    state = afterFailure(state, at(offset));
    states.push(state);
  }
  return states;
};

describe('lockout policy', () => {
  it('uses five failures within 15 minutes and a 15 minute lock', () => {
    expect(CONSTANTS.loginLockout).toEqual({ failures: 5, windowMs: 15 * MIN, lockMs: 15 * MIN });
  });

  it('counts the first failure and remembers when it happened', () => {
    expect(afterFailure(clean, t0)).toEqual({ failedLogins: 1, firstFailedAt: t0, lockedUntil: null });
  });

  it('counts up to four failures without locking', () => {
    const states = failAt([0, MIN, 2 * MIN, 3 * MIN]);
    expect(states.map((s) => s.failedLogins)).toEqual([1, 2, 3, 4]);
    expect(states.every((s) => s.lockedUntil === null)).toBe(true);
    expect(states.every((s) => s.firstFailedAt?.getTime() === t0.getTime())).toBe(true);
  });

  it('locks for 15 minutes on the fifth failure within the window and resets the count', () => {
    const states = failAt([0, MIN, 2 * MIN, 3 * MIN, 14 * MIN]);
    const last = states[4];
    expect(last).toEqual({ failedLogins: 0, firstFailedAt: null, lockedUntil: at(29 * MIN) });
  });

  it('locks on five failures in the same instant', () => {
    const last = failAt([0, 0, 0, 0, 0])[4];
    expect(last?.lockedUntil).toEqual(at(15 * MIN));
  });

  it('starts a new window when the first failure is 15 minutes old', () => {
    const states = failAt([0, MIN, 2 * MIN, 3 * MIN, 15 * MIN]);
    expect(states[4]).toEqual({ failedLogins: 1, firstFailedAt: at(15 * MIN), lockedUntil: null });
  });

  it('does not lock failures spread over more than 15 minutes', () => {
    const states = failAt([0, 4 * MIN, 8 * MIN, 12 * MIN, 16 * MIN, 20 * MIN]);
    expect(states.every((s) => s.lockedUntil === null)).toBe(true);
  });

  it('answers the whole minutes left on a lock, rounded up', () => {
    const locked: LockoutState = { failedLogins: 0, firstFailedAt: null, lockedUntil: at(15 * MIN) };
    expect(lockedMinutes(locked, t0)).toBe(15);
    expect(lockedMinutes(locked, at(1))).toBe(15);
    expect(lockedMinutes(locked, at(MIN))).toBe(14);
    expect(lockedMinutes(locked, at(14 * MIN + 1))).toBe(1);
    expect(lockedMinutes(locked, at(15 * MIN - 1))).toBe(1);
  });

  it('answers 0 when not locked or once the lock has run out', () => {
    expect(lockedMinutes(clean, t0)).toBe(0);
    const locked: LockoutState = { failedLogins: 0, firstFailedAt: null, lockedUntil: at(15 * MIN) };
    expect(lockedMinutes(locked, at(15 * MIN))).toBe(0);
    expect(lockedMinutes(locked, at(16 * MIN))).toBe(0);
  });

  it('starts counting afresh after a lock', () => {
    const [, , , , locked] = failAt([0, 0, 0, 0, 0]);
    if (!locked) throw new Error('no state');
    const after = afterFailure(locked, at(16 * MIN));
    expect(after).toEqual({ failedLogins: 1, firstFailedAt: at(16 * MIN), lockedUntil: null });
  });
});
