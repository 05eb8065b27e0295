import { describe, expect, it } from 'vitest';
import type { Executor } from '../../db/database.ts';
import { constraintError, dbErrorOf, Replan, transact } from './facility-tx.ts';
import {
  bedPath,
  checkedIn,
  checkedOut,
  isBedDeviceType,
  loggedOff,
  parseNameList,
  type Occupancy,
} from './facility.policy.ts';

describe('name lists', () => {
  it('splits on half- and full-width commas, trims and drops empty items', () => {
    expect(parseNameList(' 101 ,102，103 ,, ，')).toEqual({ ok: true, names: ['101', '102', '103'] });
    expect(parseNameList('单人间')).toEqual({ ok: true, names: ['单人间'] });
    expect(parseNameList('\u3000A\u3000,B')).toEqual({ ok: true, names: ['A', 'B'] });
  });

  it('refuses an empty list and too many names', () => {
    expect(parseNameList(' , ，')).toMatchObject({ ok: false, key: 'facility.namesEmpty' });
    expect(parseNameList('a,b,c', 2)).toMatchObject({ ok: false, key: 'facility.tooManyNames', params: { max: 2 } });
    expect(parseNameList('a,b', 2)).toMatchObject({ ok: true });
  });

  it('reports every repetition after the first, case-insensitively, with its position', () => {
    const list = parseNameList('A,b,a,B,c,A');
    expect(list).toEqual({
      ok: false,
      key: 'facility.duplicateInList',
      params: { names: 'a, B, A', max: 32 },
      problems: [
        { index: 2, name: 'a', msgKey: 'facility.duplicateInList' },
        { index: 3, name: 'B', msgKey: 'facility.duplicateInList' },
        { index: 5, name: 'A', msgKey: 'facility.duplicateInList' },
      ],
    });
  });

  it('reports names over 32 characters', () => {
    const long = 'x'.repeat(33);
    expect(parseNameList(`ok,${'y'.repeat(32)},${long}`)).toMatchObject({
      ok: false,
      key: 'facility.nameTooLong',
      problems: [{ index: 2, name: long, msgKey: 'facility.nameTooLong' }],
    });
  });
});

describe('bed devices and paths', () => {
  it('accepts sleep monitors and fall radars only', () => {
    for (const code of [49, 52, 59, 20489, 21007, 21011]) expect(isBedDeviceType(code), String(code)).toBe(true);
    for (const code of [20993, 20996, 21000, 21008, 21012, 0]) expect(isBedDeviceType(code), String(code)).toBe(false);
  });

  it('writes a bed path as area / floor / room / bed', () => {
    expect(bedPath({ areaName: 'A', floorName: '1F', roomName: '101', name: '2' })).toBe('A / 1F / 101 / 2');
  });
});

describe('resident lifecycle', () => {
  const t0 = new Date('2026-01-01T08:00:00Z');
  const t1 = new Date('2026-02-01T08:00:00Z');
  const registered: Occupancy = {
    state: 'registered',
    roomId: null,
    admittedAt: null,
    checkedOutAt: null,
    loggedOffAt: null,
  };

  it('admits on check-in and keeps the admission time only when moving between beds', () => {
    const inBed = checkedIn(registered, 7, t0, false);
    expect(inBed).toEqual({ state: 'checkedIn', roomId: 7, admittedAt: t0, checkedOutAt: null, loggedOffAt: null });
    expect(checkedIn(inBed, 8, t1, true)).toEqual({ ...inBed, roomId: 8 });
    const out = checkedOut(inBed, t1);
    expect(out).toEqual({ state: 'checkedOut', roomId: 7, admittedAt: t0, checkedOutAt: t1, loggedOffAt: null });
    expect(checkedIn(out, 9, t1, true).admittedAt).toEqual(t1);
  });

  it('clears the address on log-off, and records a check-out for someone still in a bed', () => {
    const inBed = checkedIn(registered, 7, t0, false);
    expect(loggedOff(inBed, t1)).toEqual({
      state: 'loggedOff',
      roomId: null,
      admittedAt: t0,
      checkedOutAt: t1,
      loggedOffAt: t1,
    });
    const out = checkedOut(inBed, t0);
    expect(loggedOff(out, t1)).toMatchObject({ checkedOutAt: t0, loggedOffAt: t1, roomId: null });
    expect(checkedIn(loggedOff(out, t1), 3, t1, false)).toMatchObject({
      state: 'checkedIn',
      loggedOffAt: null,
      roomId: 3,
    });
  });
});

describe('constraint errors', () => {
  it('finds the SQLSTATE through the causes of a query error and maps known constraints', () => {
    const wrapped = { message: 'query failed', cause: { code: '23505', constraint: 'bed_device_unique' } };
    expect(dbErrorOf(wrapped)).toEqual({ code: '23505', constraint: 'bed_device_unique' });
    expect(constraintError(wrapped, { bed_device_unique: 'bed.deviceTaken' })).toMatchObject({
      key: 'bed.deviceTaken',
    });
    expect(constraintError(wrapped, { other: 'bed.deviceTaken' })).toBeUndefined();
    expect(constraintError({ code: '40P01' }, { bed_device_unique: 'bed.deviceTaken' })).toBeUndefined();
    expect(dbErrorOf(new Error('plain'))).toBeUndefined();
  });
});

describe('transact', () => {
  /** An executor whose transactions just run the work (the retry logic is what is tested). */
  const executor = { transaction: (work: (tx: unknown) => Promise<unknown>) => work({}) } as unknown as Executor;

  it('runs the work again after a replan or a deadlock, and gives up with facility.busy', async () => {
    let attempts = 0;
    const value = await transact(executor, async () => {
      attempts++;
      if (attempts === 1) throw new Replan();
      if (attempts === 2) throw { cause: { code: '40P01' } };
      if (attempts === 3) throw { code: '40001' };
      return 'done';
    });
    expect([value, attempts]).toEqual(['done', 4]);
    attempts = 0;
    await expect(
      transact(executor, async () => {
        attempts++;
        throw new Replan();
      }),
    ).rejects.toMatchObject({ key: 'facility.busy', status: 300 });
    expect(attempts).toBe(6);
  });

  it('turns the named constraint violations into their messages and lets other errors through', async () => {
    const messages = { bed_device_unique: 'bed.deviceTaken', bed_resident_unique: 'bed.residentTaken' } as const;
    await expect(
      transact(executor, () => Promise.reject({ cause: { code: '23505', constraint: 'bed_device_unique' } }), messages),
    ).rejects.toMatchObject({ key: 'bed.deviceTaken' });
    await expect(
      transact(executor, () => Promise.reject({ code: '23505', constraint: 'bed_resident_unique' }), messages),
    ).rejects.toMatchObject({ key: 'bed.residentTaken' });
    const other = new Error('boom');
    await expect(transact(executor, () => Promise.reject(other), messages)).rejects.toBe(other);
  });
});
