/**
 * Caps the share of the server's thread that background database work takes. On PGlite a
 * query runs as WebAssembly on the thread that also serves devices, alarms and calls: a batch
 * job that queries back to back — even letting the event loop in between — takes most of it,
 * and every alarm then waits in a longer queue. Steps given to one pacer run one at a time,
 * and after each the pacer rests `restRatio` times as long as the step took, so the job takes
 * at most 1 / (1 + restRatio) of the thread. A step's time includes waiting for the queries
 * queued before it, so a busier server slows the job further — which is what it should do.
 */
import { performance } from 'node:perf_hooks';

const rest = (ms: number): Promise<void> =>
  new Promise<void>((resolve) => (ms >= 1 ? setTimeout(resolve, ms) : setImmediate(resolve)));

export class BackgroundPacer {
  private tail: Promise<void> = Promise.resolve();

  /** restRatio 0: steps still run one at a time, with the event loop let in between. */
  constructor(readonly restRatio: number) {}

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
      () => rest(took * this.restRatio),
      () => rest(took * this.restRatio),
    );
    return result;
  }
}
