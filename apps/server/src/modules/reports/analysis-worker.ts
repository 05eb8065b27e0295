/**
 * A worker thread of the analysis pool: analyses the nights it is sent, one at a time, so the
 * server's own thread (devices, alarms, calls) never runs a night's analysis.
 */
import { analyseNight, type NightSignals } from '@vigil/sleep';
import { parentPort } from 'node:worker_threads';

export interface AnalysisRequest {
  id: number;
  night: NightSignals;
}

export type AnalysisAnswer = { id: number; report: ReturnType<typeof analyseNight> } | { id: number; error: string };

parentPort?.on('message', ({ id, night }: AnalysisRequest) => {
  let answer: AnalysisAnswer;
  try {
    answer = { id, report: analyseNight(night) };
  } catch (error) {
    answer = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer);
});
