import type { LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import type { ChartPoint } from './vitals-trail.ts';

export type VitalsChartOption = ComposeOption<LineSeriesOption | GridComponentOption | TooltipComponentOption>;

/** The charts show the last hour. */
export const CHART_WINDOW_MS = 3_600_000;

/**
 * A rate over time: one line, gaps where nothing was measured, no animation (it moves every
 * second). The time axis is always the hour up to now (or the latest point), so a resident with
 * no history yet shows their first live seconds at the right end instead of a day-wide axis.
 */
export const vitalsChartOption = (props: {
  name: string;
  unit: string;
  colour: string;
  points: ChartPoint[];
  nowMs: number;
}): VitalsChartOption => {
  const end = Math.max(props.nowMs, props.points.at(-1)?.[0] ?? 0);
  return {
    animation: false,
    grid: { left: 8, right: 16, top: 32, bottom: 8, outerBoundsMode: 'same', outerBoundsContain: 'all' },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (value) => (typeof value === 'number' ? `${Math.round(value)} ${props.unit}` : '—'),
    },
    xAxis: {
      type: 'time',
      min: end - CHART_WINDOW_MS,
      max: end,
      splitLine: { show: false },
      axisLabel: { hideOverlap: true },
    },
    yAxis: { type: 'value', scale: true, name: props.unit, nameTextStyle: { align: 'left' } },
    series: [
      {
        type: 'line',
        name: props.name,
        data: props.points,
        // A few lone points (the first live seconds) would not show as a line.
        showSymbol: props.points.filter((p) => p[1] !== null).length < 3,
        connectNulls: false,
        lineStyle: { width: 2, color: props.colour },
        itemStyle: { color: props.colour },
      },
    ],
  };
};
