import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { absenceProblem } from './absence-rules.ts';
import { bedOfPath, bedOptions } from './bed-options.ts';
import { normalisePhone } from './phone.ts';
import { placeFilter, placePath, type AreaTree } from './place-tree.ts';
import { birthDateProblem, phoneProblem, residentFields } from './resident-form.ts';
import type { BedConfiguration } from './resident-model.ts';

describe('phones (the server rule)', () => {
  it('keeps a mainland mobile as 11 digits and others as + and digits', () => {
    expect(normalisePhone('138 0013 8000')).toBe('13800138000');
    expect(normalisePhone('+86 138-0013-8000')).toBe('13800138000');
    expect(normalisePhone('0044 7700 900123')).toBe('+447700900123');
    expect(normalisePhone('+420 601 234 567')).toBe('+420601234567');
  });
  it('refuses landlines, bare foreign numbers and +86 non-mobiles', () => {
    expect(normalisePhone('12345')).toBeNull();
    expect(normalisePhone('2025550123')).toBeNull();
    expect(normalisePhone('+86 10 1234 5678')).toBeNull();
  });
  it('says why a contact phone is refused, counting repeats after normalising', () => {
    expect(phoneProblem('', [])).toBe('required');
    expect(phoneProblem('12345', [])).toBe('invalid');
    expect(phoneProblem('+86 13800138000', ['138-0013-8000'])).toBe('duplicate');
    expect(phoneProblem('13800138000', ['13800138001', undefined])).toBeNull();
  });
});

describe('birth dates', () => {
  const today = dayjs('2026-03-01');
  it('refuses none, the future and ages over 130', () => {
    expect(birthDateProblem(null, today)).toBe('required');
    expect(birthDateProblem(dayjs('2026-03-02'), today)).toBe('future');
    expect(birthDateProblem(dayjs('1895-03-01'), today)).toBe('tooOld');
    expect(birthDateProblem(dayjs('1895-03-02'), today)).toBeNull();
    expect(birthDateProblem(today, today)).toBeNull();
  });
});

describe('the request fields of the form', () => {
  it('sends every field, blanks as null, other history only with its flag, contact ids kept', () => {
    expect(
      residentFields({
        name: '  Chen Jianguo ',
        gender: 0,
        birthDate: dayjs('1941-05-12'),
        height: 170,
        weight: null,
        medicalHistory: ['stroke'],
        otherHistory: 'asthma',
        contacts: [
          { id: 3, name: ' Chen Jr ', phone: ' 13900001000 ', relation: 'child' },
          { name: 'Li', phone: '+447700900123', relation: 'friend' },
        ],
        priority: true,
        remark: '   ',
        caregiverIds: [2, 5],
        communityId: undefined,
      }),
    ).toEqual({
      name: 'Chen Jianguo',
      gender: 0,
      birthDate: '1941-05-12',
      height: 170,
      weight: null,
      medicalHistory: ['stroke'],
      otherHistory: null,
      contacts: [
        { id: 3, name: 'Chen Jr', phone: '13900001000', relation: 'child' },
        { name: 'Li', phone: '+447700900123', relation: 'friend' },
      ],
      priority: true,
      remark: null,
      caregiverIds: [2, 5],
      communityId: null,
    });
    expect(residentFields({ medicalHistory: ['others'], otherHistory: ' asthma ' }).otherHistory).toBe('asthma');
  });
});

describe('absence times (the server rule)', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  const hour = 3_600_000;
  const day = 24 * hour;
  const check = (start: number | null, end: number | null, admittedAt: string | null = null) =>
    absenceProblem({ start, end, now, admittedAt });
  it('accepts now, a start within the last day or the next 30 days, a later return', () => {
    expect(check(null, null)).toBeNull();
    expect(check(now - 23 * hour, now + day)).toBeNull();
    expect(check(now + 30 * day - 1, null)).toBeNull();
  });
  it('refuses a start out of range or before the check-in', () => {
    expect(check(now - 25 * hour, null)).toEqual({ field: 'start', problem: 'startRange' });
    expect(check(now + 31 * day, null)).toEqual({ field: 'start', problem: 'startRange' });
    expect(check(now - hour, null, new Date(now - 30 * 60_000).toISOString())).toEqual({
      field: 'start',
      problem: 'beforeAdmission',
    });
  });
  it('refuses a return before the start, in the past, or over 366 days later', () => {
    expect(check(now + day, now + hour)).toEqual({ field: 'end', problem: 'endBeforeStart' });
    expect(check(now - 2 * hour, now - hour)).toEqual({ field: 'end', problem: 'endPast' });
    expect(check(null, now + 367 * day)).toEqual({ field: 'end', problem: 'tooLong' });
  });
});

const tree: AreaTree = [
  {
    id: 1,
    name: 'Building A',
    sort: 0,
    providerId: 2,
    providerName: 'East',
    bedCount: 2,
    occupiedCount: 0,
    deviceCount: 0,
    freeCount: 2,
    floors: [
      {
        id: 3,
        name: '1F',
        sort: 0,
        bedCount: 2,
        occupiedCount: 0,
        deviceCount: 0,
        freeCount: 2,
        rooms: [{ id: 7, name: '101', bedCount: 2, occupiedCount: 0, deviceCount: 0, freeCount: 2, residentCount: 0 }],
      },
    ],
  },
];

describe('the place filter', () => {
  it('means a room, else the deepest area or floor chosen', () => {
    expect(placeFilter([1])).toEqual({ areaId: 1, roomId: undefined });
    expect(placeFilter([1, 3])).toEqual({ areaId: 3, roomId: undefined });
    expect(placeFilter([1, 3, 7])).toEqual({ areaId: undefined, roomId: 7 });
    expect(placeFilter([])).toEqual({ areaId: undefined, roomId: undefined });
  });
  it('finds the path of a filter in the tree', () => {
    expect(placePath(tree, { roomId: 7 })).toEqual([1, 3, 7]);
    expect(placePath(tree, { areaId: 3 })).toEqual([1, 3]);
    expect(placePath(tree, { areaId: 1 })).toEqual([1]);
    expect(placePath(tree, { areaId: 99 })).toEqual([]);
  });
});

describe('the bed picker', () => {
  const bed = (id: number, name: string, deviceId: string | null = null) => ({
    id,
    name,
    mattress: 'sponge' as const,
    userId: null,
    userName: null,
    deviceId,
  });
  const config: BedConfiguration = {
    mattresses: ['sponge'],
    deviceTypes: [49],
    areas: [
      {
        id: 1,
        name: 'Building A',
        providerId: 2,
        floors: [
          {
            id: 3,
            name: '1F',
            rooms: [
              { id: 7, name: '101', beds: [bed(11, '1', 'SLEEP-1'), bed(12, '2')] },
              { id: 8, name: '102', beds: [] },
            ],
          },
          { id: 4, name: '2F', rooms: [{ id: 9, name: '201', beds: [] }] },
        ],
      },
      {
        id: 5,
        name: 'Other provider',
        providerId: 6,
        floors: [{ id: 6, name: '1F', rooms: [{ id: 10, name: 'X', beds: [bed(13, '1')] }] }],
      },
    ],
  };
  it("offers only the resident's provider's beds and no branch without a bed", () => {
    const options = bedOptions(config, 2, (b) => (b.deviceId ? `${b.name}*` : b.name));
    expect(options).toEqual([
      {
        value: 1,
        label: 'Building A',
        children: [
          {
            value: 3,
            label: '1F',
            children: [
              {
                value: 7,
                label: '101',
                children: [
                  { value: 11, label: '1*' },
                  { value: 12, label: '2' },
                ],
              },
            ],
          },
        ],
      },
    ]);
  });
  it('takes the bed only from a full path', () => {
    expect(bedOfPath([1, 3, 7, 12])).toBe(12);
    expect(bedOfPath([1, 3, 7])).toBeUndefined();
  });
});
