/**
 * A night of device messages laid on a one-second grid: what every detector reads. A second
 * without a message is a gap (NaN / UNKNOWN), so the analysis can say how much of the night it
 * saw instead of filling it in.
 */
import { BeatCollector, UNKNOWN, type BeatSeries } from './series.ts';

/** One sleep-monitor telemetry message, as the device protocol carries it (`ts` in Unix seconds;
 * `rr` breaths per minute; `rri` the beat intervals in ms since the previous message). */
export interface DeviceSample {
  ts: number;
  hr?: number | null;
  rr?: number | null;
  inBed?: boolean | null;
  asleep?: boolean | null;
  move?: number | null;
  rri?: readonly number[] | null;
}

export interface NightSignals {
  /** Unix seconds of second 0. */
  start: number;
  seconds: number;
  /** Seconds that carry a message at all. */
  reported: Uint8Array;
  hr: Float32Array;
  breath: Float32Array;
  move: Float32Array;
  /** 1 in bed, 0 out of bed, UNKNOWN without a message saying. */
  inBed: Uint8Array;
  /** 1 asleep, 0 awake, UNKNOWN where the device does not say. */
  asleep: Uint8Array;
  /** Beats rebuilt from `rri`; undefined when the device sends none. */
  beats: BeatSeries | undefined;
}

const flag = (value: boolean | null | undefined): number => (value === true ? 1 : value === false ? 0 : UNKNOWN);

/** A reading the sensor could not take is sent as 0 or left out: both are gaps. */
const reading = (value: number | null | undefined, max: number): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= max ? value : Number.NaN;

/** A night of `seconds` seconds from `start` with nothing reported yet: every second a gap. */
export function emptyNight(start: number, seconds: number): NightSignals {
  return {
    start,
    seconds,
    reported: new Uint8Array(seconds),
    hr: new Float32Array(seconds).fill(Number.NaN),
    breath: new Float32Array(seconds).fill(Number.NaN),
    move: new Float32Array(seconds).fill(Number.NaN),
    inBed: new Uint8Array(seconds).fill(UNKNOWN),
    asleep: new Uint8Array(seconds).fill(UNKNOWN),
    beats: undefined,
  };
}

/**
 * Lays `samples` whose `ts` lies in `[start, end)` on the grid. Several messages in one second:
 * the last wins. Beats: a message's last interval ends at its `ts`, the earlier ones before it.
 */
export function nightSignals(samples: readonly DeviceSample[], start: number, end: number): NightSignals {
  const seconds = Math.max(0, Math.ceil(end - start));
  const night = emptyNight(start, seconds);
  const beats = new BeatCollector();
  for (const sample of samples) {
    const offset = sample.ts - start;
    const second = Math.floor(offset);
    if (!(second >= 0 && second < seconds)) continue;
    night.reported[second] = 1;
    night.hr[second] = reading(sample.hr, 250);
    night.breath[second] = reading(sample.rr, 80);
    night.move[second] = typeof sample.move === 'number' && sample.move >= 0 ? Math.min(100, sample.move) : Number.NaN;
    night.inBed[second] = flag(sample.inBed);
    night.asleep[second] = flag(sample.asleep);
    if (sample.rri) beats.addEndingAt(offset, sample.rri);
  }
  night.beats = beats.series();
  return night;
}
