import type { ReportMinute } from '@vigil/contract/browser';
import { describe, expect, it } from 'vitest';
import {
  hypnogramOption,
  hypnogramPoints,
  minutePoints,
  movementOption,
  nightCurveOption,
  spanAreas,
  STAGE_LEVELS,
  trendOption,
} from './report-charts.ts';

const START = Date.UTC(2026, 2, 8, 19, 0) / 1000; // 2026-03-08 19:00 UTC
const ms = (seconds: number) => (START + seconds) * 1000;
const minute = (offset: number, over: Partial<ReportMinute> = {}): ReportMinute => ({
  ts: START + offset * 60,
  heartRate: 60,
  breathRate: 14,
  move: 0,
  inBed: true,
  ...over,
});
const LABELS = { wake: 'Awake', rem: 'REM', light: 'Light', deep: 'Deep', unknown: 'No signal' };

type Option = Record<string, unknown>;
const seriesOf = (option: Option) =>
  option.series as { name?: string; data: unknown[]; markArea?: { data: unknown[] } }[];

describe('the hypnogram', () => {
  it('draws each run of a stage as a level over its epochs, wake on top and deep at the bottom', () => {
    const points = hypnogramPoints({ windowStart: START, epochSeconds: 30, hypnogram: [0, 0, 2, 3, 3, 3, 1] });
    expect(points).toEqual([
      [ms(0), STAGE_LEVELS.wake],
      [ms(60), STAGE_LEVELS.wake],
      [ms(60), STAGE_LEVELS.light],
      [ms(90), STAGE_LEVELS.light],
      [ms(90), STAGE_LEVELS.deep],
      [ms(180), STAGE_LEVELS.deep],
      [ms(180), STAGE_LEVELS.rem],
      [ms(210), STAGE_LEVELS.rem],
    ]);
    expect(STAGE_LEVELS.wake).toBeGreaterThan(STAGE_LEVELS.rem);
    expect(STAGE_LEVELS.rem).toBeGreaterThan(STAGE_LEVELS.light);
    expect(STAGE_LEVELS.light).toBeGreaterThan(STAGE_LEVELS.deep);
  });

  it('leaves a gap for unknown epochs instead of inventing a stage, once per gap', () => {
    const points = hypnogramPoints({ windowStart: START, epochSeconds: 30, hypnogram: [255, 2, 2, 255, 255, 7, 3] });
    expect(points).toEqual([
      [ms(0), null],
      [ms(30), STAGE_LEVELS.light],
      [ms(90), STAGE_LEVELS.light],
      [ms(90), null],
      [ms(180), STAGE_LEVELS.deep],
      [ms(210), STAGE_LEVELS.deep],
    ]);
    expect(hypnogramPoints({ windowStart: START, epochSeconds: 30, hypnogram: [] })).toEqual([]);
  });

  it('spans the analysed window, names the stages on the axis and writes times in the platform zone', () => {
    const option = hypnogramOption({
      data: { windowStart: START, epochSeconds: 30, hypnogram: [3, 0] },
      windowStart: START,
      windowEnd: START + 12 * 3600,
      timeZone: 'Asia/Shanghai',
      labels: LABELS,
      name: 'Sleep stages',
    }) as Option;
    const xAxis = option.xAxis as { min: number; max: number; axisLabel: { formatter: (v: number) => string } };
    expect(xAxis.min).toBe(ms(0));
    expect(xAxis.max).toBe(ms(12 * 3600));
    expect(xAxis.axisLabel.formatter(ms(0))).toBe('03:00');
    const yAxis = option.yAxis as { min: number; max: number; axisLabel: { formatter: (v: number) => string } };
    expect([0, 1, 2, 3].map(yAxis.axisLabel.formatter)).toEqual(['Deep', 'Light', 'REM', 'Awake']);
    expect(seriesOf(option)[0]).toMatchObject({ connectNulls: false });
    const tooltip = option.tooltip as { formatter: (p: unknown) => string };
    expect(tooltip.formatter([{ seriesName: 'Sleep stages', value: [ms(0), STAGE_LEVELS.deep] }])).toBe(
      '03:00<br/>Sleep stages: Deep',
    );
    expect(tooltip.formatter([{ seriesName: 'Sleep stages', value: [ms(0), null] }])).toContain('No signal');
  });
});

describe('the night’s curves', () => {
  it('breaks the line at null readings and at minutes without data, never drawing across them', () => {
    const minutes = [
      minute(0),
      minute(1, { heartRate: null }),
      minute(2, { heartRate: 62 }),
      minute(5, { heartRate: 64 }),
    ];
    expect(minutePoints(minutes, 'heartRate')).toEqual([
      [ms(0), 60],
      [ms(60), null],
      [ms(120), 62],
      [ms(180), null],
      [ms(300), 64],
    ]);
  });

  it('takes a minute of 0 for none measured: a gap, never a line down to the axis', () => {
    expect(minutePoints([minute(0), minute(1, { heartRate: 0 }), minute(2)], 'heartRate')).toEqual([
      [ms(0), 60],
      [ms(60), null],
      [ms(120), 60],
    ]);
  });

  it('draws each rate on its clinical range with whole-number ticks, as the live charts do', () => {
    const axisOf = (rate: 'heartRate' | 'breathRate') =>
      (
        nightCurveOption({
          windowStart: START,
          windowEnd: START + 3600,
          minutes: [minute(0)],
          apneaEvents: [],
          leaveBed: [],
          spans: { apnea: 'Apnea', outOfBed: 'Out of bed' },
          rate,
          name: rate,
          unit: '/min',
          colour: '#f00',
          legend: false,
        }) as Option
      ).yAxis as { min: (e: { min: number }) => number; max: (e: { max: number }) => number; interval: number };
    const heart = axisOf('heartRate');
    expect([heart.min({ min: 55 }), heart.max({ max: 72 }), heart.interval]).toEqual([40, 120, 20]);
    // A night with a rate beyond the range widens it by whole ticks.
    expect([heart.min({ min: 36 }), heart.max({ max: 131 })]).toEqual([20, 140]);
    const breath = axisOf('breathRate');
    expect([breath.min({ min: 12 }), breath.max({ max: 18 }), breath.interval]).toEqual([0, 40, 10]);
  });

  it('draws a rate per minute with apnea events and times out of bed shaded, naming the shading once', () => {
    const props = {
      windowStart: START,
      windowEnd: START + 3600,
      minutes: [minute(0), minute(1, { breathRate: null })],
      apneaEvents: [{ start: START + 600, end: START + 630 }],
      leaveBed: [{ start: START + 1200, end: START + 1500 }],
      timeZone: 'UTC',
      spans: { apnea: 'Apnea', outOfBed: 'Out of bed' },
    };
    const heart = nightCurveOption({
      ...props,
      rate: 'heartRate',
      name: 'Heart rate',
      unit: 'bpm',
      colour: '#f00',
      legend: true,
    }) as Option;
    const series = seriesOf(heart);
    expect(series.map((s) => s.name)).toEqual(['Heart rate', 'Apnea', 'Out of bed']);
    expect(series[0]?.data).toEqual([
      [ms(0), 60],
      [ms(60), 60],
    ]);
    expect(series[1]?.markArea?.data).toEqual([[{ xAxis: ms(600) }, { xAxis: ms(630) }]]);
    expect(series[2]?.markArea?.data).toEqual([[{ xAxis: ms(1200) }, { xAxis: ms(1500) }]]);
    expect(heart.legend).toMatchObject({
      data: [
        { name: 'Apnea', icon: 'rect' },
        { name: 'Out of bed', icon: 'rect' },
      ],
    });
    const tooltip = heart.tooltip as { formatter: (p: unknown) => string };
    expect(tooltip.formatter([{ seriesName: 'Heart rate', value: [ms(60), 61.6] }])).toBe(
      '19:01<br/>Heart rate: 62 bpm',
    );

    const breath = nightCurveOption({
      ...props,
      rate: 'breathRate',
      name: 'Breathing',
      unit: '/min',
      colour: '#00f',
      legend: false,
    }) as Option;
    expect(seriesOf(breath)[0]?.data).toEqual([
      [ms(0), 14],
      [ms(60), null],
    ]);
    expect(breath.legend).toBeUndefined();
    expect(
      (breath.tooltip as { formatter: (p: unknown) => string }).formatter([
        { seriesName: 'Breathing', value: [ms(60), null] },
      ]),
    ).toBe('19:01<br/>Breathing: —');
  });

  it('shades the bed’s alarm limits as the live charts do, and holds limits beyond the clinical range', () => {
    const curve = (limits: { low: number; high: number } | null) =>
      nightCurveOption({
        windowStart: START,
        windowEnd: START + 3600,
        minutes: [minute(0), minute(1)],
        apneaEvents: [],
        leaveBed: [],
        spans: { apnea: 'Apnea', outOfBed: 'Out of bed' },
        rate: 'heartRate',
        name: 'Heart rate',
        unit: 'bpm',
        colour: '#f00',
        legend: false,
        limits,
      }) as Option;
    const line = (option: Option) =>
      (
        option.series as {
          markArea?: { data: unknown[] };
          markLine?: { data: { yAxis: number; lineStyle: { type: string }; label: { formatter: string } }[] };
        }[]
      )[0];
    const banded = line(curve({ low: 50, high: 100 }));
    expect(banded?.markArea?.data).toEqual([[{ yAxis: 50 }, { yAxis: 100 }]]);
    expect(banded?.markLine?.data.map((l) => [l.yAxis, l.lineStyle.type, l.label.formatter])).toEqual([
      [50, 'dashed', '50'],
      [100, 'dashed', '100'],
    ]);
    // A limit beyond the clinical range widens the axis to show it.
    const axis = curve({ low: 35, high: 130 }).yAxis as {
      min: (e: { min: number }) => number;
      max: (e: { max: number }) => number;
    };
    expect([axis.min({ min: 60 }), axis.max({ max: 60 })]).toEqual([20, 140]);
    // No limits known: no band.
    expect(line(curve(null))?.markArea).toBeUndefined();
    expect(line(curve(null))?.markLine).toBeUndefined();
  });

  it('draws an event too short to see at least a little wide, around where it happened', () => {
    expect(
      spanAreas(
        [
          { start: START + 100, end: START + 120 },
          { start: START + 1000, end: START + 1300 },
        ],
        60,
      ),
    ).toEqual([
      [{ xAxis: ms(80) }, { xAxis: ms(140) }],
      [{ xAxis: ms(1000) }, { xAxis: ms(1300) }],
    ]);
  });

  it('draws movement as seconds per minute on a 0–60 axis', () => {
    const option = movementOption({
      windowStart: START,
      windowEnd: START + 3600,
      minutes: [minute(0, { move: 12 }), minute(1)],
      name: 'Movement',
      unit: 's/min',
    }) as Option;
    expect(option.yAxis).toMatchObject({ min: 0, max: 60 });
    expect(seriesOf(option)[0]).toMatchObject({
      type: 'bar',
      data: [
        [ms(0), 12],
        [ms(60), 0],
      ],
    });
  });
});

describe('the month’s trends', () => {
  it('gives one clickable point per night and a gap where a night has no value', () => {
    const one = trendOption({
      nights: ['2026-03-01', '2026-03-02', '2026-03-03'],
      lines: [{ name: 'Score', colour: '#00f', unit: '', values: [81, null, 74] }],
      valueText: String,
      min: 0,
      max: 100,
    }) as Option;
    const xAxis = one.xAxis as { data: string[]; axisLabel: { formatter: (v: string) => string } };
    expect(xAxis.data).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
    expect(xAxis.axisLabel.formatter('2026-03-02')).toBe('03-02');
    expect(seriesOf(one)[0]).toMatchObject({ data: [81, null, 74], connectNulls: false, showSymbol: true });
    expect(one.yAxis).toMatchObject([{ min: 0, max: 100 }]);
    expect(one.legend).toBeUndefined();
  });

  it('puts the month’s heart and breathing rates on their clinical ranges', () => {
    const vitals = trendOption({
      nights: ['2026-03-01', '2026-03-02'],
      lines: [
        { name: 'Heart', colour: '#f00', unit: 'bpm', rate: 'heartRate', values: [58, 61] },
        { name: 'Breathing', colour: '#00f', unit: '/min', rightAxis: true, rate: 'breathRate', values: [14, 15] },
      ],
      valueText: String,
    }) as Option;
    const [heart, breath] = vitals.yAxis as {
      name: string;
      min: (e: { min: number }) => number;
      max: (e: { max: number }) => number;
      interval: number;
    }[];
    expect([heart?.name, heart?.min({ min: 58 }), heart?.max({ max: 61 }), heart?.interval]).toEqual([
      'bpm',
      40,
      120,
      20,
    ]);
    expect([breath?.name, breath?.min({ min: 14 }), breath?.max({ max: 15 }), breath?.interval]).toEqual([
      '/min',
      0,
      40,
      10,
    ]);
  });

  it('puts a line of another scale on its own axis, with a legend, and its unit in the tooltip', () => {
    const two = trendOption({
      nights: ['2026-03-01'],
      lines: [
        { name: 'Heart', colour: '#f00', unit: 'bpm', values: [58] },
        { name: 'Breathing', colour: '#00f', unit: '/min', rightAxis: true, values: [null] },
      ],
      valueText: String,
    }) as Option;
    expect(two.legend).toBeDefined();
    expect(two.yAxis).toMatchObject([
      { name: 'bpm', scale: true },
      { name: '/min', scale: true },
    ]);
    expect(seriesOf(two).map((s) => (s as { yAxisIndex?: number }).yAxisIndex)).toEqual([0, 1]);
    const tooltip = two.tooltip as { formatter: (p: unknown) => string };
    expect(
      tooltip.formatter([
        { name: '2026-03-01', seriesIndex: 0, seriesName: 'Heart', value: 58 },
        { name: '2026-03-01', seriesIndex: 1, seriesName: 'Breathing', value: null },
      ]),
    ).toBe('2026-03-01<br/>Heart: 58 bpm<br/>Breathing: —');

    // Chinese writes both rates 次/分: the same word, still two scales.
    const chinese = trendOption({
      nights: ['2026-03-01'],
      lines: [
        { name: '心率', colour: '#f00', unit: '次/分', values: [58] },
        { name: '呼吸率', colour: '#00f', unit: '次/分', rightAxis: true, values: [15] },
      ],
      valueText: String,
    }) as Option;
    expect(chinese.yAxis).toHaveLength(2);
    expect(seriesOf(chinese).map((s) => (s as { yAxisIndex?: number }).yAxisIndex)).toEqual([0, 1]);
  });
});
