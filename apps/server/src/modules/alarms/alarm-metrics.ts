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

  private readonly spellSamples = new Counter({
    name: 'vigil_alarm_spell_samples_total',
    help: 'Sleep-monitor samples judged on the spells shared between instances (shared), or on this instance alone because Redis did not answer (local)',
    labelNames: ['judged'] as const,
    registers: [this.registry],
  });
  private readonly spellClaims = new Counter({
    name: 'vigil_alarm_spell_claims_total',
    help: 'Duration alarms asked of the shared spells: granted to this instance, refused (raised elsewhere or ended), or raised unasked (Redis did not answer)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly raised = new Counter({
    name: 'vigil_alarms_raised_total',
    help: 'Alarms raised on this instance, by level and type (repeats after a snooze included)',
    labelNames: ['level', 'type'] as const,
    registers: [this.registry],
  });
  private readonly released = new Counter({
    name: 'vigil_alarms_released_total',
    help: 'Alarms released on this instance: cleared by themselves (device) or at a device (watch, button)',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });
  private readonly handled = new Counter({
    name: 'vigil_alarms_handled_total',
    help: 'Alarms handled by a person through this instance (console, app, watch)',
    labelNames: ['level'] as const,
    registers: [this.registry],
  });

  countRaised(level: number, type: string): void {
    this.raised.inc({ level: String(level), type });
  }

  countReleased(type: string): void {
    this.released.inc({ type });
  }

  countHandled(level: number): void {
    this.handled.inc({ level: String(level) });
  }

  private readonly departed = new Counter({
    name: 'vigil_alarms_of_departed_devices_total',
    help:
      'Devices gone from the device directory between a decision and its write: raises stored as decided ' +
      '(stored), events that could decide nothing (undecided)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  countSpellSample(judged: 'shared' | 'local'): void {
    this.spellSamples.inc({ judged });
  }

  countSpellClaim(outcome: 'granted' | 'refused' | 'unasked'): void {
    this.spellClaims.inc({ outcome });
  }

  countWatchRelease(outcome: 'released' | WatchRefusal): void {
    this.watchReleases.inc({ outcome });
  }

  countDeparted(outcome: 'stored' | 'undecided'): void {
    this.departed.inc({ outcome });
  }
}
