import { BarChart, LineChart } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  TooltipComponent,
  VisualMapPiecewiseComponent,
} from 'echarts/components';
import { init, use, type EChartsType } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { CONSOLE_ANTD_CONFIG } from '../../shared/ui/antd-config.ts';
import type { ReportChartOption } from './report-charts.ts';

// Only what the report's charts draw: the screens' chunk stays small.
use([
  LineChart,
  BarChart,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  TooltipComponent,
  VisualMapPiecewiseComponent,
  CanvasRenderer,
]);

/**
 * The canvas knows nothing of the page's fonts: without the console's own stack (the bundled Noto
 * faces first) Chinese, Japanese and Korean labels are drawn as empty boxes where no system font
 * has them, as in headless browsers.
 */
const FONT_FAMILY = CONSOLE_ANTD_CONFIG.theme.token.fontFamily;

/**
 * A web font often arrives after a chart's first drawing (the Noto faces load in pieces, as text
 * needs them). ECharts keeps the widths it measured per font name, so a chart drawn again under
 * the same name would lay out legends with the fallback's widths; each arrival of fonts gives the
 * charts a new name for the same stack (an unknown last family changes nothing else).
 */
let fontArrivals = 0;
const fonts = typeof document === 'undefined' ? undefined : document.fonts;
fonts?.addEventListener('loadingdone', () => {
  fontArrivals += 1;
});
const textStyle = () => ({
  fontFamily: fontArrivals === 0 ? FONT_FAMILY : `${FONT_FAMILY}, vigil-fonts-${fontArrivals}`,
});

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
    const draw = () => chart.current?.setOption({ textStyle: textStyle(), ...props.option }, { notMerge: true });
    draw();
    // A web font that arrives after the first drawing is not used by the canvas until it draws again.
    fonts?.addEventListener('loadingdone', draw);
    return () => fonts?.removeEventListener('loadingdone', draw);
  }, [props.option]);

  return (
    <div
      ref={element}
      data-testid={props.testId}
      style={{ width: '100%', height: props.height, cursor: props.onPick ? 'pointer' : undefined }}
    />
  );
};
