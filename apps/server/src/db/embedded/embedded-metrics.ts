import { Counter, Gauge, Registry } from 'prom-client';
import type { Database } from '../database.ts';

/**
 * The embedded database's worker for /metrics (decision 0047): its memory apart from the
 * server's thread, whether it is up, and how often it had to be started again.
 */
export class EmbeddedMetrics {
  readonly registry = new Registry();
  constructor(embedded: NonNullable<Database['embedded']>) {
    let counted = 0;
    const restarts: Counter = new Counter({
      name: 'vigil_embedded_database_restarts_total',
      help: 'Times the embedded database worker ended unexpectedly and was started again',
      registers: [this.registry],
      collect: () => {
        const now = embedded.restarts();
        restarts.inc(now - counted);
        counted = now;
      },
    });
    // One question to the worker per scrape, shared by the two gauges.
    let asked: { at: number; answer: Promise<{ heapBytes: number; wasmBytes: number }> } | undefined;
    const memory = () => {
      if (!asked || Date.now() - asked.at > 1_000)
        asked = { at: Date.now(), answer: embedded.memory().catch(() => ({ heapBytes: 0, wasmBytes: 0 })) };
      return asked.answer;
    };
    const heap: Gauge = new Gauge({
      name: 'vigil_embedded_database_heap_bytes',
      help: 'JavaScript heap used by the embedded database worker',
      registers: [this.registry],
      collect: async () => heap.set((await memory()).heapBytes),
    });
    const wasm: Gauge = new Gauge({
      name: 'vigil_embedded_database_wasm_bytes',
      help: "The embedded database's WebAssembly memory (PostgreSQL's own: buffers, catalogue, sorts)",
      registers: [this.registry],
      collect: async () => wasm.set((await memory()).wasmBytes),
    });
    const up: Gauge = new Gauge({
      name: 'vigil_embedded_database_up',
      help: 'The embedded database worker answers (1) or is restarting or failed (0)',
      registers: [this.registry],
      collect: () => up.set(embedded.state() === 'up' ? 1 : 0),
    });
  }
}
