import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Counter, Gauge, Registry } from 'prom-client';
import { isEventName, isTransientName } from './event-catalogue.ts';
import type { EventStream, PublishedEvent, TransientEvent } from './events.ts';
import type { Log } from './log.ts';

/** The Redis channel every instance publishes its committed domain events on. */
export const EVENT_CHANNEL = 'vigil:events';

interface Relayed {
  origin: string;
  event?: Omit<PublishedEvent, 'at'> & { at: string };
  /** Told, not stored (the catalogue's transient events). */
  transient?: TransientEvent;
  /** Sent instead of an event: the sender's relay was down and others may have missed its events. */
  gap?: true;
}

/**
 * Domain events between instances (REDIS_URL set): what one instance commits and publishes on
 * its own stream goes to Redis pub/sub, and what the others publish comes back into this
 * instance's stream, marked with its origin so it is never sent on again. Consoles on any
 * instance so hear of alarms raised, released and handled on any other, and of settings changes.
 * The database stays the source of truth: pub/sub is at most once. When the relay was down
 * (Redis stopped, the connection lost, a publish failed), events went missing both ways: once
 * it is back, this instance's gap listeners run (its consoles reload their pending alarms,
 * `/checkAlarm`) and a gap notice tells the other instances to do the same.
 */
export class RedisEventRelay {
  readonly instanceId = randomUUID();
  private publisher: Redis | undefined;
  private subscriber: Redis | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly gapListeners = new Set<() => void>();
  /** Down since the last heal: a gap to close when both connections are ready again. */
  private broken = false;
  /** Events relayed out and in, for /metrics and the tests. */
  readonly counts = { sent: 0, received: 0, failed: 0, gaps: 0 };
  readonly registry = new Registry();

  constructor(
    private readonly url: string,
    private readonly stream: EventStream,
    private readonly log: Log,
  ) {
    const up: Gauge = new Gauge({
      name: 'vigil_event_relay_up',
      help: 'The cross-instance event relay (Redis) has both connections ready: 1, else 0',
      registers: [this.registry],
      collect: () => up.set(this.up ? 1 : 0),
    });
    const events: Counter<'direction'> = new Counter({
      name: 'vigil_event_relay_events_total',
      help: 'Domain events relayed between instances, by direction (sent, received, failed)',
      labelNames: ['direction'] as const,
      registers: [this.registry],
      collect: () => {
        events.reset();
        for (const direction of ['sent', 'received', 'failed'] as const)
          events.inc({ direction }, this.counts[direction]);
      },
    });
    const gaps: Counter = new Counter({
      name: 'vigil_event_relay_gaps_total',
      help: 'Times the relay came back from an outage and consoles were told to reload their pending alarms',
      registers: [this.registry],
      collect: () => {
        gaps.reset();
        gaps.inc(this.counts.gaps);
      },
    });
  }

  /** Both connections ready: events flow both ways (for /readyz and /metrics). */
  get up(): boolean {
    return this.publisher?.status === 'ready' && this.subscriber?.status === 'ready';
  }

  /** Called when events may have been missed between instances and the relay works again. */
  onGap(listener: () => void): () => void {
    this.gapListeners.add(listener);
    return () => this.gapListeners.delete(listener);
  }

  async start(): Promise<void> {
    const options = { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true } as const;
    this.publisher = new Redis(this.url, options);
    this.subscriber = new Redis(this.url, options);
    for (const client of [this.publisher, this.subscriber]) {
      client.on('error', (error: Error) => this.log.warn({ err: error.message }, 'redis event relay'));
      client.on('close', () => this.lost());
      // After the first connection: ioredis subscribes again on its own, then reports ready.
      client.on('ready', () => this.healIfBack());
    }
    await Promise.all([this.publisher.connect(), this.subscriber.connect()]);
    this.subscriber.on('message', (_channel: string, message: string) => this.receive(message));
    await this.subscriber.subscribe(EVENT_CHANNEL);
    this.broken = false;
    const unsubscribeEvents = this.stream.subscribeAll((event) => this.send(event));
    const unsubscribeTransients = this.stream.listenAll((event) => this.tell(event));
    this.unsubscribe = () => {
      unsubscribeEvents();
      unsubscribeTransients();
    };
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.gapListeners.clear();
    const clients = [this.publisher, this.subscriber];
    this.publisher = undefined;
    this.subscriber = undefined;
    await Promise.all(clients.map((client) => client?.quit().catch(() => undefined)));
  }

  private lost(): void {
    if (!this.unsubscribe || this.broken) return;
    this.broken = true;
    this.log.warn({}, 'redis event relay down: alarms of other instances may be missed until it is back');
  }

  /** Back from an outage: the consoles here reload, and the others are told to. */
  private healIfBack(): void {
    if (!this.broken || !this.up) return;
    this.broken = false;
    this.counts.gaps++;
    this.log.info({}, 'redis event relay back: consoles reload their pending alarms');
    this.publish({ origin: this.instanceId, gap: true });
    this.fireGap();
  }

  private fireGap(): void {
    for (const listener of this.gapListeners) {
      try {
        listener();
      } catch (error) {
        this.log.error({ err: String(error) }, 'relay gap listener failed');
      }
    }
  }

  private send(event: PublishedEvent): void {
    // Events that came from another instance are not sent on: every instance hears each once.
    if (event.origin !== undefined || !this.publisher) return;
    this.publish({ origin: this.instanceId, event: { ...event, at: event.at.toISOString() } }, event.type);
  }

  private tell(event: TransientEvent): void {
    if (event.origin !== undefined || !this.publisher) return;
    this.publish({ origin: this.instanceId, transient: event }, event.type);
  }

  private publish(relayed: Relayed, what = 'relay gap'): void {
    this.publisher?.publish(EVENT_CHANNEL, JSON.stringify(relayed)).then(
      () => {
        if (!relayed.event) return;
        this.counts.sent++;
        // A publish failed while the connections looked ready: this one went, the gap closes now.
        this.healIfBack();
      },
      (error: unknown) => {
        if (relayed.event) this.counts.failed++;
        // The others missed it: a gap to close once the relay works again.
        this.broken = true;
        this.log.warn({ err: String(error), event: what }, 'domain event not relayed to other instances');
      },
    );
  }

  private receive(message: string): void {
    let relayed: Relayed;
    try {
      relayed = JSON.parse(message) as Relayed;
    } catch {
      return;
    }
    if (relayed.origin === this.instanceId) return;
    if (relayed.gap) return this.fireGap();
    // An instance of another version may send what this one does not know: not published here.
    if (relayed.transient && isTransientName(relayed.transient.type))
      return this.stream.announce({ ...relayed.transient, origin: relayed.origin });
    if (!relayed.event || !isEventName(relayed.event.type)) return;
    this.counts.received++;
    // Sent by `send` from a catalogued event of that name.
    const event = { ...relayed.event, at: new Date(relayed.event.at), origin: relayed.origin } as PublishedEvent;
    this.stream.publish([event]);
  }
}
