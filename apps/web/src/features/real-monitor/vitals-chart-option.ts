import type { LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import type { ChartPoint } from './vitals-trail.ts';

export type VitalsChartOption = ComposeOption<LineSeriesOption | GridComponentOption | TooltipComponentOption>;

/** A rate over time: one line, gaps where nothing was measured, no animation (it moves every second). */
export const vitalsChartOption = (props: {
  name: string;
  unit: string;
  colour: string;
  points: ChartPoint[];
}): VitalsChartOption => ({
  animation: false,
  grid: { left: 8, right: 16, top: 32, bottom: 8, outerBoundsMode: 'same', outerBoundsContain: 'all' },
  tooltip: {
    trigger: 'axis',
    valueFormatter: (value) => (typeof value === 'number' ? `${Math.round(value)} ${props.unit}` : '—'),
  },
  xAxis: { type: 'time', splitLine: { show: false }, axisLabel: { hideOverlap: true } },
  yAxis: { type: 'value', scale: true, name: props.unit, nameTextStyle: { align: 'left' } },
  series: [
    {
      type: 'line',
      name: props.name,
      data: props.points,
      showSymbol: false,
      connectNulls: false,
      lineStyle: { width: 2, color: props.colour },
      itemStyle: { color: props.colour },
    },
  ],
});
