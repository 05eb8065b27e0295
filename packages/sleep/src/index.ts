/**
 * @vigil/sleep: the analysis of one night from what a sleep monitor reports (issue 11). Pure
 * and deterministic: the server's report scheduler feeds it, `sleep:validate` checks it on
 * expert-labelled recordings (docs/sleep-analysis.md).
 */
export { analyseNight } from './analyse.ts';
export { emptyNight, nightSignals, type DeviceSample, type NightSignals } from './night.ts';
export type * from './report.ts';
export { detectAf, type AfResult } from './af.ts';
export { detectApnea, type ApneaEvent, type ApneaResult } from './apnea.ts';
export { stageSleep } from './staging.ts';
export { hrv, type Hrv } from './hrv.ts';
export { minuteCurves, type MinuteCurves } from './curves.ts';
export { MOVEMENT_LEVEL } from './analyse.ts';
export { Stage, UNKNOWN, EPOCH_SECONDS, BeatCollector, beatSeries, type StageCode, type BeatSeries } from './series.ts';
