import { ALARM_TYPES, DEFAULT_LEVEL1_TYPES, type AlertLevelSettings } from '@vigil/contract/browser';
import { describe, expect, it } from 'vitest';
import { changesOf, defaultValues, isEmpty, sameValues, TYPES_BY_SOURCE, valuesOf } from './remind-setting-model.ts';

describe('remind-setting model', () => {
  it('groups every alarm type under exactly one source, in the screen order', () => {
    expect(TYPES_BY_SOURCE.map((g) => g.source)).toEqual(['sleep', 'fall', 'call', 'security', 'device']);
    const listed = TYPES_BY_SOURCE.flatMap((g) => g.types);
    expect([...listed].sort()).toEqual([...ALARM_TYPES].sort());
    expect(TYPES_BY_SOURCE.find((g) => g.source === 'fall')?.types).toEqual(['FALL', 'FALL_SUSPECTED', 'SITTING_UP']);
  });

  it('defaults: the level 1 types at 1, the rest at 2, red spoken repeatedly, orange once, both pop up', () => {
    const defaults = defaultValues();
    for (const type of ALARM_TYPES) {
      expect(defaults.levelMap[type], type).toBe(DEFAULT_LEVEL1_TYPES.includes(type) ? 1 : 2);
    }
    expect(defaults.alertTypeL1).toEqual({ pc: true, globalVoiceWay: 3, latch: true, snoozeMinutes: 10 });
    expect(defaults.alertTypeL2).toEqual({ pc: true, globalVoiceWay: 2, latch: false, snoozeMinutes: 30 });
  });

  it('sends only the changed types and the changed levels', () => {
    const base = defaultValues();
    expect(isEmpty(changesOf(defaultValues(), base))).toBe(true);
    const values = defaultValues();
    values.levelMap.LEAVE_BED = 1;
    values.levelMap.FALL = 2;
    values.alertTypeL1 = { pc: false, globalVoiceWay: 3, latch: true, snoozeMinutes: 10 };
    expect(changesOf(values, base)).toEqual({
      levelMap: { LEAVE_BED: 1, FALL: 2 },
      alertTypeL1: { pc: false, globalVoiceWay: 3, latch: true, snoozeMinutes: 10 },
    });
    expect(sameValues(values, base)).toBe(false);
  });

  it("reads the server's answer, keeping no extra keys", () => {
    const answer: AlertLevelSettings = {
      providerId: 3,
      alertTypeL1: { pc: false, globalVoiceWay: 1, latch: true, snoozeMinutes: 10 },
      alertTypeL2: { pc: true, globalVoiceWay: 0, latch: false, snoozeMinutes: 30 },
      levelMap: { ...defaultValues().levelMap, DOOR: 1 },
      voiceFlag: true,
    };
    const values = valuesOf(answer);
    expect(Object.keys(values).sort()).toEqual(['alertTypeL1', 'alertTypeL2', 'levelMap']);
    expect(values.levelMap.DOOR).toBe(1);
    expect(changesOf(values, defaultValues())).toEqual({
      levelMap: { DOOR: 1 },
      alertTypeL1: { pc: false, globalVoiceWay: 1, latch: true, snoozeMinutes: 10 },
      alertTypeL2: { pc: true, globalVoiceWay: 0, latch: false, snoozeMinutes: 30 },
    });
  });
});
