import { describe, expect, it } from 'vitest';
import { normalisePhone, RESIDENT_LIMITS, MAX_RESIDENTS_PER_CAREGIVER } from './domain.ts';

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
  it('a caregiver looks after as many residents as the resident rules allow', () => {
    expect(RESIDENT_LIMITS.maxResidentsPerCarer).toBe(MAX_RESIDENTS_PER_CAREGIVER);
  });
});
