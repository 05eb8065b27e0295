import { connect, type IClientOptions, type ISubscriptionMap, type MqttClient } from 'mqtt';
import { DEVICE_TOPICS, topicOf, TOPIC_PREFIX, type DeviceCommandMessage, type DeviceTopic } from '@vigil/contract';
import type { RateLimitedLog } from '../../../core/log.ts';
import type { Ingest } from '../ingest/ingest.ts';
import type { IngestMetrics } from '../ingest/ingest-metrics.ts';
import type { DeviceLink } from './device-link.ts';
import { FlowCanary, type CanaryTiming } from './flow-canary.ts';
import { AckPipeline } from './ack-pipeline.ts';

export interface ExternalBrokerDeps {
  url: string;
  /** Stable per instance: the broker keeps this session's unacknowledged messages across a restart. */
  clientId: string;
  /** The shared-subscription group all instances join. */
  group?: string;
  /** Connections that take events (each acknowledges its events in order, each after its commit). */
  eventConnections?: number;
  /** Events a connection may have taken and not yet acknowledged (AckPipeline). */
  eventWindow?: number;
  ingest: Ingest;
  metrics: IngestMetrics;
  log: RateLimitedLog;
  /** The canaries' clock and timing (tests). */
  now?: () => number;
  canaryTiming?: CanaryTiming;
}

/** One connection's subscriptions and whether the broker granted them on its current session. */
interface Link {
  subscriptions: string[];
  subscribed: boolean;
  canary: FlowCanary;
}

/** A SUBACK grant at or above this is a refusal (MQTT 3.1.1: 0x80; MQTT 5: reason codes ≥ 0x80). */
const SUBACK_FAILURE = 0x80;
/** A refused subscription is tried again this much later. */
const RESUBSCRIBE_MS = 2_000;

/** The server's own login at the broker, from the URL's user part (mqtt://user:password@host). */
export const serverLoginOf = (url: string | undefined): { username: string; password: string } | undefined => {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    if (!parsed.username) return undefined;
    return { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
  } catch {
    return undefined;
  }
};

/** The shared subscriptions of some device topics: the broker gives each message to one member of the group. */
export const sharedSubscriptions = (group: string, kinds: readonly DeviceTopic[] = DEVICE_TOPICS): string[] =>
  kinds.map((kind) => `$share/${group}/${TOPIC_PREFIX}/+/${kind}`);

const STATE_KINDS: readonly DeviceTopic[] = ['telemetry', 'status', 'ack'];
const EVENT_KINDS: readonly DeviceTopic[] = ['event'];

/**
 * Vigil as a client of an external broker (Mosquitto, EMQX) that authenticates devices through
 * our HTTP auth/ACL endpoint. Every instance subscribes with the same `$share` group, so each
 * message is processed once. A QoS 1 event is acknowledged to the broker only after it is
 * stored; the sessions are persistent, so what an instance took but never acknowledged (it was
 * killed) is delivered again when it reconnects.
 *
 * Every connection subscribes on every CONNACK, session present or not, and checks each grant:
 * a broker may restore a persistent session without its shared subscriptions. A canary on each
 * connection (FlowCanary) proves that messages flow; /readyz reports `silent` when they do not.
 *
 * An event's acknowledgement waits for its commit, and an MQTT client handles its incoming
 * messages one at a time; so events come over connections of their own, each taking up to
 * `eventWindow` events at once (AckPipeline: a burst is written in a few batches, its PUBACKs in
 * order after the commit), and telemetry, status and answers over another that never waits.
 */
export class ExternalBroker implements DeviceLink {
  private main: MqttClient | undefined;
  private readonly eventClients: MqttClient[] = [];
  private readonly links = new Map<MqttClient, Link>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: ExternalBrokerDeps) {}

  /** Connected to the broker (for /readyz). */
  get up(): boolean {
    return this.main?.connected === true && this.eventClients.every((c) => c.connected);
  }

  /** Connected, subscribed, and a canary made the round trip on every connection recently (for /readyz). */
  get flowing(): boolean {
    return this.up && [...this.links.values()].every((link) => link.subscribed && link.canary.flowing);
  }

  async start(): Promise<void> {
    const { ingest, log } = this.deps;
    const group = this.deps.group ?? 'vigil';
    const connections = Math.max(1, this.deps.eventConnections ?? 4);
    const ready: Promise<void>[] = [];

    const open = (clientId: string, kinds: readonly DeviceTopic[], extra: Partial<IClientOptions> = {}) => {
      const client = connect(this.deps.url, {
        clientId,
        protocolVersion: 5,
        clean: false,
        properties: { sessionExpiryInterval: 24 * 60 * 60 },
        reconnectPeriod: 500,
        connectTimeout: 10_000,
        // Subscribed on every CONNACK below; the client's own resubscribe skips a session it
        // believes present, which is how a broker restart left the instances deaf.
        resubscribe: false,
        ...extra,
      });
      const canary = new FlowCanary(clientId, this.deps.now, this.deps.canaryTiming);
      const link: Link = {
        subscriptions: [...sharedSubscriptions(group, kinds), canary.subscription],
        subscribed: false,
        canary,
      };
      this.links.set(client, link);
      ready.push(
        new Promise<void>((resolve) => {
          client.on('connect', () => {
            // Even with a session present: a broker may restore a session without its shared
            // subscriptions (Mosquitto with persistence after a restart). Subscribing again is harmless.
            link.subscribed = false;
            void this.subscribe(client, link).then(resolve);
          });
        }),
      );
      client.on('error', (error) => log.warn('external:error', { err: error.message }, 'MQTT broker connection error'));
      client.on('offline', () => log.warn('external:offline', {}, 'MQTT broker unreachable; reconnecting'));
      return client;
    };

    // Telemetry (QoS 0), status and answers: taken as they come, acknowledged at once.
    const main = open(this.deps.clientId, STATE_KINDS);
    const mainLink = this.links.get(main);
    main.on('message', (topic, payload, packet) => {
      if (mainLink?.canary.isCanary(topic)) return mainLink.canary.received();
      if (this.replayed(packet)) return;
      mainLink?.canary.heard();
      ingest.handle(topic, payload).catch((error: unknown) => {
        log.warn('external:handle', { err: String(error) }, 'device message not taken');
      });
    });
    this.main = main;

    for (let i = 1; i <= connections; i++) {
      const client: MqttClient = open(`${this.deps.clientId}-ev${i}`, EVENT_KINDS, {
        // Everything through the pipeline (made as soon as `open` returns, before any message
        // can come), so the PUBACKs keep the order the messages came in.
        customHandleAcks: (topic, message, packet, done) => {
          const link = this.links.get(client);
          if (link?.canary.isCanary(topic)) return pipeline.take(packet, async () => link.canary.received(), done);
          if (this.replayed(packet)) return pipeline.take(packet, async () => undefined, done);
          link?.canary.heard();
          pipeline.take(
            packet,
            async () => {
              await ingest.handle(topic, message);
              link?.canary.heard();
            },
            done,
          );
        },
      });
      // No acknowledgement for an event not stored: the connection drops, the broker delivers it again.
      const pipeline = new AckPipeline(client, this.deps.eventWindow ?? 100, (error) =>
        log.warn('external:store', { err: String(error) }, 'device event not stored; reconnecting for redelivery'),
      );
      // A QoS 0 event (a device not following the protocol) is taken like any other.
      client.on('message', (topic, payload, packet) => {
        if (packet.qos === 0 && !this.links.get(client)?.canary.isCanary(topic) && !this.replayed(packet))
          void ingest.handle(topic, payload).catch(() => undefined);
      });
      this.eventClients.push(client);
    }
    this.timer = setInterval(() => this.watch(), 1_000);
    this.timer.unref();
    // An unreachable broker does not stop the server: it keeps reconnecting and /readyz says so.
    await Promise.race([Promise.all(ready), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  }

  /**
   * Subscribes a connection to its topics and checks every grant of the SUBACK: a refused
   * subscription is a deaf instance, so it is logged, counted and tried again until granted.
   */
  private async subscribe(client: MqttClient, link: Link): Promise<void> {
    const { log, metrics } = this.deps;
    // `resubscribe`: mqtt.js would otherwise skip topics it believes its session still has.
    // rh 2: no retained messages at subscribe time (the brokers that ignore it are caught by `replayed`).
    const topics = Object.assign(Object.fromEntries(link.subscriptions.map((t) => [t, { qos: 1 as const, rh: 2 }])), {
      resubscribe: true,
    }) as ISubscriptionMap;
    try {
      const granted = await client.subscribeAsync(topics);
      const refused = link.subscriptions.filter((topic) => {
        const grant = granted.find((g) => g.topic === topic);
        return !grant || grant.qos >= SUBACK_FAILURE;
      });
      if (refused.length) throw new Error(`refused: ${refused.join(', ')}`);
      link.subscribed = true;
      link.canary.subscribed();
      metrics.brokerSubscribes.inc({ outcome: 'granted' });
    } catch (error) {
      metrics.brokerSubscribes.inc({ outcome: 'failed' });
      log.warn('external:subscribe', { err: String(error) }, 'MQTT subscription failed; trying again');
      if (client.connected && this.links.has(client)) {
        await new Promise((resolve) => setTimeout(resolve, RESUBSCRIBE_MS).unref());
        if (client.connected && this.links.has(client)) await this.subscribe(client, link);
      }
    }
  }

  /**
   * A retained message the broker replays because a subscription is new (RETAIN set on
   * delivery): stale state, not news. After a restart Mosquitto replays every device's retained
   * last will ({"online": false}, stored when the broker stopped) to the instances' fresh
   * shared subscriptions, which marked every device offline at once. Devices' live state is
   * Vigil's own, from their live messages; a replay is counted and dropped.
   */
  private replayed(packet: { retain?: boolean }): boolean {
    if (!packet.retain) return false;
    this.deps.metrics.dropped.inc({ reason: 'retained' });
    return true;
  }

  /**
   * Every second: canaries out; a connection whose canary did not come back subscribes again,
   * and after a second miss reconnects (a new session's subscriptions start from nothing).
   */
  private watch(): void {
    for (const [client, link] of this.links) {
      if (!client.connected || !link.subscribed) continue;
      if (link.canary.tick(client) === 'ok') continue;
      this.deps.metrics.brokerCanaryMissed.inc();
      if (link.canary.missedInARow === 1) {
        this.deps.log.warn(
          'external:canary',
          { client: client.options.clientId },
          'MQTT canary missed; subscribing again',
        );
        link.subscribed = false;
        void this.subscribe(client, link);
      } else {
        this.deps.log.warn(
          'external:canary',
          { client: client.options.clientId },
          'MQTT canary missed again; reconnecting',
        );
        link.subscribed = false;
        client.stream.destroy();
      }
    }
  }

  async sendCommand(deviceId: string, message: DeviceCommandMessage): Promise<void> {
    if (!this.main) throw new Error('broker not connected');
    await this.main.publishAsync(topicOf(deviceId, 'cmd'), JSON.stringify(message), { qos: 1 });
  }

  private all(): MqttClient[] {
    const clients = [...(this.main ? [this.main] : []), ...this.eventClients];
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    return clients;
  }

  /**
   * Leaves for good: unsubscribes and ends the sessions at the broker (a decommissioned
   * instance, or a test). A plain stop keeps the sessions so a restart misses nothing.
   */
  async endSession(): Promise<void> {
    const group = this.deps.group ?? 'vigil';
    const clients = this.all();
    const subscriptions = (client: MqttClient) => this.links.get(client)?.subscriptions ?? sharedSubscriptions(group);
    this.main = undefined;
    this.eventClients.length = 0;
    await Promise.all(
      clients.map(async (client) => {
        await client.unsubscribeAsync(subscriptions(client)).catch(() => undefined);
        this.links.delete(client);
        await client.endAsync(false, { properties: { sessionExpiryInterval: 0 } });
      }),
    );
  }

  async stop(): Promise<void> {
    const clients = this.all();
    this.links.clear();
    this.main = undefined;
    this.eventClients.length = 0;
    await Promise.all(clients.map((client) => client.endAsync()));
  }
}
