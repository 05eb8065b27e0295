import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { DEVICE_TOPICS, topicOf, TOPIC_PREFIX, type DeviceCommandMessage } from '@vigil/contract';
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

/** The shared subscriptions: the broker gives each device message to one instance of the group. */
export const sharedSubscriptions = (group: string): string[] =>
  DEVICE_TOPICS.map((kind) => `$share/${group}/${TOPIC_PREFIX}/+/${kind}`);

/**
 * Vigil as a client of an external broker (Mosquitto, EMQX) that authenticates devices through
 * our HTTP auth/ACL endpoint. Every instance subscribes with the same `$share` group, so each
 * message is processed once. A QoS 1 event is acknowledged to the broker only after it is
 * stored; the session is persistent, so what an instance took but never acknowledged (it was
 * killed) is delivered again when it reconnects.
 */
export class ExternalBroker implements DeviceLink {
  private client: MqttClient | undefined;

  constructor(private readonly deps: ExternalBrokerDeps) {}

  async start(): Promise<void> {
    const { ingest, log } = this.deps;
    const options: IClientOptions = {
      clientId: this.deps.clientId,
      protocolVersion: 5,
      clean: false,
      properties: { sessionExpiryInterval: 24 * 60 * 60 },
      reconnectPeriod: 1_000,
      connectTimeout: 10_000,
      customHandleAcks: (topic, message, _packet, done) => {
        // Events are stored before the broker hears back; state and answers need no wait.
        if (!topic.endsWith('/event')) return done(0);
        ingest.handle(topic, message).then(
          () => done(0),
          (error: unknown) => {
            log.warn('external:store', { err: String(error) }, 'device event not stored; reconnecting for redelivery');
            // No acknowledgement: drop the connection, the broker delivers the event again.
            this.client?.stream.destroy();
          },
        );
      },
    };
    const client = connect(this.deps.url, options);
    this.client = client;
    client.on('message', (topic, payload, packet) => {
      if (packet.qos > 0 && topic.endsWith('/event')) return;
      ingest.handle(topic, payload).catch((error: unknown) => {
        log.warn('external:handle', { err: String(error) }, 'device message not taken');
      });
    });
    const subscriptions = Object.fromEntries(
      sharedSubscriptions(this.deps.group ?? 'vigil').map((t) => [t, { qos: 1 as const }]),
    );
    const connected = new Promise<void>((resolve) => {
      client.on('connect', (connack) => {
        this.up = true;
        // A persistent session keeps its subscriptions; a new one needs them.
        if (!connack.sessionPresent) {
          client.subscribe(subscriptions, (error) => {
            if (error) log.warn('external:subscribe', { err: error.message }, 'MQTT subscription failed');
          });
        }
        resolve();
      });
    });
    client.on('close', () => {
      this.up = false;
    });
    client.on('error', (error) => log.warn('external:error', { err: error.message }, 'MQTT broker connection error'));
    client.on('offline', () => log.warn('external:offline', {}, 'MQTT broker unreachable; reconnecting'));
    // An unreachable broker does not stop the server: it keeps reconnecting and /readyz says so.
    await Promise.race([connected, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  }

  /** Connected to the broker (for /readyz). */
  up = false;

  async sendCommand(deviceId: string, message: DeviceCommandMessage): Promise<void> {
    if (!this.client) throw new Error('broker not connected');
    await this.client.publishAsync(topicOf(deviceId, 'cmd'), JSON.stringify(message), { qos: 1 });
  }

  /**
   * Leaves for good: unsubscribes and ends the session at the broker (a decommissioned
   * instance, or a test). A plain stop keeps the session so a restart misses nothing.
   */
  async endSession(): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = undefined;
    await client.unsubscribeAsync(sharedSubscriptions(this.deps.group ?? 'vigil')).catch(() => undefined);
    await client.endAsync(false, { properties: { sessionExpiryInterval: 0 } });
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.endAsync();
  }
}
