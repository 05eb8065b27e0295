import { clamp, type Rng } from '../random.ts';

/**
 * A simulated resident's days: when they lie in bed, when they are in their room, and their sleep
 * stages through the night. Sleep monitors, fall radars, call buttons and badges of the same room
 * share one resident, so what they report agrees (the radar sees the room occupied while the mat
 * feels someone in bed; it sees someone sit up before a night-time trip to the toilet).
 *
 * Days are planned noon to noon, each from its own random stream, so the plan for any instant is
 * the same however the simulation got there. Times are the simulator's local time (set TZ).
 */

export type SleepStage = 'out' | 'awake' | 'light' | 'deep' | 'rem';

export interface ResidentProfile {
  /** Usual bedtime, seconds after midnight (evening). */
  bedtimeS: number;
  /** Usual waking time, seconds after midnight (morning). */
  wakeS: number;
  /** Heart rate at rest, awake and lying down (the sleeping rate is a little lower). */
  restHr: number;
  /** Breathing rate at rest, awake. */
  restRr: number;
  /** Apnea episodes per hour asleep (apnea–hypopnea index; above 5 is sleep apnea). */
  apneaPerHour: number;
  /** Average night-time trips out of bed (toilet). */
  nightTripsMean: number;
  /** Chance of an afternoon nap in bed. */
  napChance: number;
  /** Share of the waking day spent in the room. */
  roomShare: number;
}

export interface ResidentState {
  inBed: boolean;
  inRoom: boolean;
  stage: SleepStage;
  /** The state holds until this instant (epoch ms). */
  until: number;
}

export interface Override {
  from: number;
  to: number;
  inBed?: boolean;
  inRoom?: boolean;
  stage?: SleepStage;
}

interface Point {
  at: number;
  inBed: boolean;
  inRoom: boolean;
  stage: SleepStage;
}

interface Period {
  from: number;
  to: number;
  points: Point[];
  /** Night-time trips out of bed (radars see the resident sit up before each). */
  trips: { from: number; to: number }[];
}

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Local noon of the day `ms` falls in, or of the day before when `ms` is before noon. */
const periodStart = (ms: number): number => {
  const d = new Date(ms);
  const noon = new Date(d.getFullYear(), d.getMonth(), d.getDate(), 12).getTime();
  if (ms >= noon) return noon;
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() - 1, 12).getTime();
};
const nextNoon = (noon: number): number => {
  const d = new Date(noon);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1, 12).getTime();
};
const atLocal = (dayMs: number, secondOfDay: number, plusDays = 0): number => {
  const d = new Date(dayMs);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + plusDays, 0, 0, secondOfDay).getTime();
};
const dayKey = (ms: number): string => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
};

export const randomProfile = (rng: Rng): ResidentProfile => {
  const apneic = rng.chance(0.25);
  return {
    bedtimeS: Math.round(rng.range(21.25, 23.25) * 3600),
    wakeS: Math.round(rng.range(6, 7.5) * 3600),
    restHr: Math.round(rng.range(60, 74)),
    restRr: Math.round(rng.range(14, 17)),
    apneaPerHour: apneic ? rng.range(6, 18) : rng.range(0.3, 3),
    nightTripsMean: rng.range(0.4, 2),
    napChance: rng.range(0.2, 0.7),
    roomShare: rng.range(0.3, 0.7),
  };
};

/** Share of deep and REM sleep in the k-th cycle of a night: deep early, REM late. */
const DEEP_SHARE = [0.35, 0.25, 0.12, 0.05, 0.03];
const REM_SHARE = [0.12, 0.2, 0.26, 0.3, 0.34];

export class Resident {
  readonly profile: ResidentProfile;
  private readonly periods = new Map<number, Period>();
  private readonly overrides: Override[] = [];

  constructor(
    private readonly rng: Rng,
    profile: Partial<ResidentProfile> = {},
  ) {
    this.profile = { ...randomProfile(rng.derive('profile')), ...profile };
  }

  /** Bumped by every override: a cached state of an earlier revision is stale. */
  revision = 0;

  /** Forces a state over [from, to): scripted scenarios (leave bed, fall). The latest wins. */
  override(o: Override): void {
    this.overrides.push(o);
    this.revision++;
  }

  /** Night-time trips out of bed in the period holding `ms`. */
  tripsAround(ms: number): readonly { from: number; to: number }[] {
    return this.period(ms).trips;
  }

  stateAt(ms: number): ResidentState {
    const period = this.period(ms);
    let base: Point | undefined;
    let until = period.to;
    for (let i = period.points.length - 1; i >= 0; i--) {
      const p = period.points[i] as Point;
      if (p.at <= ms) {
        base = p;
        break;
      }
      until = p.at;
    }
    const state: ResidentState = {
      inBed: base?.inBed ?? false,
      inRoom: base?.inRoom ?? false,
      stage: base?.stage ?? 'out',
      until,
    };
    for (const o of this.overrides) {
      if (o.from > ms) state.until = Math.min(state.until, o.from);
      if (o.from <= ms && ms < o.to) {
        state.until = Math.min(state.until, o.to);
        if (o.inBed !== undefined) state.inBed = o.inBed;
        if (o.inRoom !== undefined) state.inRoom = o.inRoom;
        if (o.stage !== undefined) state.stage = o.stage;
        else if (o.inBed === false) state.stage = 'out';
        else if (o.inBed === true && state.stage === 'out') state.stage = 'awake';
        if (!state.inBed) state.stage = 'out';
        if (state.inBed) state.inRoom = true;
      }
    }
    return state;
  }

  private period(ms: number): Period {
    const from = periodStart(ms);
    let period = this.periods.get(from);
    if (!period) {
      period = this.plan(from);
      this.periods.set(from, period);
      if (this.periods.size > 4) {
        const oldest = Math.min(...this.periods.keys());
        this.periods.delete(oldest);
      }
    }
    return period;
  }

  /** Plans one noon-to-noon period: the day's room stays, an afternoon nap, the night. */
  private plan(noon: number): Period {
    const to = nextNoon(noon);
    const rng = this.rng.derive(`day:${dayKey(noon)}`);
    const p = this.profile;
    const bedtime = clamp(
      atLocal(noon, p.bedtimeS) + rng.normal(0, 20) * MIN,
      atLocal(noon, 20 * 3600),
      atLocal(noon, 23 * 3600 + 50 * 60),
    );
    const wake = clamp(
      atLocal(noon, p.wakeS, 1) + rng.normal(0, 15) * MIN,
      atLocal(noon, 5 * 3600, 1),
      atLocal(noon, 8 * 3600 + 30 * 60, 1),
    );

    // Night-time trips out of bed, each a few minutes, never overlapping.
    const trips: { from: number; to: number }[] = [];
    const count = rng.poisson(p.nightTripsMean);
    for (let i = 0; i < count; i++) {
      const start = rng.range(bedtime + 45 * MIN, wake - 40 * MIN);
      const end = start + rng.range(3, 12) * MIN;
      if (trips.every((t) => end + 10 * MIN < t.from || start > t.to + 10 * MIN)) trips.push({ from: start, to: end });
    }
    trips.sort((a, b) => a.from - b.from);

    const nap = rng.chance(p.napChance)
      ? (() => {
          const start = atLocal(noon, Math.round(rng.range(13, 15) * 3600));
          return { from: start, to: start + rng.range(30, 90) * MIN };
        })()
      : null;

    // Stages through the night: a first falling-asleep latency, then ~90-minute cycles of light,
    // deep, light and REM sleep (deep early, REM late), sometimes ending in a brief awakening, and
    // lying awake for a while before getting up.
    const stages: { at: number; stage: SleepStage }[] = [{ at: bedtime, stage: 'awake' }];
    let t = bedtime + rng.range(8, 30) * MIN;
    const wakeUp = wake - rng.range(5, 20) * MIN;
    for (let k = 0; t < wakeUp; k++) {
      const length = clamp(rng.normal(92, 10), 75, 120) * MIN;
      const deep = length * (DEEP_SHARE[k] ?? 0.02) * rng.range(0.8, 1.2);
      const rem = length * (REM_SHARE[k] ?? 0.35) * rng.range(0.8, 1.2);
      const light = length - deep - rem;
      const cycle: [SleepStage, number][] = [
        ['light', light * 0.55],
        ['deep', deep],
        ['light', light * 0.45],
        ['rem', rem],
      ];
      if (rng.chance(0.3)) cycle.push(['awake', rng.range(1, 4) * MIN]);
      for (const [stage, span] of cycle) {
        if (t >= wakeUp || span <= 0) continue;
        stages.push({ at: t, stage });
        t += span;
      }
    }
    stages.push({ at: wakeUp, stage: 'awake' });

    // Room stays through the waking day: alternating in and out of the room.
    const inRoomSpans: { from: number; to: number }[] = [];
    const roomDay = (from: number, until: number) => {
      let at = from;
      let inside = rng.chance(p.roomShare);
      while (at < until) {
        const span = (inside ? rng.range(20, 100) * p.roomShare * 2 : rng.range(20, 100) * (1 - p.roomShare) * 2) * MIN;
        const end = Math.min(until, at + Math.max(5 * MIN, span));
        if (inside) inRoomSpans.push({ from: at, to: end });
        at = end;
        inside = !inside;
      }
    };
    roomDay(noon, bedtime - 30 * MIN);
    inRoomSpans.push({ from: bedtime - rng.range(10, 30) * MIN, to: wake + rng.range(10, 40) * MIN });
    roomDay(wake + 40 * MIN, to);

    // Change points: every boundary of any of the spans above.
    const bedSpans: { from: number; to: number; night: boolean }[] = [];
    let from = bedtime;
    for (const trip of trips) {
      bedSpans.push({ from, to: trip.from, night: true });
      from = trip.to;
    }
    bedSpans.push({ from, to: wake, night: true });
    if (nap) bedSpans.push({ ...nap, night: false });
    if (nap) inRoomSpans.push({ from: nap.from - 5 * MIN, to: nap.to + 5 * MIN });

    const boundaries = new Set<number>([noon]);
    for (const s of [...bedSpans, ...inRoomSpans]) {
      boundaries.add(s.from);
      boundaries.add(s.to);
    }
    for (const s of stages) boundaries.add(s.at);
    // After a trip the resident lies awake a few minutes before sleeping again.
    const resettle = trips.map((trip) => ({ from: trip.to, to: trip.to + rng.range(2, 10) * MIN }));
    for (const r of resettle) boundaries.add(r.to);
    const napOnset = nap ? nap.from + rng.range(5, 15) * MIN : 0;
    const napStages: { at: number; stage: SleepStage }[] = nap
      ? [
          { at: nap.from, stage: 'awake' },
          { at: napOnset, stage: 'light' },
          { at: napOnset + rng.range(10, 25) * MIN, stage: 'deep' },
          { at: napOnset + rng.range(30, 40) * MIN, stage: 'light' },
          { at: nap.to - 3 * MIN, stage: 'awake' },
        ]
      : [];
    for (const s of napStages) boundaries.add(s.at);

    const within = (spans: { from: number; to: number }[], ms: number) => spans.some((s) => s.from <= ms && ms < s.to);
    const stageAt = (list: { at: number; stage: SleepStage }[], ms: number): SleepStage => {
      let stage: SleepStage = 'awake';
      for (const s of list) {
        if (s.at > ms) break;
        stage = s.stage;
      }
      return stage;
    };
    const points: Point[] = [...boundaries]
      .filter((at) => at >= noon && at < to)
      .sort((a, b) => a - b)
      .map((at) => {
        const bed = bedSpans.find((s) => s.from <= at && at < s.to);
        const inBed = bed !== undefined;
        let stage: SleepStage = 'out';
        if (bed?.night) stage = within(resettle, at) ? 'awake' : stageAt(stages, at);
        else if (bed) stage = stageAt(napStages, at);
        return { at, inBed, inRoom: inBed || within(inRoomSpans, at), stage };
      });
    // Drop points that change nothing.
    const compact = points.filter(
      (p, i) =>
        i === 0 ||
        p.inBed !== points[i - 1]?.inBed ||
        p.inRoom !== points[i - 1]?.inRoom ||
        p.stage !== points[i - 1]?.stage,
    );
    return { from: noon, to, points: compact, trips };
  }
}

export const HOUR_MS = HOUR;
export const MINUTE_MS = MIN;
