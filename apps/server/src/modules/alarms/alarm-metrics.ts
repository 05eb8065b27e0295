import { Counter, Registry } from 'prom-client';
import type { WatchRefusal } from './engine/watch-release.ts';

/** What the alarms module counts, on its own registry (merged into /metrics). */
export class AlarmMetrics {
  readonly registry = new Registry();
  private readonly watchReleases = new Counter({
    name: 'vigil_watch_releases_total',
    help: 'Releases at nurse watches naming an alarm or a device, by outcome: released, or why nothing was',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  countWatchRelease(outcome: 'released' | WatchRefusal): void {
    this.watchReleases.inc({ outcome });
  }
}
