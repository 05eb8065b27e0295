/**
 * Runs night analyses (and report PDFs) in worker threads (issue 11: never on the alarm path).
 * Each worker takes one job at a time; a night's arrays are moved to it, not copied. A worker
 * that dies or takes longer than `timeoutMs` is replaced and its job fails; the others go on.
 */
import type { NightSignals } from '@vigil/sleep';
import { Worker } from 'node:worker_threads';
import type { NightAnalysis, WorkerAnswer, WorkerRequest } from './analysis-worker.ts';
import type { PackedNight } from './packed-night.ts';
import type { DailyPdfInput } from './pdf/render-daily.ts';
import type { MonthPdfInput } from './pdf/render-monthly.ts';

/** A request without the id the pool gives it. */
type Request = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export interface AnalysisPoolOptions {
  /** Worker threads (default 1: on a 2-core machine one core stays with devices and alarms). */
  size?: number;
  /** A night taking longer than this fails and its worker is replaced. */
  timeoutMs?: number;
}

interface Job {
  request: WorkerRequest;
  transfer: ArrayBuffer[];
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
}

const WORKER_URL = new URL('./analysis-worker.mjs', import.meta.url);

const transferList = (night: NightSignals): ArrayBuffer[] =>
  [night.reported, night.hr, night.breath, night.move, night.inBed, night.asleep, night.beats?.t, night.beats?.rr]
    .filter((array) => array !== undefined)
    .map((array) => array.buffer as ArrayBuffer);

export class AnalysisPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly timeoutMs: number;
  private nextId = 1;
  private stopped = false;

  private readonly size: number;

  constructor(options: AnalysisPoolOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.size = Math.max(1, options.size ?? 1);
  }

  /** The night's report and minute curves; the night's arrays belong to the pool from now on. */
  analyse(night: NightSignals): Promise<NightAnalysis> {
    return this.run<NightAnalysis>({ kind: 'analyse', night }, transferList(night));
  }

  /**
   * The report and minute curves of a stored night `[start, end)` (Unix seconds), read as the
   * database packed it: unpacking and laying it on the grid happen in the worker too.
   */
  analyseStored(start: number, end: number, night: PackedNight): Promise<NightAnalysis> {
    return this.run<NightAnalysis>({ kind: 'analyseStored', start, end, night });
  }

  /** A daily report as PDF, drawn in a worker thread. */
  dailyPdf(input: DailyPdfInput): Promise<Uint8Array> {
    return this.run<Uint8Array>({ kind: 'dailyPdf', input });
  }

  /** A monthly report as PDF, drawn in a worker thread. */
  monthPdf(input: MonthPdfInput): Promise<Uint8Array> {
    return this.run<Uint8Array>({ kind: 'monthPdf', input });
  }

  private run<T>(request: Request, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.stopped) return Promise.reject(new Error('the analysis pool is stopped'));
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        request: { ...request, id: this.nextId++ } as WorkerRequest,
        transfer,
        resolve: resolve as (result: unknown) => void,
        reject,
      };
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Nights waiting for a worker. */
  get waiting(): number {
    return this.queue.length;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the analysis pool is stopped'));
    await Promise.all(
      this.slots.map(async (slot) => {
        clearTimeout(slot.timer);
        slot.job?.reject(new Error('the analysis pool is stopped'));
        slot.job = undefined;
        await slot.worker.terminate();
      }),
    );
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_URL);
    const slot: Slot = { worker, job: undefined, timer: undefined };
    worker.on('message', (answer: WorkerAnswer) => this.settle(slot, answer));
    worker.on('error', (error) => this.replace(slot, error));
    worker.on('exit', (code) => {
      if (!this.stopped && this.slots.includes(slot)) this.replace(slot, new Error(`analysis worker exited (${code})`));
    });
    worker.unref();
    return slot;
  }

  private dispatch(): void {
    // Workers start with the first job: a server that makes no report starts no thread.
    while (this.slots.length < this.size && this.queue.length > this.slots.filter((s) => !s.job).length) {
      this.slots.push(this.spawn());
    }
    for (const slot of this.slots) {
      if (slot.job || this.queue.length === 0) continue;
      const job = this.queue.shift();
      if (!job) return;
      slot.job = job;
      slot.timer = setTimeout(
        () => this.replace(slot, new Error(`${job.request.kind} took over ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
      slot.worker.ref();
      slot.worker.postMessage(job.request, job.transfer);
    }
  }

  private settle(slot: Slot, answer: WorkerAnswer): void {
    const job = slot.job;
    if (!job || job.request.id !== answer.id) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.worker.unref();
    if ('error' in answer) job.reject(new Error(answer.error));
    else job.resolve(answer.result);
    this.dispatch();
  }

  private replace(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0 || this.stopped) return;
    clearTimeout(slot.timer);
    slot.job?.reject(error);
    slot.job = undefined;
    this.slots.splice(index, 1);
    void slot.worker.terminate();
    this.slots.push(this.spawn());
    this.dispatch();
  }
}
