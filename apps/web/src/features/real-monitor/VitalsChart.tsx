import { LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { init, use, type EChartsType } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { VitalsChartOption } from './vitals-chart-option.ts';

// Only what a line over time needs: the page's chunk stays small.
use([LineChart, GridComponent, TooltipComponent, CanvasRenderer]);

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
    chart.current?.setOption(option);
  }, [option]);

  return <div ref={element} data-testid={testId} style={{ width: '100%', height: HEIGHT }} />;
};
