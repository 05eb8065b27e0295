import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { z } from 'zod';
import type { Log } from '../../core/log.ts';
import type { DeviceVitals, VitalsHub } from './vitals-hub.ts';

/** The Redis channel where each instance publishes, once a second, the vitals it received that changed. */
export const VITALS_CHANNEL = 'vigil:vitals';

const MessageSchema = z.object({
  origin: z.string(),
  rows: z.array(
    z.object({
      deviceId: z.string().min(1).max(64),
      online: z.boolean(),
      at: z.number(),
      upgrading: z.boolean().optional(),
      sample: z
        .object({
          heartRate: z.number(),
          breathRate: z.number(),
          inBed: z.boolean(),
          move: z.number(),
          receivedAt: z.number(),
        })
        .nullable(),
    }),
  ),
});

/**
 * Vitals between instances (REDIS_URL set). With a shared MQTT subscription a sleep monitor's
 * samples reach whichever instance the broker picks, and a console may be on any other: each
 * instance publishes one message a second (a JSON array of the devices it heard from that
 * changed) and merges what the others publish into its hub, the newer copy of a device winning.
 * Pub/sub is at most once; a lost message is overtaken by the device's next sample a second later.
 */
export class RedisVitalsRelay {
  readonly instanceId = randomUUID();
  private publisher: Redis | undefined;
  private subscriber: Redis | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Messages (not devices) relayed out and in, for the tests. */
  readonly counts = { sent: 0, received: 0, failed: 0 };

  constructor(
    private readonly url: string,
    private readonly hub: Pick<VitalsHub, 'takeChangedHere' | 'merge'>,
    private readonly log: Log,
    private readonly everyMs = 1_000,
  ) {}

  async start(): Promise<void> {
    // The connection options of RedisEventRelay (core/event-relay.ts): fail a command fast, queue while reconnecting.
    const options = { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true } as const;
    this.publisher = new Redis(this.url, options);
    this.subscriber = new Redis(this.url, options);
    for (const client of [this.publisher, this.subscriber])
      client.on('error', (error: Error) => this.log.warn({ err: error.message }, 'redis vitals relay'));
    await Promise.all([this.publisher.connect(), this.subscriber.connect()]);
    this.subscriber.on('message', (_channel: string, message: string) => this.receive(message));
    await this.subscriber.subscribe(VITALS_CHANNEL);
    this.timer = setInterval(() => this.flush(), this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await Promise.all([this.publisher?.quit().catch(() => undefined), this.subscriber?.quit().catch(() => undefined)]);
  }

  /** Publishes what changed here since the last flush, if anything did. */
  flush(): void {
    if (!this.publisher) return;
    const rows = this.hub.takeChangedHere();
    if (!rows.length) return;
    this.publisher.publish(VITALS_CHANNEL, JSON.stringify({ origin: this.instanceId, rows })).then(
      () => this.counts.sent++,
      (error: unknown) => {
        this.counts.failed++;
        this.log.warn({ err: String(error), devices: rows.length }, 'vitals not relayed to other instances');
      },
    );
  }

  private receive(message: string): void {
    let json: unknown;
    try {
      json = JSON.parse(message);
    } catch {
      return;
    }
    const parsed = MessageSchema.safeParse(json);
    if (!parsed.success || parsed.data.origin === this.instanceId) return;
    this.counts.received++;
    const rows: DeviceVitals[] = parsed.data.rows;
    this.hub.merge(rows);
  }
}
