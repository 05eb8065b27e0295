import { Counter, Gauge, Registry } from 'prom-client';

/** What the outbox's bookkeeping did, and what it failed to do, on this instance (for /metrics). */
export type OutboxOperation = 'mark' | 'relay' | 'purge';

/**
 * The outbox's figures for /metrics. Bookkeeping failures never fail the change that committed
 * (decision 0037): they are logged and counted here, and a steady rise is a database in trouble.
 */
export class OutboxMetrics {
  readonly registry = new Registry();
  /** Ids published here whose "published" mark is still to be written (read at each scrape). */
  unmarked: () => number = () => 0;
  private readonly failures = new Counter({
    name: 'vigil_outbox_bookkeeping_failures_total',
    help: 'Outbox bookkeeping that failed after the change committed (logged, retried; never a failed request), by operation',
    labelNames: ['op'] as const,
    registers: [this.registry],
  });
  private readonly relayedRows = new Counter({
    name: 'vigil_outbox_relayed_total',
    help: 'Outbox events published by the sweep (or at start) because the instance that committed them did not mark them',
    registers: [this.registry],
  });
  private readonly purgedRows = new Counter({
    name: 'vigil_outbox_purged_total',
    help: 'Published outbox events deleted after the retention period',
    registers: [this.registry],
  });

  constructor() {
    const waiting: Gauge = new Gauge({
      name: 'vigil_outbox_unmarked',
      help: 'Events this instance published whose published mark failed and waits for the next sweep',
      registers: [this.registry],
      collect: () => waiting.set(this.unmarked()),
    });
    for (const op of ['mark', 'relay', 'purge'] as const) this.failures.inc({ op }, 0);
  }

  failed(op: OutboxOperation): void {
    this.failures.inc({ op });
  }

  relayed(n: number): void {
    if (n) this.relayedRows.inc(n);
  }

  purged(n: number): void {
    if (n) this.purgedRows.inc(n);
  }
}
