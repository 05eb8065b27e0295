import { describe, expect, it } from 'vitest';
import { initialFields, phoneOf, toEdit, toInsert, type CaregiverFields } from './caregiver-form.ts';
import { hasControlChars, internationalNumber, LOGIN_ACCOUNT_PATTERN } from './caregiver-model.ts';
import { defaultCountryCode, splitPhone } from './country-codes.ts';
import { caregiverRow } from './test-support.ts';

describe('phone rule', () => {
  it('builds the overseas number from code and national number, dropping a trunk 0', () => {
    expect(internationalNumber('44', '07700 900123')).toBe('+447700900123');
    expect(internationalNumber('49', '(0151) 2345-6789')).toBe('+4915123456789');
    // A whole number typed with + or 00 wins over the chosen code.
    expect(internationalNumber('1', '+44 7700 900123')).toBe('+44 7700 900123');
    expect(internationalNumber('1', '0044 7700 900123')).toBe('0044 7700 900123');
    expect(phoneOf({ countryCode: '1', phone: '0044 7700 900123' }, 'overseas')).toBe('+447700900123');
    expect(phoneOf({ countryCode: '86', phone: '138 1234 5678' }, 'overseas')).toBe('13812345678');
    expect(phoneOf({ phone: ' 138-1234-5678 ' }, 'domestic')).toBe('13812345678');
  });

  it('splits a stored phone back into the longest known code and the number', () => {
    expect(splitPhone('13812345678', '44')).toEqual({ countryCode: '86', national: '13812345678' });
    expect(splitPhone('+447700900123', '1')).toEqual({ countryCode: '44', national: '7700900123' });
    expect(splitPhone('+420601234567', '1')).toEqual({ countryCode: '420', national: '601234567' });
    expect(splitPhone('+9991234567', '49')).toEqual({ countryCode: '49', national: '+9991234567' });
    expect(defaultCountryCode('cs')).toBe('420');
    expect(defaultCountryCode('xx')).toBe('44');
  });
});

describe('other server rules', () => {
  it('login accounts are 6 to 64 letters or digits', () => {
    expect(LOGIN_ACCOUNT_PATTERN.test('wang01')).toBe(true);
    expect(LOGIN_ACCOUNT_PATTERN.test('a'.repeat(64))).toBe(true);
    expect(LOGIN_ACCOUNT_PATTERN.test('wang1')).toBe(false);
    expect(LOGIN_ACCOUNT_PATTERN.test('a'.repeat(65))).toBe(false);
    expect(LOGIN_ACCOUNT_PATTERN.test('wang_01')).toBe(false);
  });

  it('refuses control characters, remarks keeping line breaks', () => {
    expect(hasControlChars('Wang\tFang')).toBe(true);
    expect(hasControlChars('line one\nline two', true)).toBe(false);
    expect(hasControlChars('bad\u0000', true)).toBe(true);
  });
});

describe('form to request', () => {
  const fields: CaregiverFields = {
    name: '  Wang Fang ',
    phone: '138 1234 5678',
    job: '  ',
    level: 'lead',
    userName: '',
    residentIds: [3, 4],
    remark: ' night shift ',
  };

  it('creates with trimmed text, omitting blanks (the phone becomes the login)', () => {
    expect(toInsert(fields, 'domestic')).toEqual({
      name: 'Wang Fang',
      phone: '13812345678',
      job: undefined,
      level: 'lead',
      residentIds: [3, 4],
      userName: undefined,
      remark: 'night shift',
    });
  });

  it('edits every field, clearing blanks with null', () => {
    expect(toEdit(5, fields, 'domestic')).toEqual({
      id: 5,
      type: 'edit',
      name: 'Wang Fang',
      phone: '13812345678',
      job: null,
      level: 'lead',
      residentIds: [3, 4],
      remark: 'night shift',
    });
  });

  it('fills the overseas form from a stored caregiver', () => {
    const row = caregiverRow({ phone: '+447700900123', job: null, remark: null });
    expect(initialFields(row, 'overseas', '1')).toEqual({
      countryCode: '44',
      phone: '7700900123',
      name: row.name,
      job: undefined,
      level: row.level,
      residentIds: row.residents.map((r) => r.id),
      remark: undefined,
    });
    expect(initialFields(null, 'domestic', '86')).toEqual({ level: 'normal', residentIds: [] });
  });
});
