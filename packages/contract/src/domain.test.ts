import { describe, expect, it } from 'vitest';
import { insertNursing } from './calls/caregivers.ts';
import { isNumberedRoom, normalisePhone, RESIDENT_LIMITS } from './domain.ts';

describe('normalisePhone (caregivers, emergency contacts, relatives’ logins)', () => {
  it.each([
    ['13812345678', '13812345678'],
    ['138 1234 5678', '13812345678'],
    ['138-1234-5678', '13812345678'],
    ['+8613812345678', '13812345678'],
    ['008613812345678', '13812345678'],
    ['+447700900123', '+447700900123'],
    ['0044 7700 900123', '+447700900123'],
    ['+44 (7700) 900-123', '+447700900123'],
    ['+12025550123', '+12025550123'],
  ])('keeps %s as %s', (raw, stored) => expect(normalisePhone(raw)).toBe(stored));

  it.each([
    '+86 010 1234567', // a mainland number that is not a mobile
    '12812345678',
    '1381234567',
    '+0447700900123',
    '+123456',
    '+1234567890123456',
    '07700900123', // national format without a country code
    'abc',
    '',
  ])('refuses %s', (raw) => expect(normalisePhone(raw)).toBeNull());
});

describe('limits', () => {
  // The old test compared the constant with its own alias and could not fail: this one checks the
  // caregiver call really refuses one resident more than the resident rules allow a caregiver.
  it('a caregiver call takes as many residents as the resident rules allow, and refuses one more', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    const limit = RESIDENT_LIMITS.maxResidentsPerCarer;
    const request = (n: number) =>
      insertNursing.request.safeParse({ name: 'Li Na', phone: '13800138000', residentIds: ids(n) });
    expect(request(limit).success).toBe(true);
    const over = request(limit + 1);
    expect(over.success).toBe(false);
    expect(over.error?.issues[0]?.message).toBe('caregiver.residentLimit');
  });
});

describe('isNumberedRoom (alarm texts, speech and the console say "Room 102")', () => {
  it('takes a room named by a number as one, and a name of its own as itself', () => {
    expect(['102', '102A', '2-05', '7'].map(isNumberedRoom)).toEqual([true, true, true, true]);
    expect(['Lounge', 'A102', '', 'Room 102'].map(isNumberedRoom)).toEqual([false, false, false, false]);
  });
});
