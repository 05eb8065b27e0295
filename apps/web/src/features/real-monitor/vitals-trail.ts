import type { LiveVitals, VitalsMinute } from '@vigil/contract/browser';

/** One live sample of a resident's rates, Unix seconds. */
export interface VitalsPoint {
  ts: number;
  heartRate: number | null;
  breathRate: number | null;
}

/** How much of the live trail the charts keep after the last hour's minutes: ten minutes. */
export const LIVE_WINDOW_SECONDS = 600;

/** The sample a pushed row adds to the trail, or null when it brings none (offline, or no sample yet). */
export const pointOf = (vitals: LiveVitals): VitalsPoint | null =>
  vitals.online && vitals.ts !== null
    ? { ts: vitals.ts, heartRate: vitals.heartRate, breathRate: vitals.breathRate }
    : null;

/** The trail with a new sample: only a later sample is added, and samples older than the window drop off. */
export const appendPoint = (
  trail: readonly VitalsPoint[],
  point: VitalsPoint,
  windowSeconds = LIVE_WINDOW_SECONDS,
): readonly VitalsPoint[] => {
  const last = trail.at(-1);
  if (last && point.ts <= last.ts) return trail;
  return [...trail.filter((p) => p.ts > point.ts - windowSeconds), point];
};

/** A chart point: browser milliseconds and the rate, null (a gap) when not measured. */
export type ChartPoint = [number, number | null];

const measured = (value: number | null): number | null => (value ? value : null);

/**
 * A rate's line: the last hour's minute averages, then the live samples taken after the last of
 * those minutes began.
 */
export const chartPoints = (
  history: readonly VitalsMinute[],
  trail: readonly VitalsPoint[],
  rate: 'heartRate' | 'breathRate',
): ChartPoint[] => {
  const lastMinute = history.at(-1)?.ts ?? Number.NEGATIVE_INFINITY;
  return [
    ...history.map((minute): ChartPoint => [minute.ts * 1000, measured(minute[rate])]),
    ...trail.filter((p) => p.ts > lastMinute).map((p): ChartPoint => [p.ts * 1000, measured(p[rate])]),
  ];
};
