import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the device gateway counts, on its own registry (merged into /metrics). */
export class IngestMetrics {
  readonly registry = new Registry();
  readonly messages = new Counter({
    name: 'vigil_device_messages_total',
    help: 'Device messages taken, by device kind and message kind',
    labelNames: ['device', 'kind'] as const,
    registers: [this.registry],
  });
  readonly dropped = new Counter({
    name: 'vigil_device_messages_dropped_total',
    help: 'Device messages dropped, by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly duplicates = new Counter({
    name: 'vigil_device_duplicates_total',
    help: 'Device messages dropped because their (device, seq) was already taken',
    registers: [this.registry],
  });
  readonly refusedConnects = new Counter({
    name: 'vigil_device_connects_refused_total',
    help: 'Device connections refused, by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly refusedPublishes = new Counter({
    name: 'vigil_device_publishes_refused_total',
    help: 'Publishes and subscriptions refused by the topic rules or the rate limit, by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly lag = new Histogram({
    name: 'vigil_ingest_lag_seconds',
    help: 'Device time (ts) to stored (events) or taken (telemetry)',
    labelNames: ['kind'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60],
    registers: [this.registry],
  });
  /** Taken from the broker → stored: how long an event's acknowledgement waits on this instance. */
  readonly eventStore = new Histogram({
    name: 'vigil_ingest_event_store_seconds',
    help: 'Device event taken from the broker to stored (its acknowledgement waits this long)',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60],
    registers: [this.registry],
  });
  /** The external broker link: subscriptions made (on every CONNACK) and canaries that did not come back. */
  readonly brokerSubscribes = new Counter({
    name: 'vigil_broker_subscribes_total',
    help: 'Subscriptions to the external broker, by outcome (granted, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly brokerCanaryMissed = new Counter({
    name: 'vigil_broker_canary_missed_total',
    help: 'Canaries sent through the external broker that did not come back in time',
    registers: [this.registry],
  });
  /** Per-message counting through label children made once: prom-client hashes a label object on every call. */
  private readonly messageChildren = new Map<string, { inc: () => void }>();
  countMessage(device: string, kind: string): void {
    const key = `${device}\u0000${kind}`;
    let child = this.messageChildren.get(key);
    if (!child) {
      child = this.messages.labels({ device, kind });
      this.messageChildren.set(key, child);
    }
    child.inc();
  }
  readonly telemetryLag = this.lag.labels({ kind: 'telemetry' });
  readonly eventLag = this.lag.labels({ kind: 'event' });
  /** Read when scraped: the broker's connection count (online devices with an external broker). */
  countConnected: () => number = () => 0;
  countBacklog: () => number = () => 0;
  readonly connected: Gauge = new Gauge({
    name: 'vigil_devices_connected',
    help: 'Devices connected to the embedded broker (online devices with an external broker)',
    registers: [this.registry],
    collect: (): void => this.connected.set(this.countConnected()),
  });
  readonly eventBacklog: Gauge = new Gauge({
    name: 'vigil_ingest_event_backlog',
    help: 'Device events waiting to be stored',
    registers: [this.registry],
    collect: (): void => this.eventBacklog.set(this.countBacklog()),
  });
  readonly backlog = new Gauge({
    name: 'vigil_ingest_backlog',
    help: 'Items waiting to be written, by queue',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });
  readonly flush = new Histogram({
    name: 'vigil_ingest_flush_seconds',
    help: 'Time of one batch write, by queue',
    labelNames: ['queue'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [this.registry],
  });
}
