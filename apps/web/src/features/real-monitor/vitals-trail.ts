import type { LiveVitals, VitalsMinute } from '@vigil/contract/browser';
import { measured } from '../../shared/charts/vital-axis.ts';

/** One live sample of a resident's rates, Unix seconds. */
export interface VitalsPoint {
  ts: number;
  heartRate: number | null;
  breathRate: number | null;
}

/** How much of the live trail the charts keep after the last hour's minutes: ten minutes. */
export const LIVE_WINDOW_SECONDS = 600;

/**
 * The sample a pushed row adds to the trail; for an offline monitor a break just after its last
 * sample (the line must not run across the time it was away); null before any sample.
 */
export const pointOf = (vitals: LiveVitals): VitalsPoint | null => {
  if (vitals.ts === null) return null;
  if (!vitals.online) return { ts: vitals.ts + 1, heartRate: null, breathRate: null };
  return { ts: vitals.ts, heartRate: vitals.heartRate, breathRate: vitals.breathRate };
};

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

/** The longest time the line spans without a point: a minute between minutes, half a minute between samples. */
const MINUTE_GAP_S = 60;
const SAMPLE_GAP_S = 30;
/** From the last stored minute to the first live sample: the minute being summed and the one being written. */
const HANDOVER_GAP_S = 180;

/**
 * A rate's line: the last hour's minute averages, then the live samples taken after the last of
 * those minutes began. A reading of 0 is none measured (docs/device-protocol.md) and, like a
 * missing minute or a pause in the samples, breaks the line: it never runs down to the axis or
 * across time nothing was measured in.
 */
export const chartPoints = (
  history: readonly VitalsMinute[],
  trail: readonly VitalsPoint[],
  rate: 'heartRate' | 'breathRate',
): ChartPoint[] => {
  const lastMinute = history.at(-1)?.ts ?? Number.NEGATIVE_INFINITY;
  const timed = [
    ...history.map((m) => ({ ts: m.ts, value: measured(m[rate]), gap: MINUTE_GAP_S })),
    ...trail.filter((p) => p.ts > lastMinute).map((p) => ({ ts: p.ts, value: measured(p[rate]), gap: SAMPLE_GAP_S })),
  ];
  const points: ChartPoint[] = [];
  let previous: { ts: number; gap: number } | undefined;
  for (const point of timed) {
    const allowed = previous && previous.gap !== point.gap ? HANDOVER_GAP_S : point.gap;
    if (previous && point.ts - previous.ts > allowed && points.at(-1)?.[1] !== null) {
      points.push([(previous.ts + 1) * 1000, null]);
    }
    points.push([point.ts * 1000, point.value]);
    previous = point;
  }
  return points;
};
