import { describe, expect, it } from 'vitest';
import {
  CHART_WINDOW_MS,
  LEVEL_COLOURS,
  vitalsChartOption,
  type AlarmMark,
  type RateLimits,
} from './vitals-chart-option.ts';

const NOW = Date.UTC(2026, 10, 26, 6, 30);
const option = (
  points: [number, number | null][],
  nowMs = NOW,
  extra: { rate?: 'heartRate' | 'breathRate'; limits?: RateLimits; alarms?: AlarmMark[] } = {},
) =>
  vitalsChartOption({
    rate: extra.rate ?? 'heartRate',
    name: 'Heart rate',
    unit: 'bpm',
    colour: '#f00',
    points,
    nowMs,
    ...(extra.limits ? { limits: extra.limits } : {}),
    ...(extra.alarms ? { alarms: extra.alarms } : {}),
  });
type Axis = {
  min: (e: { min: number }) => number;
  max: (e: { max: number }) => number;
  interval: number;
  axisLabel: { formatter: (v: number) => string };
};
const xAxisOf = (o: ReturnType<typeof option>) => o.xAxis as { min: number; max: number };
const yAxisOf = (o: ReturnType<typeof option>) => o.yAxis as unknown as Axis;
interface Series {
  showSymbol: boolean;
  connectNulls: boolean;
  markArea?: { data: [{ yAxis: number }, { yAxis: number }][] };
  markLine?: { data: { xAxis?: number; yAxis?: number; name?: string; lineStyle: { color: string } }[] };
}
const seriesOf = (o: ReturnType<typeof option>) => (o.series as Series[])[0];
/** The axis ECharts draws for data spanning `min` to `max`: its ends and every tick. */
const ticks = (axis: Axis, min: number, max: number) => {
  const from = axis.min({ min });
  const to = axis.max({ max });
  const out: number[] = [];
  for (let v = from; v <= to; v += axis.interval) out.push(v);
  return out;
};

describe('the vitals chart', () => {
  it('shows the hour up to now even with only a few live seconds, with their points marked', () => {
    const o = option([
      [NOW - 2_000, 72],
      [NOW - 1_000, 73],
    ]);
    expect(xAxisOf(o)).toMatchObject({ min: NOW - CHART_WINDOW_MS, max: NOW });
    expect(seriesOf(o)?.showSymbol).toBe(true);
  });

  it('ends at the latest point when the browser clock is behind, and draws a line once there is one', () => {
    const points: [number, number | null][] = [0, 1, 2, 3].map((i) => [NOW + i * 1_000, 70 + i]);
    const o = option(points);
    expect(xAxisOf(o).max).toBe(NOW + 3_000);
    expect(seriesOf(o)?.showSymbol).toBe(false);
  });

  it('keeps the clinical range whatever the data, with whole-number ticks: 40–120 /min heart, 0–40 /min breathing', () => {
    // A steady night (60–66) or one reading of 61: the same axis, not one zoomed onto the data.
    expect(ticks(yAxisOf(option([])), 60, 66)).toEqual([40, 60, 80, 100, 120]);
    expect(ticks(yAxisOf(option([])), 61, 61)).toEqual([40, 60, 80, 100, 120]);
    expect(ticks(yAxisOf(option([], NOW, { rate: 'breathRate' })), 14, 16)).toEqual([0, 10, 20, 30, 40]);
    // No data yet: the range still.
    expect(ticks(yAxisOf(option([])), Infinity, -Infinity)).toEqual([40, 60, 80, 100, 120]);
    // A value outside widens it by whole ticks instead of being cut off.
    expect(ticks(yAxisOf(option([])), 33, 138)).toEqual([20, 40, 60, 80, 100, 120, 140]);
    expect(yAxisOf(option([])).axisLabel.formatter(59.99999)).toBe('60');
    // Gaps stay gaps: never joined across, never drawn to the floor.
    expect(seriesOf(option([]))?.connectNulls).toBe(false);
  });

  it('shades the bed’s alarm limits as a band with dashed edges, and holds limits beyond the range', () => {
    const series = seriesOf(option([], NOW, { limits: { low: 50, high: 100 } }));
    expect(series?.markArea?.data).toEqual([[{ yAxis: 50 }, { yAxis: 100 }]]);
    expect(series?.markLine?.data.map((d) => d.yAxis)).toEqual([50, 100]);
    expect(ticks(yAxisOf(option([], NOW, { limits: { low: 30, high: 130 } })), 60, 70)).toEqual([
      20, 40, 60, 80, 100, 120, 140,
    ]);
    expect(seriesOf(option([]))?.markArea).toBeUndefined();
  });

  it('marks the alarms raised within the hour where they were raised, coloured by level', () => {
    const alarms: AlarmMark[] = [
      { at: NOW - 20 * 60_000, level: 2, text: 'Abnormal heart rate' },
      { at: NOW - 5 * 60_000, level: 1, text: 'Fall' },
      { at: NOW - 2 * CHART_WINDOW_MS, level: 1, text: 'Long ago' },
    ];
    const marks = seriesOf(option([], NOW, { alarms }))?.markLine?.data ?? [];
    expect(marks.map((m) => [m.xAxis, m.name, m.lineStyle.color])).toEqual([
      [NOW - 20 * 60_000, 'Abnormal heart rate', LEVEL_COLOURS[2]],
      [NOW - 5 * 60_000, 'Fall', LEVEL_COLOURS[1]],
    ]);
  });
});
