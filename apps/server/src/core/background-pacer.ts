/**
 * Caps the share of the server's thread that background database work takes, and holds that
 * work back while the thread is busy with its own. On PGlite a query runs as WebAssembly on the
 * thread that also serves devices, alarms and calls: a batch job that queries back to back —
 * even letting the event loop in between — takes most of it, and every alarm then waits in a
 * longer queue.
 *
 * Steps given to one pacer run one at a time. After each, the pacer looks for a moment whether
 * anything else wants the thread: if the thread stayed under `idleShare` busy, the next step
 * goes at once (an idle server lends the job all of it). Otherwise it rests `restRatio` times
 * as long as the step took, so the job takes at most 1 / (1 + restRatio) of the thread; and if
 * the thread was busy more than `busyShare` of that rest (a burst of device messages, the
 * minute's writes), it goes on resting until it is not, for at most `maxHoldMs` in all, so the
 * job is slowed by a busy server but never stopped by one.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

const rest = (ms: number): Promise<void> =>
  new Promise<void>((resolve) => (ms >= 1 ? setTimeout(resolve, ms) : setImmediate(resolve)));

/** How long the pacer looks whether the thread is idle. */
const LOOK_MS = 2;

export interface BackgroundPacerOptions {
  /** Rest after a step, as a multiple of the step's time; 0: only let the event loop in. */
  restRatio: number;
  /** Skip the rest when the thread was less busy than this in a short look (0–1; 0: never skip). */
  idleShare?: number;
  /** Keep resting while the thread was busier than this share of the last rest (0–1; 1: never). */
  busyShare?: number;
  /** The longest a busy thread holds the next step back. */
  maxHoldMs?: number;
  /** How busy the thread was since a mark (default: Node's event-loop utilisation). */
  gauge?: LoadGauge;
}

/** Says what share of the time since `mark()` the thread was busy (0–1). */
export interface LoadGauge {
  mark(): EventLoopUtilization;
  busySince(mark: EventLoopUtilization): number;
}

const eventLoop: LoadGauge = {
  mark: () => performance.eventLoopUtilization(),
  busySince: (mark) => performance.eventLoopUtilization(mark).utilization,
};

export class BackgroundPacer {
  private tail: Promise<void> = Promise.resolve();
  private readonly restRatio: number;
  private readonly idleShare: number;
  private readonly busyShare: number;
  private readonly maxHoldMs: number;
  private readonly gauge: LoadGauge;

  constructor(options: BackgroundPacerOptions) {
    this.restRatio = options.restRatio;
    this.idleShare = options.idleShare ?? 0;
    this.busyShare = options.busyShare ?? 1;
    this.maxHoldMs = options.maxHoldMs ?? 2_000;
    this.gauge = options.gauge ?? eventLoop;
  }

  step<T>(work: () => Promise<T>): Promise<T> {
    let took = 0;
    const result = this.tail.then(async () => {
      const started = performance.now();
      try {
        return await work();
      } finally {
        took = performance.now() - started;
      }
    });
    this.tail = result.then(
      () => this.restAfter(took),
      () => this.restAfter(took),
    );
    return result;
  }

  private async restAfter(took: number): Promise<void> {
    const restMs = took * this.restRatio;
    if (restMs <= 0) return rest(0);
    const holdUntil = performance.now() + this.maxHoldMs;
    let since = this.gauge.mark();
    if (this.idleShare > 0) {
      const lookMs = Math.min(restMs, LOOK_MS);
      await rest(lookMs);
      if (this.gauge.busySince(since) < this.idleShare) return;
      await rest(restMs - lookMs);
    } else await rest(restMs);
    if (this.busyShare >= 1) return;
    for (;;) {
      const busy = this.gauge.busySince(since);
      if (busy <= this.busyShare || performance.now() >= holdUntil) return;
      since = this.gauge.mark();
      // At least a few milliseconds, so that the share of busy time says something.
      await rest(Math.max(restMs, LOOK_MS));
    }
  }
}

/**
 * The pacing of a background job's queries on each database (decision 0028): on PGlite at most a
 * quarter of the server's thread, held while it is busy; on PostgreSQL the queries run in the
 * database server, so one at a time without rests.
 */
export const backgroundPacer = (database: 'pglite' | 'postgres'): BackgroundPacer =>
  new BackgroundPacer(
    database === 'pglite' ? { restRatio: 3, idleShare: 0.2, busyShare: 0.75, maxHoldMs: 2_000 } : { restRatio: 0 },
  );
