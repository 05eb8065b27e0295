/**
 * One night, start to finish: where the resident lay, when they slept, how (stages), and the
 * report's metrics. Pure and deterministic; every threshold is named here and in
 * docs/sleep-analysis.md.
 */
import { detectAf } from './af.ts';
import { detectApnea } from './apnea.ts';
import { hrv } from './hrv.ts';
import type { NightSignals } from './night.ts';
import type { AfRisk, Range, SleepReport, Span } from './report.ts';
import { riskGrade, sleepScore } from './score.ts';
import { EPOCH_SECONDS, Stage, UNKNOWN, type StageCode } from './series.ts';
import { runsWhere, type Run } from './spans.ts';
import { stageSleep } from './staging.ts';

/** An in-bed stretch that counts as lying down (shorter ones are sitting on the bed). */
export const BED_MIN_SECONDS = 5 * 60;
/** Out of bed for at least this long is a leave-bed episode (shorter is sensor flicker or turning). */
export const LEAVE_BED_MIN_SECONDS = 60;
/** Sleep onset: the first run of this many sleep epochs (10 minutes); wake-up: the end of the last. */
export const ONSET_EPOCHS = 20;
/** An awakening is a wake run of at least two epochs (one minute) inside the sleep period. */
export const AWAKENING_EPOCHS = 2;
/** Sleep bouts this long or longer count as continuous sleep. */
export const CONTINUOUS_BOUT_SECONDS = 20 * 60;
/** Movement at or above this (0–100) is a body movement; movements closer than the gap merge. */
export const MOVEMENT_LEVEL = 20;
export const MOVEMENT_MERGE_SECONDS = 10;
/** Below these the night is reported as not scorable. */
export const MIN_IN_BED_SECONDS = 3600;
export const MIN_COVERAGE = 0.5;

const HOUR = 3600;
const isSleep = (stage: number): boolean => stage === Stage.rem || stage === Stage.light || stage === Stage.deep;

function bedRuns(night: NightSignals): Run[] {
  // A short absence (< LEAVE_BED_MIN_SECONDS) does not split an in-bed stretch.
  const inBed = (i: number): boolean => night.inBed[i] === 1;
  const raw = runsWhere(night.seconds, inBed);
  const merged: Run[] = [];
  for (const run of raw) {
    const last = merged[merged.length - 1];
    if (last && run.from - last.to < LEAVE_BED_MIN_SECONDS) last.to = run.to;
    else merged.push({ ...run });
  }
  return merged.filter((run) => run.to - run.from >= BED_MIN_SECONDS);
}

/** Device's own sleep flag per epoch where it says so for half the epoch, else UNKNOWN. */
function epochMajority(flags: Uint8Array, epochs: number): Uint8Array {
  const out = new Uint8Array(epochs).fill(UNKNOWN);
  for (let e = 0; e < epochs; e++) {
    let yes = 0;
    let no = 0;
    for (let s = e * EPOCH_SECONDS; s < Math.min(flags.length, (e + 1) * EPOCH_SECONDS); s++) {
      if (flags[s] === 1) yes++;
      else if (flags[s] === 0) no++;
    }
    if (yes + no >= EPOCH_SECONDS / 2) out[e] = yes > no ? 1 : 0;
  }
  return out;
}

/** Stages per epoch: out of bed is wake; in bed the device's sleep flag (when sent) decides
 * sleep or wake and the staging detector the kind of sleep. */
function hypnogramOf(night: NightSignals, inBedHr: Float32Array): Uint8Array {
  const epochs = Math.ceil(night.seconds / EPOCH_SECONDS);
  const staged = stageSleep({ hr: inBedHr, beats: night.beats, move: night.move });
  const inBed = epochMajority(night.inBed, epochs);
  const reported = epochMajority(night.reported, epochs);
  const deviceAsleep = epochMajority(night.asleep, epochs);
  const hypnogram = new Uint8Array(epochs).fill(UNKNOWN);
  for (let e = 0; e < epochs; e++) {
    const stage = staged[e] ?? UNKNOWN;
    if (inBed[e] !== 1) hypnogram[e] = reported[e] === 1 || inBed[e] === 0 ? Stage.wake : UNKNOWN;
    else if (deviceAsleep[e] === 0) hypnogram[e] = Stage.wake;
    else if (deviceAsleep[e] === 1) hypnogram[e] = isSleep(stage) ? stage : Stage.light;
    else hypnogram[e] = stage;
  }
  return hypnogram;
}

function rangeOf(values: Float32Array, include: (second: number) => boolean): Range | null {
  let sum = 0;
  let count = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  // Extremes of minute means, so one spurious second is not the night's minimum.
  for (let m = 0; m * 60 < values.length; m++) {
    let minuteSum = 0;
    let minuteCount = 0;
    for (let s = m * 60; s < Math.min(values.length, m * 60 + 60); s++) {
      const v = values[s] ?? Number.NaN;
      if (Number.isNaN(v) || !include(s)) continue;
      minuteSum += v;
      minuteCount++;
    }
    sum += minuteSum;
    count += minuteCount;
    if (minuteCount >= 30) {
      min = Math.min(min, minuteSum / minuteCount);
      max = Math.max(max, minuteSum / minuteCount);
    }
  }
  if (count === 0 || !Number.isFinite(min)) return null;
  const round1 = (x: number): number => Math.round(x * 10) / 10;
  return { min: round1(min), avg: round1(sum / count), max: round1(max) };
}

function movementsPerHour(night: NightSignals, bedSeconds: number, inBed: (s: number) => boolean): number | null {
  let measured = 0;
  let movements = 0;
  let lastMove = Number.NEGATIVE_INFINITY;
  for (let s = 0; s < night.seconds; s++) {
    const move = night.move[s] ?? Number.NaN;
    if (!inBed(s) || Number.isNaN(move)) continue;
    measured++;
    if (move >= MOVEMENT_LEVEL) {
      if (s - lastMove > MOVEMENT_MERGE_SECONDS) movements++;
      lastMove = s;
    }
  }
  return measured < bedSeconds / 2 ? null : Math.round((movements / (bedSeconds / HOUR)) * 10) / 10;
}

function afSummary(night: NightSignals, bed: Span): SleepReport['af'] {
  if (!night.beats) return null;
  const { minutes } = detectAf(night.beats, night.seconds);
  let judged = 0;
  let af = 0;
  let run = 0;
  let longest = 0;
  for (let m = Math.floor(bed.start / 60); m < Math.min(minutes.length, Math.ceil(bed.end / 60)); m++) {
    const answer = minutes[m];
    if (answer === UNKNOWN) continue;
    judged++;
    run = answer === 1 ? run + 1 : 0;
    if (answer === 1) af++;
    longest = Math.max(longest, run);
  }
  if (judged < 60) return null;
  const burden = af / judged;
  // Scattered minutes are what a detector with 95% specificity gives on a sinus night; AF
  // shows as a share or as a run.
  const risk: AfRisk = burden >= 0.2 || longest >= 30 ? 'likely' : burden >= 0.05 || longest >= 10 ? 'possible' : 'low';
  return { burden: Math.round(burden * 1000) / 1000, longestMinutes: longest, risk };
}

export function analyseNight(night: NightSignals): SleepReport {
  const at = (second: number): number => night.start + second;
  const window = { start: night.start, end: night.start + night.seconds };
  const reported = night.reported.reduce((n, v) => n + v, 0);
  const coverage = night.seconds === 0 ? 0 : reported / night.seconds;
  const beds = bedRuns(night);
  const firstBed = beds[0];
  const lastBed = beds[beds.length - 1];
  const bedSpan = firstBed && lastBed ? { start: firstBed.from, end: lastBed.to } : null;
  const inBed = (s: number): boolean => night.inBed[s] === 1;
  let inBedSeconds = 0;
  let withSignal = 0;
  const inBedHr = new Float32Array(night.seconds).fill(Number.NaN);
  for (let s = 0; s < night.seconds; s++) {
    if (!inBed(s)) continue;
    inBedSeconds++;
    const hr = night.hr[s] ?? Number.NaN;
    if (!Number.isNaN(hr)) {
      withSignal++;
      inBedHr[s] = hr;
    }
  }
  const signalCoverage = inBedSeconds === 0 ? 0 : withSignal / inBedSeconds;
  const insufficient =
    reported === 0
      ? 'noData'
      : inBedSeconds < MIN_IN_BED_SECONDS || !bedSpan
        ? 'notInBed'
        : coverage < MIN_COVERAGE || signalCoverage < MIN_COVERAGE
          ? 'littleSignal'
          : null;
  const empty: SleepReport = {
    window,
    coverage,
    signalCoverage,
    insufficient,
    bedTime: bedSpan ? at(bedSpan.start) : null,
    getUpTime: bedSpan ? at(bedSpan.end) : null,
    sleepOnset: null,
    wakeTime: null,
    hypnogram: [],
    timeInBed: bedSpan ? inBedSeconds : null,
    totalSleep: null,
    latency: null,
    efficiency: null,
    stages: null,
    deepShare: null,
    continuity: null,
    awakenings: null,
    wakeAfterOnset: null,
    movementPerHour: null,
    apnea: null,
    leaveBed: null,
    hrv: null,
    heart: null,
    breath: null,
    af: null,
    score: null,
    risk: null,
  };
  if (insufficient !== null || !bedSpan) return empty;

  const hypnogram = hypnogramOf(night, inBedHr);
  const epochs = hypnogram.length;
  const asleepRuns = runsWhere(epochs, (e) => isSleep(hypnogram[e] ?? UNKNOWN), ONSET_EPOCHS);
  const onsetEpoch = asleepRuns[0]?.from ?? null;
  const wakeEpoch = asleepRuns[asleepRuns.length - 1]?.to ?? null;
  const stages = { wake: 0, rem: 0, light: 0, deep: 0 };
  const sleepEpochs = new Array<boolean>(epochs).fill(false);
  let awakenings = 0;
  let continuous = 0;
  if (onsetEpoch !== null && wakeEpoch !== null) {
    for (let e = onsetEpoch; e < wakeEpoch; e++) {
      const stage = hypnogram[e] ?? UNKNOWN;
      sleepEpochs[e] = isSleep(stage);
      if (stage === Stage.rem) stages.rem += EPOCH_SECONDS;
      else if (stage === Stage.light) stages.light += EPOCH_SECONDS;
      else if (stage === Stage.deep) stages.deep += EPOCH_SECONDS;
      else stages.wake += EPOCH_SECONDS;
    }
    const inPeriod = (e: number): boolean => e >= onsetEpoch && e < wakeEpoch;
    awakenings = runsWhere(epochs, (e) => inPeriod(e) && !sleepEpochs[e], AWAKENING_EPOCHS).length;
    for (const bout of runsWhere(epochs, (e) => sleepEpochs[e] === true)) {
      const seconds = (bout.to - bout.from) * EPOCH_SECONDS;
      if (seconds >= CONTINUOUS_BOUT_SECONDS) continuous += seconds;
    }
  }
  const totalSleep = stages.rem + stages.light + stages.deep;
  const bedPeriod = bedSpan.end - bedSpan.start;
  const latency = onsetEpoch === null ? null : Math.max(0, onsetEpoch * EPOCH_SECONDS - bedSpan.start);
  const efficiency = bedPeriod > 0 ? totalSleep / bedPeriod : 0;
  const deepShare = totalSleep > 0 ? stages.deep / totalSleep : 0;
  const continuity = totalSleep > 0 ? continuous / totalSleep : 0;

  const leaves = runsWhere(
    bedSpan.end - bedSpan.start,
    (i) => night.inBed[bedSpan.start + i] === 0,
    LEAVE_BED_MIN_SECONDS,
  ).map((run) => ({ start: at(bedSpan.start + run.from), end: at(bedSpan.start + run.to) }));

  const apneaResult = detectApnea({ hr: inBedHr, beats: night.beats });
  const apnea =
    apneaResult.ahi === null
      ? null
      : {
          ahi: Math.round(apneaResult.ahi * 10) / 10,
          events: apneaResult.events.map((event) => ({ start: at(event.start), end: at(event.end) })),
        };
  const sleepHrv = night.beats ? hrv(night.beats, sleepEpochs) : null;
  const heart = rangeOf(night.hr, inBed);
  const af = afSummary(night, { start: bedSpan.start, end: bedSpan.end });
  const score =
    onsetEpoch === null || latency === null
      ? null
      : sleepScore({
          totalSleep,
          efficiency,
          deepShare,
          remShare: totalSleep > 0 ? stages.rem / totalSleep : 0,
          continuity,
          wakeAfterOnset: stages.wake,
          latency,
        });
  return {
    ...empty,
    sleepOnset: onsetEpoch === null ? null : at(onsetEpoch * EPOCH_SECONDS),
    wakeTime: wakeEpoch === null ? null : at(wakeEpoch * EPOCH_SECONDS),
    hypnogram: Array.from(hypnogram, (stage) => stage as StageCode | 255),
    totalSleep,
    latency,
    efficiency: Math.round(efficiency * 1000) / 1000,
    stages,
    deepShare: Math.round(deepShare * 1000) / 1000,
    continuity: Math.round(continuity * 1000) / 1000,
    awakenings,
    wakeAfterOnset: stages.wake,
    movementPerHour: movementsPerHour(night, inBedSeconds, inBed),
    apnea,
    leaveBed: {
      count: leaves.length,
      seconds: leaves.reduce((sum, span) => sum + span.end - span.start, 0),
      episodes: leaves,
    },
    hrv: sleepHrv && {
      rmssd: Math.round(sleepHrv.rmssd * 10) / 10,
      sdnn: Math.round(sleepHrv.sdnn * 10) / 10,
      intervals: sleepHrv.count,
    },
    heart,
    breath: rangeOf(night.breath, inBed),
    af,
    score,
    risk: riskGrade({
      ahi: apnea?.ahi ?? null,
      afRisk: af?.risk ?? null,
      heartMin: heart?.min ?? null,
      heartMax: heart?.max ?? null,
      score: score?.total ?? null,
    }),
  };
}
