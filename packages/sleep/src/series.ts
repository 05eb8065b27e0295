/**
 * The signals of one night on a common time axis: second 0 is the night's start. Typed arrays
 * keep a 30,000-sample night in a few hundred kilobytes and let every detector run in a
 * single pass; a gap is NaN (numbers) or UNKNOWN (flags), never a made-up value.
 */

/** A per-second or per-epoch flag that the signal could not decide. */
export const UNKNOWN = 255;

/** Beat-to-beat intervals: `t[i]` is the beat's time in seconds from the night's start,
 * `rr[i]` the interval in ms since the beat before it (as devices send `rri`). */
export interface BeatSeries {
  t: Float64Array;
  rr: Float32Array;
}

/** Seconds per sleep epoch (the AASM / Rechtschaffen & Kales scoring unit). */
export const EPOCH_SECONDS = 30;

/** Sleep stages of a 30-second epoch, as numbers so a hypnogram is a Uint8Array. */
export const Stage = { wake: 0, rem: 1, light: 2, deep: 3 } as const;
export type StageCode = (typeof Stage)[keyof typeof Stage];

/** A beat interval a heart can produce (30–200 bpm); outside it is a missed or extra detection. */
export const isPlausibleRr = (rr: number): boolean => rr >= 300 && rr <= 2000;

/** Beats from parallel arrays, sorted by time, implausible intervals kept (detectors clean them). */
export function beatSeries(times: ArrayLike<number>, intervals: ArrayLike<number>): BeatSeries {
  const n = Math.min(times.length, intervals.length);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (times[a] ?? 0) - (times[b] ?? 0));
  const t = new Float64Array(n);
  const rr = new Float32Array(n);
  order.forEach((from, to) => {
    t[to] = times[from] ?? 0;
    rr[to] = intervals[from] ?? Number.NaN;
  });
  return { t, rr };
}

/**
 * Beats gathered from messages that carry intervals but no beat times (`rri`): each batch's
 * last beat lies at the time given, the ones before it an interval earlier each.
 */
export class BeatCollector {
  private readonly times: number[] = [];
  private readonly intervals: number[] = [];

  addEndingAt(end: number, rri: readonly number[]): void {
    let t = end;
    for (let i = rri.length - 1; i >= 0; i--) {
      const rr = rri[i] ?? Number.NaN;
      this.times.push(t);
      this.intervals.push(rr);
      t -= Number.isFinite(rr) && rr > 0 ? rr / 1000 : 0;
    }
  }

  /** The beats in time order, or undefined when no interval came. */
  series(): BeatSeries | undefined {
    return this.times.length > 0 ? beatSeries(this.times, this.intervals) : undefined;
  }
}
