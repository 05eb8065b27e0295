import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { DEVICE_TOPICS, topicOf, TOPIC_PREFIX, type DeviceCommandMessage, type DeviceTopic } from '@vigil/contract';
import type { RateLimitedLog } from '../../../core/log.ts';
import type { Ingest } from '../ingest/ingest.ts';
import type { IngestMetrics } from '../ingest/ingest-metrics.ts';
import type { DeviceLink } from './device-link.ts';

export interface ExternalBrokerDeps {
  url: string;
  /** Stable per instance: the broker keeps this session's unacknowledged messages across a restart. */
  clientId: string;
  /** The shared-subscription group all instances join. */
  group?: string;
  /** Connections that take events (each acknowledges one event at a time, after its commit). */
  eventConnections?: number;
  ingest: Ingest;
  metrics: IngestMetrics;
  log: RateLimitedLog;
}

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
 * An MQTT client handles its incoming messages one at a time, and an event's acknowledgement
 * waits for its commit; so events come over connections of their own (several, so commits
 * overlap and batch), and telemetry, status and answers over another that never waits.
 */
export class ExternalBroker implements DeviceLink {
  private main: MqttClient | undefined;
  private readonly eventClients: MqttClient[] = [];

  constructor(private readonly deps: ExternalBrokerDeps) {}

  /** Connected to the broker (for /readyz). */
  get up(): boolean {
    return this.main?.connected === true && this.eventClients.every((c) => c.connected);
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
        reconnectPeriod: 1_000,
        connectTimeout: 10_000,
        ...extra,
      });
      const subscriptions = Object.fromEntries(sharedSubscriptions(group, kinds).map((t) => [t, { qos: 1 as const }]));
      ready.push(
        new Promise<void>((resolve) => {
          client.on('connect', (connack) => {
            // A persistent session keeps its subscriptions; a new one needs them.
            if (!connack.sessionPresent) {
              client.subscribe(subscriptions, (error) => {
                if (error) log.warn('external:subscribe', { err: error.message }, 'MQTT subscription failed');
              });
            }
            resolve();
          });
        }),
      );
      client.on('error', (error) => log.warn('external:error', { err: error.message }, 'MQTT broker connection error'));
      client.on('offline', () => log.warn('external:offline', {}, 'MQTT broker unreachable; reconnecting'));
      return client;
    };

    // Telemetry (QoS 0), status and answers: taken as they come, acknowledged at once.
    const main = open(this.deps.clientId, STATE_KINDS);
    main.on('message', (topic, payload) => {
      ingest.handle(topic, payload).catch((error: unknown) => {
        log.warn('external:handle', { err: String(error) }, 'device message not taken');
      });
    });
    this.main = main;

    for (let i = 1; i <= connections; i++) {
      const client: MqttClient = open(`${this.deps.clientId}-ev${i}`, EVENT_KINDS, {
        customHandleAcks: (topic, message, _packet, done) => {
          ingest.handle(topic, message).then(
            () => done(0),
            (error: unknown) => {
              log.warn(
                'external:store',
                { err: String(error) },
                'device event not stored; reconnecting for redelivery',
              );
              // No acknowledgement: drop the connection, the broker delivers the event again.
              client.stream.destroy();
            },
          );
        },
      });
      // A QoS 0 event (a device not following the protocol) is taken like any other.
      client.on('message', (topic, payload, packet) => {
        if (packet.qos === 0) void ingest.handle(topic, payload).catch(() => undefined);
      });
      this.eventClients.push(client);
    }
    // An unreachable broker does not stop the server: it keeps reconnecting and /readyz says so.
    await Promise.race([Promise.all(ready), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  }

  async sendCommand(deviceId: string, message: DeviceCommandMessage): Promise<void> {
    if (!this.main) throw new Error('broker not connected');
    await this.main.publishAsync(topicOf(deviceId, 'cmd'), JSON.stringify(message), { qos: 1 });
  }

  private all(): MqttClient[] {
    return [...(this.main ? [this.main] : []), ...this.eventClients];
  }

  /**
   * Leaves for good: unsubscribes and ends the sessions at the broker (a decommissioned
   * instance, or a test). A plain stop keeps the sessions so a restart misses nothing.
   */
  async endSession(): Promise<void> {
    const group = this.deps.group ?? 'vigil';
    const clients = this.all();
    this.main = undefined;
    this.eventClients.length = 0;
    await Promise.all(
      clients.map(async (client) => {
        await client.unsubscribeAsync(sharedSubscriptions(group)).catch(() => undefined);
        await client.endAsync(false, { properties: { sessionExpiryInterval: 0 } });
      }),
    );
  }

  async stop(): Promise<void> {
    const clients = this.all();
    this.main = undefined;
    this.eventClients.length = 0;
    await Promise.all(clients.map((client) => client.endAsync()));
  }
}
