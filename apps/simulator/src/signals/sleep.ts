import type { MAT_STATES } from '@vigil/contract';
import { clamp, type Rng } from '../random.ts';
import { Resident, type ResidentState, type SleepStage } from './resident.ts';

/**
 * The sleep monitor's signal: what an under-mattress pad measures, second by second, of the
 * resident lying on it.
 *
 * - Sleep stages come from the resident's night (about 90-minute cycles; deep sleep early, REM
 *   late). Heart and breathing rates follow the stage: highest awake, lowest and most regular in
 *   deep sleep, irregular in REM; each wanders around its target (an Ornstein–Uhlenbeck process)
 *   with a slow drift on top, and beat-to-beat intervals carry respiratory sinus arrhythmia.
 * - Movement: restless while awake, turning over now and then in light sleep, twitches in REM,
 *   still in deep sleep, a burst on getting in or out of bed.
 * - Apnea episodes: breathing stops (rr 0) for 10–60 s, the heart slows, then an arousal: a
 *   gasp (faster breathing), a heart-rate surge and a movement burst.
 * - Out of bed (or the mat dislodged): hr, rr and move are 0.
 *
 * The process advances in steps of one simulated second on a fixed grid, each step drawing from
 * its own random stream, so the same seed gives the same seconds however often it is sampled.
 */

export type MatState = (typeof MAT_STATES)[number];

export interface SleepSample {
  /** Simulated instant of the sample (epoch ms). */
  at: number;
  hr: number;
  rr: number;
  inBed: boolean;
  asleep: boolean;
  /** Strongest movement since the previous sample, 0–100. */
  move: number;
  /** Beat-to-beat intervals (ms) since the previous sample, at most 600. */
  rri: number[];
  stage: SleepStage;
  apnea: boolean;
  mat: MatState;
  /** The mat's state changed since the previous sample. */
  matChanged: boolean;
}

export interface SleepSignalOptions {
  /** Simulated start (epoch ms). */
  start: number;
  /** The resident on the bed; default: a new one from `rng`. */
  resident?: Resident;
  /** Multiplies the rates of rare happenings (apnea excepted): mat dislodged. Default 1. */
  eventRate?: number;
  /** Mat dislodgements per simulated day (before eventRate). Default 1/30. */
  matDislodgePerDay?: number;
  /** Longest simulated gap stepped second by second; longer gaps jump. Default 2 h. */
  maxCatchUpMs?: number;
}

const STAGE_HR: Record<SleepStage, number> = { out: 14, awake: 3, light: -5, deep: -10, rem: -1 };
const STAGE_RR: Record<SleepStage, number> = { out: 2, awake: 1, light: -1.5, deep: -3, rem: 0.5 };
const STAGE_HR_NOISE: Record<SleepStage, number> = { out: 1, awake: 0.9, light: 0.6, deep: 0.35, rem: 1.3 };
const STAGE_RR_NOISE: Record<SleepStage, number> = { out: 0.3, awake: 0.3, light: 0.18, deep: 0.08, rem: 0.45 };
/** Movement bursts per hour, their strength and length (s). */
const BURSTS: Record<SleepStage, { perHour: number; min: number; max: number; secs: [number, number] }> = {
  out: { perHour: 0, min: 0, max: 0, secs: [0, 0] },
  awake: { perHour: 40, min: 15, max: 55, secs: [2, 10] },
  light: { perHour: 3, min: 30, max: 80, secs: [3, 8] },
  deep: { perHour: 0.4, min: 20, max: 50, secs: [2, 4] },
  rem: { perHour: 8, min: 5, max: 15, secs: [1, 2] },
};
const BASE_MOVE: Record<SleepStage, [number, number]> = {
  out: [0, 0],
  awake: [7, 4],
  light: [1, 1],
  deep: [0.2, 0.3],
  rem: [1, 1],
};
/** Apnea strikes mostly in light sleep and REM. */
const APNEA_WEIGHT: Record<SleepStage, number> = { out: 0, awake: 0, light: 1, deep: 0.3, rem: 1.4 };

export const isAsleep = (stage: SleepStage): boolean => stage === 'light' || stage === 'deep' || stage === 'rem';

/**
 * Obstructive apneas come in clusters: runs of events every 30–80 s (breathing stops, an arousal
 * and a gasp, again), which is what makes the heart rate swing in cycles (CVHR). The more
 * severe the apnea, the longer the runs; someone with a few events an hour has them alone.
 */
const clusterMean = (perHour: number): number => clamp(perHour / 1.5, 1, 15);
const clusterSize = (rng: Rng, perHour: number): number => {
  const mean = clusterMean(perHour);
  return rng.int(Math.max(1, Math.round(mean / 2)), Math.max(1, Math.round(mean * 1.5)));
};

export class SleepSignal {
  readonly resident: Resident;
  private readonly rng: Rng;
  private readonly eventRate: number;
  private readonly matPerHour: number;
  private readonly maxCatchUpMs: number;

  /** Start of the next step (ms, whole seconds). */
  private t: number;
  private state: ResidentState;
  private revision = -1;
  private hr: number;
  private rr: number;
  private hrDrift = 0;
  private activity = 0;
  private arousal = 0;
  private apneaLeft = 0;
  private gaspLeft = 0;
  /** Apneas still to come in the current cluster. */
  private clusterLeft = 0;
  /** The fast part of the heart's answer to an apnea (bpm): a sag while breathing stops, a
   * surge within seconds of the arousal that ends it (cyclic variation of heart rate). */
  private cvhr = 0;
  private surge = 0;
  private burstLeft = 0;
  private burstLevel = 0;
  private toNextBeat = 0;
  private ibi = 1000;
  private mat: MatState = 'connected';
  private matUntil = 0;
  private readonly forcedApnea: { from: number; secs: number }[] = [];
  private readonly forcedMat: { from: number; to: number }[] = [];

  // Since the last sample.
  private beats: number[] = [];
  private moveMax = 0;
  private matChanged = false;
  private last: SleepSample;

  constructor(rng: Rng, options: SleepSignalOptions) {
    this.rng = rng.derive('signal');
    this.resident = options.resident ?? new Resident(rng.derive('resident'));
    this.eventRate = options.eventRate ?? 1;
    this.matPerHour = ((options.matDislodgePerDay ?? 1 / 30) / 24) * this.eventRate;
    this.maxCatchUpMs = options.maxCatchUpMs ?? 2 * 3_600_000;
    this.t = Math.floor(options.start / 1000) * 1000;
    this.state = this.resident.stateAt(this.t);
    const p = this.resident.profile;
    this.hr = p.restHr + STAGE_HR[this.state.stage];
    this.rr = p.restRr + STAGE_RR[this.state.stage];
    this.last = this.sample(this.t);
  }

  /** An apnea episode of `secs` seconds at `from` (simulated ms), if the resident is asleep then. */
  scheduleApnea(from: number, secs: number): void {
    this.forcedApnea.push({ from: Math.floor(from / 1000) * 1000, secs });
  }

  /** The mat slips from under the mattress over [from, to). */
  dislodgeMat(from: number, to: number): void {
    this.forcedMat.push({ from, to });
  }

  /** Staff put the mat back (the force_init command): connected again from now. */
  reseatMat(): void {
    this.matUntil = 0;
    for (const f of this.forcedMat) if (f.to > this.t) f.to = Math.min(f.to, this.t);
    if (this.mat !== 'connected') {
      this.mat = 'connected';
      this.matChanged = true;
    }
  }

  get lastSample(): SleepSample {
    return this.last;
  }

  /** Steps up to simulated instant `to` and returns what the pad reports for the span. */
  advance(to: number): SleepSample {
    if (to - this.t > this.maxCatchUpMs) {
      // A long gap (the process was paused): jump, keeping the physiology.
      this.t = Math.floor((to - 60_000) / 1000) * 1000;
      this.state = this.resident.stateAt(this.t);
    }
    if (this.t + 1000 > to) return { ...this.last, rri: [], matChanged: false, move: this.last.move };
    while (this.t + 1000 <= to) this.step();
    this.last = this.sample(this.t);
    this.beats = [];
    this.moveMax = 0;
    this.matChanged = false;
    return this.last;
  }

  private sample(at: number): SleepSample {
    const { inBed: lying, stage } = this.state;
    const measured = lying && this.mat === 'connected';
    const rri = measured ? this.beats.slice(-600) : [];
    return {
      at,
      hr: measured ? Math.round(clamp(this.hr + this.cvhr, isAsleep(stage) ? 42 : 40, isAsleep(stage) ? 98 : 140)) : 0,
      rr: measured && this.apneaLeft <= 0 ? Math.round(clamp(this.rr, 10, isAsleep(stage) ? 25 : 30)) : 0,
      inBed: measured,
      asleep: measured && isAsleep(stage),
      move: measured ? Math.round(clamp(this.moveMax, 0, 100)) : 0,
      rri,
      stage: measured ? stage : 'out',
      apnea: measured && this.apneaLeft > 0,
      mat: this.mat,
      matChanged: this.matChanged,
    };
  }

  /** One simulated second. */
  private step(): void {
    const now = this.t;
    const rng = this.rng;
    const p = this.resident.profile;
    const wasInBed = this.state.inBed;
    if (now >= this.state.until || this.revision !== this.resident.revision) {
      this.revision = this.resident.revision;
      this.state = this.resident.stateAt(now);
    }
    const { stage, inBed } = this.state;

    // Getting in or out of bed: a movement burst, and a raised heart rate that settles.
    if (inBed !== wasInBed) {
      this.burstLeft = 5;
      this.burstLevel = rng.range(60, 95);
      if (inBed) this.activity = 1;
    }
    this.activity *= Math.exp(-1 / 300);

    // The mat slipping out from under the mattress.
    const forced = this.forcedMat.some((f) => f.from <= now && now < f.to);
    if (this.matUntil <= now && rng.happens(this.matPerHour, 1)) this.matUntil = now + rng.range(10, 120) * 60_000;
    const mat: MatState = forced || this.matUntil > now ? 'dislodged' : 'connected';
    if (mat !== this.mat) {
      this.mat = mat;
      this.matChanged = true;
    }

    // Apnea: breathing stops, then an arousal.
    const asleep = inBed && isAsleep(stage);
    const forcedApnea = this.forcedApnea.find((a) => a.from === now);
    if (this.apneaLeft > 0) {
      this.apneaLeft--;
      if (this.apneaLeft === 0 || !asleep) {
        this.apneaLeft = 0;
        this.gaspLeft = rng.int(20, 40);
        this.arousal = 1;
        this.surge = 1;
        this.burstLeft = rng.int(2, 4);
        this.burstLevel = rng.range(20, 50);
      }
    } else if (asleep && this.gaspLeft <= 0 && this.clusterLeft > 0) {
      this.clusterLeft--;
      this.apneaLeft = rng.int(15, 40);
    } else if (
      asleep &&
      this.gaspLeft <= 0 &&
      (forcedApnea || rng.happens((p.apneaPerHour * APNEA_WEIGHT[stage]) / clusterMean(p.apneaPerHour), 1))
    ) {
      this.apneaLeft = forcedApnea ? forcedApnea.secs : rng.int(10, 60);
      if (!forcedApnea) this.clusterLeft = clusterSize(rng, p.apneaPerHour) - 1;
    }
    if (!asleep) this.clusterLeft = 0;
    if (this.gaspLeft > 0) this.gaspLeft--;
    this.arousal *= Math.exp(-1 / 25);

    // Heart rate: OU around the stage's target, a slow drift, apnea bradycardia and arousal surges.
    this.hrDrift += -this.hrDrift / 600 + rng.normal(0, 0.12);
    const hrTarget =
      p.restHr +
      STAGE_HR[inBed ? stage : 'out'] +
      this.hrDrift +
      15 * this.activity +
      12 * this.arousal -
      (this.apneaLeft > 0 ? 6 : 0);
    this.hr += (hrTarget - this.hr) / 20 + rng.normal(0, STAGE_HR_NOISE[inBed ? stage : 'out']);
    this.surge *= Math.exp(-1 / 10);
    const cvhrTarget = this.apneaLeft > 0 ? -6 : 14 * this.surge;
    this.cvhr += (cvhrTarget - this.cvhr) / (this.apneaLeft > 0 ? 12 : 3);

    // Breathing rate: regular in deep sleep, irregular in REM, fast while gasping after an apnea.
    const rrTarget = p.restRr + STAGE_RR[inBed ? stage : 'out'] + (this.gaspLeft > 0 ? 5 : 0);
    this.rr += (rrTarget - this.rr) / 30 + rng.normal(0, STAGE_RR_NOISE[inBed ? stage : 'out']);
    this.rr = clamp(this.rr, 8, 35);

    // Movement.
    const burst = BURSTS[inBed ? stage : 'out'];
    if (this.burstLeft <= 0 && inBed && this.apneaLeft <= 0 && rng.happens(burst.perHour, 1)) {
      this.burstLeft = rng.int(burst.secs[0], burst.secs[1]);
      this.burstLevel = rng.range(burst.min, burst.max);
    }
    const [mean, sd] = BASE_MOVE[inBed ? stage : 'out'];
    let move = this.apneaLeft > 0 ? 0 : Math.abs(rng.normal(mean, sd));
    if (this.burstLeft > 0) {
      move = Math.max(move, this.burstLevel * rng.range(0.8, 1.1));
      this.burstLeft--;
    }
    if (inBed) this.moveMax = Math.max(this.moveMax, move);

    // Heartbeats within this second: intervals with respiratory sinus arrhythmia and jitter.
    if (inBed && this.mat === 'connected') {
      let budget = 1000;
      if (this.toNextBeat <= 0) this.toNextBeat = this.ibi = this.nextIbi(now);
      while (this.toNextBeat <= budget) {
        budget -= this.toNextBeat;
        this.beats.push(Math.round(clamp(this.ibi, 200, 3000)));
        this.toNextBeat = this.ibi = this.nextIbi(now + 1000 - budget);
      }
      this.toNextBeat -= budget;
    } else {
      this.toNextBeat = 0;
    }

    this.t += 1000;
  }

  private nextIbi(at: number): number {
    const hr = clamp(this.hr + this.cvhr, 35, 150);
    const breathHz = Math.max(this.rr, 6) / 60;
    const rsa = 0.035 * Math.sin((2 * Math.PI * breathHz * at) / 1000);
    return (60_000 / hr) * (1 + rsa + this.rng.normal(0, 0.012));
  }
}
