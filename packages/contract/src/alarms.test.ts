import { describe, expect, it } from 'vitest';
import { ALARM_SOURCE, DEAL_RESULTS, dealResultsFor, POSTURE_RESULTS } from './alarms.ts';
import { ALARM_TYPES } from './domain.ts';

describe('handling results per alarm type (issue 29, point 7)', () => {
  it('keeps the spec’s four codes first, in order, and only adds after them', () => {
    expect(DEAL_RESULTS.slice(0, 4)).toEqual([
      'NO_ABNORMALITY',
      'BED_HOLD_UP',
      'SIT_ASIDE_BED',
      'LIVING_OR_SIT_IN_TAIL_STOCK',
    ]);
    expect(DEAL_RESULTS.slice(4)).toEqual(['DOCTOR_INFORMED', 'FAMILY_CONTACTED']);
  });

  it('offers the fall radar’s postures for fall alarms only; a device fault only “no abnormality”', () => {
    for (const type of ALARM_TYPES) {
      const offered = dealResultsFor(type);
      expect(offered[0], type).toBe('NO_ABNORMALITY');
      const source = ALARM_SOURCE[type];
      expect(
        POSTURE_RESULTS.some((r) => offered.includes(r)),
        type,
      ).toBe(source === 'fall');
      if (source === 'device') expect(offered, type).toEqual(['NO_ABNORMALITY']);
      else expect(offered, type).toEqual(expect.arrayContaining(['DOCTOR_INFORMED', 'FAMILY_CONTACTED']));
    }
    expect(dealResultsFor('HEART_ABNORMAL')).toEqual(['NO_ABNORMALITY', 'DOCTOR_INFORMED', 'FAMILY_CONTACTED']);
    expect(dealResultsFor('FALL')).toEqual(DEAL_RESULTS);
  });
});
