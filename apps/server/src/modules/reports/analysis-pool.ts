/**
 * Runs night analyses in worker threads (issue 11: never on the alarm path). Each worker takes
 * one night at a time; the night's arrays are moved to it, not copied. A worker that dies or
 * takes longer than `timeoutMs` is replaced and its night fails; the others go on.
 */
import type { NightSignals, SleepReport } from '@vigil/sleep';
import { Worker } from 'node:worker_threads';
import type { AnalysisAnswer } from './analysis-worker.ts';

export interface AnalysisPoolOptions {
  /** Worker threads (default 1: on a 2-core machine one core stays with devices and alarms). */
  size?: number;
  /** A night taking longer than this fails and its worker is replaced. */
  timeoutMs?: number;
}

interface Job {
  id: number;
  night: NightSignals;
  resolve: (report: SleepReport) => void;
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

  constructor(options: AnalysisPoolOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    for (let i = 0; i < Math.max(1, options.size ?? 1); i++) this.slots.push(this.spawn());
  }

  /** The night's report; the night's arrays belong to the pool from now on. */
  analyse(night: NightSignals): Promise<SleepReport> {
    if (this.stopped) return Promise.reject(new Error('the analysis pool is stopped'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, night, resolve, reject });
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
    worker.on('message', (answer: AnalysisAnswer) => this.settle(slot, answer));
    worker.on('error', (error) => this.replace(slot, error));
    worker.on('exit', (code) => {
      if (!this.stopped && this.slots.includes(slot)) this.replace(slot, new Error(`analysis worker exited (${code})`));
    });
    worker.unref();
    return slot;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.job || this.queue.length === 0) continue;
      const job = this.queue.shift();
      if (!job) return;
      slot.job = job;
      slot.timer = setTimeout(
        () => this.replace(slot, new Error(`night analysis took over ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, night: job.night }, transferList(job.night));
    }
  }

  private settle(slot: Slot, answer: AnalysisAnswer): void {
    const job = slot.job;
    if (!job || job.id !== answer.id) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.worker.unref();
    if ('error' in answer) job.reject(new Error(answer.error));
    else job.resolve(answer.report);
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
