import { LineChart } from 'echarts/charts';
import { GridComponent, MarkAreaComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import { init, use, type EChartsType } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { chartTextStyle, redrawOnFonts } from '../../shared/charts/chart-text.ts';
import type { VitalsChartOption } from './vitals-chart-option.ts';

// Only what a line over time with its limits and alarm marks needs: the page's chunk stays small.
use([LineChart, GridComponent, MarkAreaComponent, MarkLineComponent, TooltipComponent, CanvasRenderer]);

const HEIGHT = 240;

/** An ECharts line chart filling its container's width, redrawn when its option changes. */
export const VitalsChart = ({ option, testId }: { option: VitalsChartOption; testId: string }) => {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);

  useEffect(() => {
    if (!element.current) return;
    const instance = init(element.current);
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    // Whole: marks and bands that went away must not stay from the previous drawing. In the
    // console's fonts: the canvas draws Chinese, Japanese and Korean units as boxes otherwise.
    const draw = () => chart.current?.setOption({ textStyle: chartTextStyle(), ...option }, { notMerge: true });
    draw();
    return redrawOnFonts(draw);
  }, [option]);

  return <div ref={element} data-testid={testId} style={{ width: '100%', height: HEIGHT }} />;
};
