import { describe, expect, it } from 'vitest';
import { CHART_WINDOW_MS, vitalsChartOption } from './vitals-chart-option.ts';

const option = (points: [number, number | null][], nowMs: number) =>
  vitalsChartOption({ name: 'Heart rate', unit: 'bpm', colour: '#f00', points, nowMs });
const axisOf = (o: ReturnType<typeof option>) => o.xAxis as { min: number; max: number };
const seriesOf = (o: ReturnType<typeof option>) => (o.series as { showSymbol: boolean }[])[0];

describe('the vitals chart', () => {
  it('shows the hour up to now even with only a few live seconds, with their points marked', () => {
    const now = Date.UTC(2026, 10, 26, 6, 30);
    const o = option(
      [
        [now - 2_000, 72],
        [now - 1_000, 73],
      ],
      now,
    );
    expect(axisOf(o)).toMatchObject({ min: now - CHART_WINDOW_MS, max: now });
    expect(seriesOf(o)?.showSymbol).toBe(true);
  });

  it('ends at the latest point when the browser clock is behind, and draws a line once there is one', () => {
    const now = Date.UTC(2026, 10, 26, 6, 30);
    const points: [number, number | null][] = [0, 1, 2, 3].map((i) => [now + i * 1_000, 70 + i]);
    const o = option(points, now);
    expect(axisOf(o).max).toBe(now + 3_000);
    expect(seriesOf(o)?.showSymbol).toBe(false);
  });
});
