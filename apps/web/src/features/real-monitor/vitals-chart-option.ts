import type { LineSeriesOption } from 'echarts/charts';
import type {
  GridComponentOption,
  MarkAreaComponentOption,
  MarkLineComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { limitBand, type RateLimits } from '../../shared/charts/limit-band.ts';
import { vitalAxis, type VitalRate } from '../../shared/charts/vital-axis.ts';
import type { ChartPoint } from './vitals-trail.ts';

export type VitalsChartOption = ComposeOption<
  LineSeriesOption | GridComponentOption | TooltipComponentOption | MarkAreaComponentOption | MarkLineComponentOption
>;

/** The charts show the last hour. */
export const CHART_WINDOW_MS = 3_600_000;

export type { RateLimits };

/** An alarm of the resident, marked where it was raised. */
export interface AlarmMark {
  /** Browser milliseconds. */
  at: number;
  level: 1 | 2;
  /** The alarm's text, shown on hover. */
  text: string;
}

export const LEVEL_COLOURS: Readonly<Record<1 | 2, string>> = { 1: '#cf1322', 2: '#d46b08' };

/**
 * A rate over the last hour: one line with gaps where nothing was measured, on the rate's fixed
 * clinical range with whole-number ticks (shared/charts/vital-axis.ts), the bed's alarm limits as
 * a shaded band with dashed edges, and the resident's alarms as marks where they were raised. No
 * animation (it moves every second). The time axis is always the hour up to now (or the latest
 * point), so a resident with no history yet shows their first live seconds at the right end.
 */
export const vitalsChartOption = (props: {
  rate: VitalRate;
  name: string;
  unit: string;
  colour: string;
  points: ChartPoint[];
  nowMs: number;
  limits?: RateLimits | null;
  alarms?: readonly AlarmMark[];
}): VitalsChartOption => {
  const end = Math.max(props.nowMs, props.points.at(-1)?.[0] ?? 0);
  const start = end - CHART_WINDOW_MS;
  const limits = props.limits ?? null;
  const band = limits ? limitBand(limits) : null;
  const alarms = (props.alarms ?? []).filter((a) => a.at >= start && a.at <= end);
  const markLines: NonNullable<NonNullable<LineSeriesOption['markLine']>['data']> = [
    ...(band?.lines ?? []),
    ...alarms.map((a) => ({
      xAxis: a.at,
      name: a.text,
      lineStyle: { color: LEVEL_COLOURS[a.level], type: 'solid' as const, width: 2 },
      label: { show: false },
      emphasis: { label: { show: true, formatter: a.text, position: 'insideEndTop' as const } },
    })),
  ];
  return {
    animation: false,
    grid: { left: 8, right: 16, top: 32, bottom: 8, outerBoundsMode: 'same', outerBoundsContain: 'all' },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (value) => (typeof value === 'number' ? `${Math.round(value)} ${props.unit}` : '—'),
    },
    xAxis: {
      type: 'time',
      min: start,
      max: end,
      splitLine: { show: false },
      axisLabel: { hideOverlap: true },
    },
    yAxis: {
      ...vitalAxis(props.rate, props.unit, limits ? [limits.low, limits.high] : []),
      nameTextStyle: { align: 'left' },
    },
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
        ...(band ? { markArea: band.markArea } : {}),
        ...(markLines.length ? { markLine: { silent: false, symbol: 'none', data: markLines } } : {}),
      },
    ],
  };
};
