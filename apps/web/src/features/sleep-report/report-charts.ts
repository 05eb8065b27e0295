import type { DailyReportData, ReportMinute } from '@vigil/contract/browser';
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type {
  GridComponentOption,
  LegendComponentOption,
  MarkAreaComponentOption,
  MarkLineComponentOption,
  TooltipComponentOption,
  VisualMapComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { limitBand, type RateLimits } from '../../shared/charts/limit-band.ts';
import { measured, vitalAxis, type VitalRate } from '../../shared/charts/vital-axis.ts';
import { clockTime } from './report-format.ts';

export type ReportChartOption = ComposeOption<
  | LineSeriesOption
  | BarSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | MarkAreaComponentOption
  | MarkLineComponentOption
  | TooltipComponentOption
  | VisualMapComponentOption
>;

/** A point of a chart over time: milliseconds and a value, null where the line breaks. */
export type TimePoint = [number, number | null];

export const CHART_COLOURS = {
  heart: '#e5484d',
  breath: '#1f6feb',
  movement: '#8e8c99',
  apnea: '#e5484d',
  apneaArea: 'rgba(229, 72, 77, 0.3)',
  outOfBed: '#8e8c99',
  outOfBedArea: 'rgba(120, 120, 130, 0.2)',
  score: '#1f6feb',
  sleep: '#6e56cf',
  ahi: '#d9730d',
  stage: { wake: '#f5a524', rem: '#a855f7', light: '#60a5fa', deep: '#1e3a8a' },
} as const;

/** The night's charts share their left and right margins, so their time axes line up. */
const NIGHT_GRID = { left: 72, right: 24, top: 36, bottom: 28 };

const HYPNOGRAM_CODES = { wake: 0, rem: 1, light: 2, deep: 3 } as const;
export type Stage = keyof typeof HYPNOGRAM_CODES;
/** Height of each stage on the hypnogram: wake on top, deep at the bottom. */
export const STAGE_LEVELS: Readonly<Record<Stage, number>> = { wake: 3, rem: 2, light: 1, deep: 0 };
const LEVEL_OF_CODE = new Map<number, number>(
  (Object.keys(HYPNOGRAM_CODES) as Stage[]).map((stage) => [HYPNOGRAM_CODES[stage], STAGE_LEVELS[stage]]),
);

/**
 * The hypnogram as a step line: each run of one stage is a level from its first epoch's start to
 * its last epoch's end, and the run after it begins at the same moment, so the change is drawn
 * upright. An unknown epoch (255, or any code the console does not know) breaks the line.
 */
export const hypnogramPoints = (data: Pick<DailyReportData, 'windowStart' | 'epochSeconds' | 'hypnogram'>) => {
  const points: TimePoint[] = [];
  const at = (epoch: number) => (data.windowStart + epoch * data.epochSeconds) * 1000;
  let start = 0;
  for (let i = 1; i <= data.hypnogram.length; i++) {
    const code = data.hypnogram[start];
    if (i < data.hypnogram.length && data.hypnogram[i] === code) continue;
    const level = code === undefined ? undefined : LEVEL_OF_CODE.get(code);
    if (level === undefined) {
      if (points.at(-1)?.[1] !== null) points.push([at(start), null]);
    } else {
      points.push([at(start), level], [at(i), level]);
    }
    start = i;
  }
  return points;
};

/**
 * Heart or breathing rate per minute. The minutes come only where there was data, so a missing
 * minute breaks the line as a null one does: nothing is drawn across time without readings.
 */
export const minutePoints = (minutes: readonly ReportMinute[], rate: 'heartRate' | 'breathRate'): TimePoint[] => {
  const points: TimePoint[] = [];
  let previous: number | null = null;
  for (const minute of minutes) {
    if (previous !== null && minute.ts - previous > 60) points.push([(previous + 60) * 1000, null]);
    // 0 is none measured (docs/device-protocol.md): a gap, never a line down to the axis.
    points.push([minute.ts * 1000, measured(minute[rate])]);
    previous = minute.ts;
  }
  return points;
};

interface NightAxis {
  windowStart: number;
  windowEnd: number;
  /** The zone clock times are written in (the browser's when undefined). */
  timeZone?: string;
}

const timeAxis = (axis: NightAxis) => ({
  type: 'time' as const,
  min: axis.windowStart * 1000,
  max: axis.windowEnd * 1000,
  splitLine: { show: false },
  axisLabel: { hideOverlap: true, formatter: (ms: number) => clockTime(ms / 1000, axis.timeZone) },
});

const axisTooltip = (axis: NightAxis, valueText: (value: unknown, seriesName: string) => string) => ({
  trigger: 'axis' as const,
  formatter: (params: unknown) => {
    const items = (Array.isArray(params) ? params : [params]) as {
      seriesName?: string;
      value?: unknown;
      marker?: string;
    }[];
    const first = items[0]?.value;
    const ms = Array.isArray(first) && typeof first[0] === 'number' ? first[0] : null;
    const lines = items.map((item) => {
      const value = Array.isArray(item.value) ? (item.value[1] as unknown) : item.value;
      return `${item.marker ?? ''}${item.seriesName ?? ''}: ${valueText(value, item.seriesName ?? '')}`;
    });
    return [ms === null ? '' : clockTime(ms / 1000, axis.timeZone), ...lines].join('<br/>');
  },
});

export interface StageLabels {
  wake: string;
  rem: string;
  light: string;
  deep: string;
  unknown: string;
}

/** The night's stages over the analysed window, one colour per stage. */
export const hypnogramOption = (
  props: NightAxis & {
    data: Pick<DailyReportData, 'windowStart' | 'epochSeconds' | 'hypnogram'>;
    labels: StageLabels;
    name: string;
  },
): ReportChartOption => {
  const stageOfLevel = (level: unknown): Stage | undefined =>
    (Object.keys(STAGE_LEVELS) as Stage[]).find((stage) => STAGE_LEVELS[stage] === level);
  return {
    animation: false,
    grid: NIGHT_GRID,
    tooltip: axisTooltip(props, (value) => {
      const stage = stageOfLevel(value);
      return stage ? props.labels[stage] : props.labels.unknown;
    }),
    xAxis: timeAxis(props),
    yAxis: {
      type: 'value',
      min: 0,
      max: 3,
      interval: 1,
      axisLabel: {
        formatter: (level: number) => {
          const stage = stageOfLevel(level);
          return stage ? props.labels[stage] : '';
        },
      },
    },
    visualMap: {
      type: 'piecewise',
      show: false,
      dimension: 1,
      seriesIndex: 0,
      // A line takes its colours as a gradient over intervals (single values give it none).
      pieces: (Object.keys(STAGE_LEVELS) as Stage[]).map((stage) => ({
        gte: STAGE_LEVELS[stage] - 0.5,
        lt: STAGE_LEVELS[stage] + 0.5,
        color: CHART_COLOURS.stage[stage],
      })),
    },
    series: [
      {
        type: 'line',
        name: props.name,
        data: hypnogramPoints(props.data),
        showSymbol: false,
        connectNulls: false,
        lineStyle: { width: 3 },
      },
    ],
  };
};

type Span = { start: number; end: number };

/**
 * Shaded spans of the time axis. An apnea event lasts seconds, under a pixel on a 12-hour axis,
 * so each span is drawn at least `minSeconds` wide around its middle: seen, where it happened.
 */
export const spanAreas = (spans: readonly Span[], minSeconds: number) =>
  spans.map((s) => {
    const widen = Math.max(0, minSeconds - (s.end - s.start)) / 2;
    return [{ xAxis: (s.start - widen) * 1000 }, { xAxis: (s.end + widen) * 1000 }];
  });

/**
 * A series that draws nothing but shaded spans on the time axis; as a series it gets a legend
 * entry, which names the shading and lets the user hide it.
 */
const spanSeries = (
  name: string,
  colour: string,
  area: string,
  areas: ReturnType<typeof spanAreas>,
): LineSeriesOption => ({
  type: 'line',
  name,
  data: [],
  itemStyle: { color: colour },
  lineStyle: { opacity: 0 },
  markArea: { silent: true, itemStyle: { color: area }, data: areas as MarkAreaData },
});
type MarkAreaData = NonNullable<NonNullable<LineSeriesOption['markArea']>['data']>;

export interface SpanLabels {
  apnea: string;
  outOfBed: string;
}

/**
 * One rate per minute over the night (heart or breathing, each on its own chart and scale, so
 * neither flattens the other), with apnea events and times out of bed shaded behind it, and the
 * bed's alarm limits as the live charts draw them (shared/charts/limit-band.ts).
 */
export const nightCurveOption = (
  props: NightAxis &
    Pick<DailyReportData, 'minutes' | 'apneaEvents' | 'leaveBed'> & {
      rate: 'heartRate' | 'breathRate';
      name: string;
      unit: string;
      colour: string;
      spans: SpanLabels;
      /** The first of the night's curves names the shading; the others need not repeat it. */
      legend: boolean;
      /** The bed's alarm limits of the rate, drawn as a band (null: none known). */
      limits?: RateLimits | null;
    },
): ReportChartOption => {
  // About two pixels of a chart a thousand pixels wide.
  const minSpan = (props.windowEnd - props.windowStart) / 500;
  const limits = props.limits ?? null;
  const band = limits ? limitBand(limits) : null;
  return {
    animation: false,
    grid: { ...NIGHT_GRID, top: props.legend ? 56 : 32 },
    ...(props.legend
      ? {
          legend: {
            top: 0,
            left: 'center',
            data: [
              { name: props.spans.apnea, icon: 'rect' },
              { name: props.spans.outOfBed, icon: 'rect' },
            ],
          },
        }
      : {}),
    tooltip: axisTooltip(props, (value) => (typeof value === 'number' ? `${Math.round(value)} ${props.unit}` : '—')),
    xAxis: timeAxis(props),
    // The rate's clinical range with whole-number ticks, as the live charts (shared/charts/vital-axis.ts).
    yAxis: {
      ...vitalAxis(props.rate, props.unit, limits ? [limits.low, limits.high] : []),
      nameTextStyle: { align: 'right' },
    },
    series: [
      {
        type: 'line',
        name: props.name,
        data: minutePoints(props.minutes, props.rate),
        showSymbol: false,
        connectNulls: false,
        lineStyle: { width: 1.5, color: props.colour },
        itemStyle: { color: props.colour },
        ...(band ? { markArea: band.markArea, markLine: { silent: true, symbol: 'none', data: band.lines } } : {}),
      },
      spanSeries(
        props.spans.apnea,
        CHART_COLOURS.apnea,
        CHART_COLOURS.apneaArea,
        spanAreas(props.apneaEvents, minSpan),
      ),
      spanSeries(
        props.spans.outOfBed,
        CHART_COLOURS.outOfBed,
        CHART_COLOURS.outOfBedArea,
        spanAreas(props.leaveBed, minSpan),
      ),
    ],
  };
};

/** Seconds with body movement in each minute, as bars. */
export const movementOption = (
  props: NightAxis & Pick<DailyReportData, 'minutes'> & { name: string; unit: string },
): ReportChartOption => ({
  animation: false,
  grid: { ...NIGHT_GRID, top: 28 },
  tooltip: axisTooltip(props, (value) => (typeof value === 'number' ? `${value} ${props.unit}` : '—')),
  xAxis: timeAxis(props),
  yAxis: { type: 'value', min: 0, max: 60, interval: 30, name: props.unit },
  series: [
    {
      type: 'bar',
      name: props.name,
      data: props.minutes.map((m): TimePoint => [m.ts * 1000, m.move]),
      barMaxWidth: 4,
      itemStyle: { color: CHART_COLOURS.movement },
    },
  ],
});

export interface TrendLine {
  name: string;
  colour: string;
  unit: string;
  /** A line of another scale (breathing beside heart rate) gets its own axis, on the right. */
  rightAxis?: boolean;
  /** A heart or breathing rate: its axis is the rate's clinical range (shared/charts/vital-axis.ts). */
  rate?: VitalRate;
  /** One value per night, null where the night has none. */
  values: readonly (number | null)[];
}

/**
 * A figure over the month's nights: one point per night, gaps where a night has no value. The
 * points are drawn so each can be clicked to open its night.
 */
export const trendOption = (props: {
  nights: readonly string[];
  lines: readonly TrendLine[];
  valueText: (value: number) => string;
  min?: number;
  max?: number;
}): ReportChartOption => {
  const left = props.lines.find((line) => !line.rightAxis);
  const right = props.lines.find((line) => line.rightAxis);
  const units = [left?.unit ?? '', ...(right ? [right.unit] : [])];
  const several = props.lines.length > 1;
  return {
    animation: false,
    grid: { left: 8, right: 8, top: several ? 56 : 32, bottom: 8, outerBoundsMode: 'same', outerBoundsContain: 'all' },
    ...(several ? { legend: { top: 0, left: 'center' } } : {}),
    tooltip: {
      trigger: 'axis',
      formatter: (params: unknown) => {
        const items = (Array.isArray(params) ? params : [params]) as {
          name?: string;
          seriesIndex?: number;
          seriesName?: string;
          value?: unknown;
          marker?: string;
        }[];
        const lines = items.map((item) => {
          const unit = props.lines[item.seriesIndex ?? 0]?.unit ?? '';
          const value = typeof item.value === 'number' ? `${props.valueText(item.value)} ${unit}`.trim() : '—';
          return `${item.marker ?? ''}${item.seriesName ?? ''}: ${value}`;
        });
        return [items[0]?.name ?? '', ...lines].join('<br/>');
      },
    },
    xAxis: {
      type: 'category',
      data: [...props.nights],
      axisLabel: { formatter: (night: string) => night.slice(5), hideOverlap: true },
    },
    yAxis: units.map((unit, i) => {
      const rate = (i === 0 ? left : right)?.rate;
      const placed = {
        nameTextStyle: { align: i === 0 ? ('left' as const) : ('right' as const) },
        splitLine: { show: i === 0 },
      };
      if (rate) return { ...vitalAxis(rate, unit), ...placed };
      return {
        type: 'value' as const,
        name: unit,
        ...placed,
        ...(props.min === undefined ? { scale: true } : { min: props.min }),
        ...(props.max === undefined ? {} : { max: props.max }),
      };
    }),
    series: props.lines.map((line): LineSeriesOption => ({
      type: 'line',
      name: line.name,
      data: [...line.values],
      yAxisIndex: line.rightAxis ? 1 : 0,
      connectNulls: false,
      showSymbol: true,
      symbolSize: 7,
      lineStyle: { width: 2, color: line.colour },
      itemStyle: { color: line.colour },
    })),
  };
};
