import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { EventStream, PublishedEvent } from './events.ts';
import type { Log } from './log.ts';

/** The Redis channel every instance publishes its committed domain events on. */
export const EVENT_CHANNEL = 'vigil:events';

interface Relayed {
  origin: string;
  event: Omit<PublishedEvent, 'at'> & { at: string };
}

/**
 * Domain events between instances (REDIS_URL set): what one instance commits and publishes on
 * its own stream goes to Redis pub/sub, and what the others publish comes back into this
 * instance's stream, marked with its origin so it is never sent on again. Consoles on any
 * instance so hear of alarms raised, released and handled on any other, and of settings changes.
 * The database stays the source of truth: pub/sub is at most once, and a console's pending check
 * (after every reconnect) closes whatever a lost message left out.
 */
export class RedisEventRelay {
  readonly instanceId = randomUUID();
  private publisher: Redis | undefined;
  private subscriber: Redis | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Events relayed out and in, for /metrics and the tests. */
  readonly counts = { sent: 0, received: 0, failed: 0 };

  constructor(
    private readonly url: string,
    private readonly stream: EventStream,
    private readonly log: Log,
  ) {}

  async start(): Promise<void> {
    const options = { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true } as const;
    this.publisher = new Redis(this.url, options);
    this.subscriber = new Redis(this.url, options);
    for (const client of [this.publisher, this.subscriber])
      client.on('error', (error: Error) => this.log.warn({ err: error.message }, 'redis event relay'));
    await Promise.all([this.publisher.connect(), this.subscriber.connect()]);
    this.subscriber.on('message', (_channel: string, message: string) => this.receive(message));
    await this.subscriber.subscribe(EVENT_CHANNEL);
    this.unsubscribe = this.stream.subscribe((event) => this.send(event));
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await Promise.all([this.publisher?.quit().catch(() => undefined), this.subscriber?.quit().catch(() => undefined)]);
  }

  private send(event: PublishedEvent): void {
    // Events that came from another instance are not sent on: every instance hears each once.
    if (event.origin !== undefined || !this.publisher) return;
    const relayed: Relayed = { origin: this.instanceId, event: { ...event, at: event.at.toISOString() } };
    this.publisher.publish(EVENT_CHANNEL, JSON.stringify(relayed)).then(
      () => this.counts.sent++,
      (error: unknown) => {
        this.counts.failed++;
        this.log.warn({ err: String(error), event: event.type }, 'domain event not relayed to other instances');
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
    this.counts.received++;
    this.stream.publish([{ ...relayed.event, at: new Date(relayed.event.at), origin: relayed.origin }]);
  }
}
