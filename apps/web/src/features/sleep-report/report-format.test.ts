import { describe, expect, it } from 'vitest';
import {
  addDays,
  ahiGrade,
  clockTime,
  DASH,
  durationParts,
  instantText,
  lastNights,
  localParts,
  numberText,
  percentText,
  placeOf,
  stageShares,
  today,
} from './report-format.ts';
import { isSleepReportPath, readMonth, readNight, readUserId } from './report-paths.ts';

// 2026-03-09 23:30 UTC: already the 10th in Shanghai (UTC+8), still the 9th in New York.
const LATE_EVENING_UTC = Date.UTC(2026, 2, 9, 23, 30) / 1000;

describe('times of the report', () => {
  it('writes clock times in the time zone it is given', () => {
    expect(clockTime(LATE_EVENING_UTC, 'UTC')).toBe('23:30');
    expect(clockTime(LATE_EVENING_UTC, 'Asia/Shanghai')).toBe('07:30');
    expect(clockTime(LATE_EVENING_UTC, 'America/New_York')).toBe('19:30');
  });

  it('names the local date of an instant, which a night is named by', () => {
    expect(localParts(LATE_EVENING_UTC * 1000, 'Asia/Shanghai')).toEqual({ date: '2026-03-10', clock: '07:30' });
    expect(localParts(LATE_EVENING_UTC * 1000, 'America/New_York').date).toBe('2026-03-09');
    expect(today('Asia/Shanghai', LATE_EVENING_UTC * 1000)).toBe('2026-03-10');
  });

  it('writes midnight as 00, never 24', () => {
    expect(clockTime(Date.UTC(2026, 2, 10, 0, 5) / 1000, 'UTC')).toBe('00:05');
  });

  it('falls back to the browser’s zone for a zone it does not know, instead of failing', () => {
    expect(clockTime(LATE_EVENING_UTC, 'Mars/Olympus_Mons')).toMatch(/^\d{2}:\d{2}$/);
  });

  it('writes an ISO instant as date and time, and a dash for none or nonsense', () => {
    expect(instantText('2026-03-09T23:14:00.000Z', 'Asia/Shanghai')).toBe('2026-03-10 07:14');
    expect(instantText(null)).toBe(DASH);
    expect(instantText('soon')).toBe(DASH);
    expect(clockTime(null)).toBe(DASH);
  });
});

describe('figures of the report', () => {
  it('splits durations into hours and minutes, rounded to the minute', () => {
    expect(durationParts(7 * 3600 + 32 * 60 + 29)).toEqual({ hours: 7, minutes: 32 });
    expect(durationParts(7 * 3600 + 59 * 60 + 31)).toEqual({ hours: 8, minutes: 0 });
    expect(durationParts(0)).toEqual({ hours: 0, minutes: 0 });
  });

  it('writes shares as whole percentages in the interface language, and null as a dash, not 0', () => {
    expect(percentText(0.934, 'en-US')).toBe('93%');
    expect(percentText(0, 'en-US')).toBe('0%');
    expect(percentText(null, 'en-US')).toBe(DASH);
    expect(percentText(0.934, 'de').replace(/\s/g, ' ')).toBe('93 %');
  });

  it('writes numbers with the language’s decimal sign, and null as a dash', () => {
    expect(numberText(12.46, 'en-US')).toBe('12.5');
    expect(numberText(12.46, 'fr')).toBe('12,5');
    expect(numberText(0, 'en-US')).toBe('0');
    expect(numberText(null, 'en-US')).toBe(DASH);
    expect(numberText(61.6, 'en-US', 0)).toBe('62');
  });

  it('grades the AHI by the usual limits', () => {
    expect([0, 4.9, 5, 14.9, 15, 29.9, 30, 75].map(ahiGrade)).toEqual([
      'normal',
      'normal',
      'mild',
      'mild',
      'moderate',
      'moderate',
      'severe',
      'severe',
    ]);
  });

  it('writes where the resident sleeps as area / floor · room · bed, leaving out what is unknown', () => {
    expect(placeOf({ floorArea: 'Building A / Floor 2', room: '203', bunk: '1' })).toBe(
      'Building A / Floor 2 · 203 · 1',
    );
    expect(placeOf({ floorArea: null, room: '203', bunk: null })).toBe('203');
    expect(placeOf({ floorArea: null, room: null, bunk: null })).toBeNull();
  });

  it('gives each stage its minutes and share of the night', () => {
    expect(stageShares({ wake: 1800, rem: 3600, light: 10_800, deep: 1800 })).toEqual([
      { stage: 'wake', minutes: 30, share: 0.1 },
      { stage: 'rem', minutes: 60, share: 0.2 },
      { stage: 'light', minutes: 180, share: 0.6 },
      { stage: 'deep', minutes: 30, share: 0.1 },
    ]);
    expect(stageShares({ wake: 0, rem: 0, light: 0, deep: 0 })[0]?.share).toBeNull();
  });
});

describe('nights and addresses', () => {
  it('counts nights across month and year ends', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(lastNights('2026-03-09', 30)).toEqual(['2026-02-08', '2026-03-09']);
  });

  it('reads only what the server could accept from the address', () => {
    expect(readUserId('42')).toBe(42);
    expect([null, '', '0', '-3', '4.5', 'abc', '99999999999'].map(readUserId)).toEqual(Array(7).fill(undefined));
    expect(readNight('2026-02-28')).toBe('2026-02-28');
    expect(['2026-02-30', '2026-13-01', '2026-3-1', null].map(readNight)).toEqual(Array(4).fill(undefined));
    expect(readMonth('2026-03')).toBe('2026-03');
    expect(['2026-00', '2026-3', '2026-03-01', null].map(readMonth)).toEqual(Array(4).fill(undefined));
  });

  it('knows the four sleep-report screens, also when the tags refresh one', () => {
    for (const path of [
      '/sleep-report/reportList',
      '/sleep-report/index',
      '/sleep-report/dailyDetails/reportDetails',
      '/sleep-report/monthDetails',
      '/redirect/sleep-report/index',
    ]) {
      expect(isSleepReportPath(path), path).toBe(true);
    }
    for (const path of ['/realMonitor/index', '/login', '/', '/sleep-report/other', '/redirect/alarm-log/alarmIndex']) {
      expect(isSleepReportPath(path), path).toBe(false);
    }
  });
});
