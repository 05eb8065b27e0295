/**
 * The axes every chart of a heart or breathing rate uses (the live charts, the sleep report's
 * curves and its monthly trend): a fixed, clinically meaningful range, so a flat night looks flat
 * and a real change looks like one, with whole-number ticks. A value outside the range widens it by
 * whole ticks rather than being cut off.
 */
export type VitalRate = 'heartRate' | 'breathRate';

export const VITAL_RANGES: Readonly<Record<VitalRate, { min: number; max: number; interval: number }>> = {
  heartRate: { min: 40, max: 120, interval: 20 },
  breathRate: { min: 0, max: 40, interval: 10 },
};

/** A rate as read from a sample or an average: 0, null or not a number means none was measured. */
export const measured = (value: number | null | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;

/**
 * The y axis of a rate: its range, widened by whole intervals to hold every value (and `also`, the
 * limits drawn on it), with integer ticks.
 */
export const vitalAxis = (rate: VitalRate, unit: string, also: readonly number[] = []) => {
  const { min, max, interval } = VITAL_RANGES[rate];
  const low = Math.min(min, ...also);
  const high = Math.max(max, ...also);
  const down = (value: number) => Math.max(0, Math.floor(value / interval) * interval);
  const up = (value: number) => Math.ceil(value / interval) * interval;
  return {
    type: 'value' as const,
    name: unit,
    min: (extent: { min: number }) => down(Number.isFinite(extent.min) ? Math.min(low, extent.min) : low),
    max: (extent: { max: number }) => up(Number.isFinite(extent.max) ? Math.max(high, extent.max) : high),
    interval,
    minInterval: 1,
    axisLabel: { formatter: (value: number) => String(Math.round(value)) },
  };
};
