import type { VitalLimits } from '@vigil/contract/browser';
import type { VitalRate } from './vital-axis.ts';

/** A rate's alarm limits on a chart: outside them the rate is abnormal. */
export interface RateLimits {
  low: number;
  high: number;
}

const BAND = 'rgba(82, 196, 26, 0.08)';
const LIMIT_LINE = '#8c8c8c';

/** The limits of one rate among a bed's limits (null: none known). */
export const rateLimitsOf = (limits: VitalLimits | null | undefined, rate: VitalRate): RateLimits | null =>
  limits
    ? rate === 'heartRate'
      ? { low: limits.heartMin, high: limits.heartMax }
      : { low: limits.breathMin, high: limits.breathMax }
    : null;

/**
 * The limits as every rate chart draws them (the live charts, the sleep report's night curves): a
 * lightly shaded band between them, each edge a dashed line labelled with its value.
 */
export const limitBand = (limits: RateLimits) => ({
  markArea: {
    silent: true,
    itemStyle: { color: BAND },
    data: [[{ yAxis: limits.low }, { yAxis: limits.high }]] as [[{ yAxis: number }, { yAxis: number }]],
  },
  lines: [limits.low, limits.high].map((value) => ({
    yAxis: value,
    lineStyle: { color: LIMIT_LINE, type: 'dashed' as const, width: 1 },
    label: { show: true, position: 'insideEndTop' as const, formatter: String(value), color: LIMIT_LINE },
  })),
});
