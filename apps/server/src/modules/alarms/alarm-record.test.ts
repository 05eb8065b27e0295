import { LANGUAGES, type AlarmMeasure } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { durationText, measureText } from './alarm-record.ts';

const figure = (over: Partial<AlarmMeasure>): AlarmMeasure => ({
  quantity: null,
  value: null,
  limit: null,
  side: null,
  seconds: null,
  ...over,
});

describe('an alarm’s figure in words (issue 29, point 4)', () => {
  it('says how long as a caregiver reads it: seconds, minutes (with seconds under 10 min), hours', () => {
    expect([45, 60, 125, 120, 600, 754, 3599, 3600, 5400, 43_200].map((s) => durationText(s, 'en-US'))).toEqual([
      '45 s',
      '1 min',
      '2 min 5 s',
      '2 min',
      '10 min',
      '13 min',
      '1 h',
      '1 h',
      '1 h 30 min',
      '12 h',
    ]);
    expect(durationText(120, 'zh-CN')).toBe('2 分钟');
    expect(durationText(5400, 'ko')).toBe('1시간 30분');
  });

  it('joins what, the limit and how long with a dot; leaves out what it has not', () => {
    const heart = figure({ quantity: 'heartRate', value: 58, limit: 75, side: 'below', seconds: 120 });
    expect(measureText(heart, 'en-US')).toBe('heart rate 58 /min · below the limit 75 · for 2 min');
    expect(measureText(heart, 'zh-CN')).toBe('心率 58 次/分 · 低于下限 75 · 持续 2 分钟');
    expect(measureText(heart, 'de')).toBe('Herzfrequenz 58 /min · unter dem Grenzwert 75 · seit 2 Min.');
    expect(measureText(figure({ quantity: 'breathRate', value: 0, seconds: 45 }), 'en-US')).toBe(
      'breathing rate 0 /min · for 45 s',
    );
    expect(measureText(figure({ seconds: 600 }), 'en-US')).toBe('for 10 min');
    expect(measureText(figure({ quantity: 'battery', value: 12, limit: 15, side: 'below' }), 'en-US')).toBe(
      'battery 12 % · below the limit 15',
    );
    // Nothing measured: no text at all, never an empty separator.
    expect(measureText(null, 'en-US')).toBeNull();
    expect(measureText(figure({}), 'en-US')).toBeNull();
    expect(measureText(figure({ seconds: 0 }), 'en-US')).toBeNull();
  });

  it('reads in every console language with every placeholder filled', () => {
    const heart = figure({ quantity: 'heartRate', value: 131, limit: 120, side: 'above', seconds: 5400 });
    for (const lang of LANGUAGES) {
      const text = measureText(heart, lang) ?? '';
      expect(text, lang).toMatch(/131.*120/);
      expect(text, lang).not.toMatch(/[{}]/);
    }
  });
});
