import { BarChart, LineChart } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
  VisualMapPiecewiseComponent,
} from 'echarts/components';
import { init, use, type EChartsType } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { chartTextStyle, redrawOnFonts } from '../../shared/charts/chart-text.ts';
import type { ReportChartOption } from './report-charts.ts';

// Only what the report's charts draw: the screens' chunk stays small.
use([
  LineChart,
  BarChart,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
  VisualMapPiecewiseComponent,
  CanvasRenderer,
]);

/**
 * An ECharts chart filling its container's width, redrawn whole when its option changes.
 * `onPick` receives the category (a night) of a clicked point.
 */
export const ReportChart = (props: {
  option: ReportChartOption;
  testId: string;
  height: number;
  onPick?: (category: string) => void;
}) => {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const onPick = useRef(props.onPick);
  useEffect(() => {
    onPick.current = props.onPick;
  }, [props.onPick]);

  useEffect(() => {
    if (!element.current) return;
    const instance = init(element.current);
    chart.current = instance;
    instance.on('click', (params) => {
      if (params.componentType === 'series' && typeof params.name === 'string' && params.name) {
        onPick.current?.(params.name);
      }
    });
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const draw = () => chart.current?.setOption({ textStyle: chartTextStyle(), ...props.option }, { notMerge: true });
    draw();
    // A web font that arrives after the first drawing is not used by the canvas until it draws again.
    return redrawOnFonts(draw);
  }, [props.option]);

  return (
    <div
      ref={element}
      data-testid={props.testId}
      style={{ width: '100%', height: props.height, cursor: props.onPick ? 'pointer' : undefined }}
    />
  );
};
