/**
 * Simulated time. The scenario timeline and the residents' days (sleep cycles, bedtimes, scripted
 * scenarios) run on a simulated clock that starts at `start` and runs `speed` times faster than
 * real time (`speed` 60: one simulated hour per real minute).
 *
 * What the messages carry as `ts` is a separate choice (`tsMode`):
 * - `real` (the default): `ts` is the wall clock. The server drops messages more than 5 minutes
 *   ahead of its clock or more than 7 days old, and times offline detection and alarms on its own
 *   clock, so with any acceleration only real time is always valid. Only the content is
 *   accelerated: a 90-minute sleep cycle passes in 90 seconds at `speed` 60.
 * - `simulated`: `ts` is the simulated clock, for replaying a past night (with `speed` 1, or with
 *   a start far enough in the past that the simulated clock never overtakes real time by more
 *   than the server allows; `checkSimulatedTs` refuses any other run).
 */
import { MAX_CLOCK_AHEAD_S, MAX_MESSAGE_AGE_S } from '@vigil/contract';

export type TsMode = 'real' | 'simulated';

export interface SimClockOptions {
  /** Simulated start (epoch ms); default: now. */
  start?: number;
  /** Simulated seconds per real second; default 1. */
  speed?: number;
  tsMode?: TsMode;
  /** The wall clock (epoch ms); tests may replace it. */
  realNow?: () => number;
  /** Simulated time stands at `start` until `anchor()` (a fleet anchors once connected). Default false. */
  paused?: boolean;
}

export class SimClock {
  readonly speed: number;
  readonly simStart: number;
  /** The real instant the simulated clock stood at `simStart` (moved by `anchor`). */
  realStart: number;
  readonly tsMode: TsMode;
  private readonly wall: () => number;
  private paused: boolean;

  constructor(options: SimClockOptions = {}) {
    this.wall = options.realNow ?? Date.now;
    this.realStart = this.wall();
    this.simStart = options.start ?? this.realStart;
    this.speed = options.speed ?? 1;
    this.tsMode = options.tsMode ?? 'real';
    this.paused = options.paused ?? false;
    if (!(this.speed > 0) || !Number.isFinite(this.speed)) throw new Error(`speed must be a positive number`);
  }

  /** Starts simulated time from `simStart` now (a fleet does so once its devices are connected). */
  anchor(): void {
    this.realStart = this.wall();
    this.paused = false;
  }

  realNow(): number {
    return this.wall();
  }

  /** Simulated time, epoch ms. */
  simNow(): number {
    if (this.paused) return this.simStart;
    return this.simStart + (this.wall() - this.realStart) * this.speed;
  }

  /** Real milliseconds until the simulated instant `simMs` (0 when it has passed). */
  realDelayUntil(simMs: number): number {
    return Math.max(0, (simMs - this.simNow()) / this.speed);
  }

  /** Real milliseconds of a simulated span. */
  toReal(simMs: number): number {
    return simMs / this.speed;
  }

  /** A message's `ts`: Unix seconds with milliseconds, from the clock `tsMode` names. */
  ts(): number {
    const ms = this.tsMode === 'real' ? this.wall() : this.simNow();
    return Math.round(ms) / 1000;
  }
}

/**
 * Why a run with simulated `ts` would send messages the server drops, or null when it would not:
 * the simulated clock must stay within 5 minutes ahead of real time (with a margin) up to the
 * simulated end, and not start more than 7 days in the past.
 */
export const checkSimulatedTs = (
  startMs: number,
  speed: number,
  durationSimMs: number | undefined,
  realNowMs: number,
): string | null => {
  const marginMs = 30_000;
  if (startMs < realNowMs - MAX_MESSAGE_AGE_S * 1000 + 60 * 60_000) {
    return 'with simulated ts the start must be less than 7 days ago (the server drops older messages)';
  }
  if (startMs > realNowMs + MAX_CLOCK_AHEAD_S * 1000 - marginMs) {
    return 'with simulated ts the start must not be in the future (the server drops messages 5 minutes ahead)';
  }
  if (speed === 1) return null;
  if (durationSimMs === undefined) {
    return 'with simulated ts and a speed other than 1, give --duration: an endless accelerated clock overtakes real time';
  }
  const simEnd = startMs + durationSimMs;
  const realEnd = realNowMs + durationSimMs / speed;
  if (simEnd > realEnd + MAX_CLOCK_AHEAD_S * 1000 - marginMs) {
    return (
      'with simulated ts the simulated clock would run more than 5 minutes ahead of real time before the end: ' +
      `start at least ${Math.ceil((simEnd - realEnd) / 60_000)} minutes earlier, or shorten --duration`
    );
  }
  return null;
};

// --- Parsing times and durations (CLI and library options) ----------------------------------------

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `10m`, `1.5h`, `2d`, `500ms` or a bare number of seconds → milliseconds. */
export const parseDuration = (text: string): number => {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!m?.[1]) throw new Error(`not a duration: "${text}" (e.g. 90s, 10m, 1.5h, 2d)`);
  const ms = Number(m[1]) * (UNIT_MS[m[2] ?? 's'] ?? 1000);
  if (!Number.isFinite(ms) || ms <= 0) throw new Error(`not a positive duration: "${text}"`);
  return ms;
};

/** The local time of day `HH:MM[:SS]` → seconds since midnight, or null for another text. */
export const parseTimeOfDay = (text: string): number | null => {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!m) return null;
  const [h, min, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (h > 23 || min > 59 || s > 59) throw new Error(`not a time of day: "${text}"`);
  return h * 3600 + min * 60 + s;
};

/** The first instant at or after `fromMs` whose local time of day is `secondOfDay`. */
export const nextTimeOfDay = (fromMs: number, secondOfDay: number): number => {
  const d = new Date(fromMs);
  const at = new Date(d.getFullYear(), d.getMonth(), d.getDate(), 0, 0, secondOfDay).getTime();
  if (at >= fromMs) return at;
  const next = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1, 0, 0, secondOfDay);
  return next.getTime();
};

/**
 * `--start`: `now`, an ISO date-time (`2026-03-01T22:00`, local unless it names a zone), or a local
 * time of day `HH:MM` meaning its most recent occurrence (today, or yesterday when it is still to
 * come), so an accelerated run starting then stays behind real time.
 */
export const parseStart = (text: string, nowMs: number): number => {
  const t = text.trim();
  if (t === '' || t === 'now') return nowMs;
  const tod = parseTimeOfDay(t);
  if (tod !== null) {
    const next = nextTimeOfDay(nowMs, tod);
    if (next === nowMs) return next;
    const d = new Date(next);
    return new Date(d.getFullYear(), d.getMonth(), d.getDate() - 1, 0, 0, tod).getTime();
  }
  const ms = Date.parse(t);
  if (Number.isNaN(ms)) throw new Error(`not a start time: "${text}" (now, HH:MM or an ISO date-time)`);
  return ms;
};
