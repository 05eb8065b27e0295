/**
 * A worker thread of the analysis pool: analyses the nights (and renders the PDFs) it is sent,
 * one at a time, so the server's own thread (devices, alarms, calls) never runs either.
 */
import { analyseNight, minuteCurves, type MinuteCurves, type NightSignals, type SleepReport } from '@vigil/sleep';
import { parentPort } from 'node:worker_threads';
import { assembleNight } from './night-assembly.ts';
import { unpackNight, type PackedNight } from './packed-night.ts';
import { renderDailyReportPdf, type DailyPdfInput } from './pdf/render-daily.ts';
import { renderMonthReportPdf, type MonthPdfInput } from './pdf/render-monthly.ts';

export type WorkerRequest =
  | { id: number; kind: 'analyse'; night: NightSignals }
  | { id: number; kind: 'analyseStored'; start: number; end: number; night: PackedNight }
  | { id: number; kind: 'dailyPdf'; input: DailyPdfInput }
  | { id: number; kind: 'monthPdf'; input: MonthPdfInput };

export interface NightAnalysis {
  report: SleepReport;
  curves: MinuteCurves;
}

export type WorkerAnswer = { id: number; result: NightAnalysis | Uint8Array } | { id: number; error: string };

const analysed = (night: NightSignals): NightAnalysis =>
  // The curves first: the analysis may reuse the night's arrays.
  ({ curves: minuteCurves(night), report: analyseNight(night) });

const run = async (request: WorkerRequest): Promise<NightAnalysis | Uint8Array> => {
  switch (request.kind) {
    case 'analyse':
      return analysed(request.night);
    case 'analyseStored':
      return analysed(assembleNight(request.start, request.end, unpackNight(request.night)));
    case 'dailyPdf':
      return renderDailyReportPdf(request.input);
    case 'monthPdf':
      return renderMonthReportPdf(request.input);
  }
};

parentPort?.on('message', (request: WorkerRequest) => {
  const answer = (result: WorkerAnswer) => {
    // A PDF's bytes are moved back, not copied.
    const transfer =
      'result' in result && result.result instanceof Uint8Array ? [result.result.buffer as ArrayBuffer] : [];
    parentPort?.postMessage(result, transfer);
  };
  run(request).then(
    (result) => answer({ id: request.id, result }),
    (error: unknown) => answer({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
