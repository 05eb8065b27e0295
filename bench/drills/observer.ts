import { connectAsync, type MqttClient } from 'mqtt';
import { TOPIC_PREFIX } from '@vigil/contract';

/**
 * A plain subscriber to every device event (QoS 0, not in the instances' share group): it is
 * never held back by an acknowledgement, so the moment it sees an event is when the broker had
 * it. That splits a late event's delay into the device's side (sent → broker) and the
 * instances' side (broker → stored).
 */
export class BrokerObserver {
  /** `deviceId\0seq` → ms when the broker passed the event on. */
  readonly seen = new Map<string, number>();
  private client: MqttClient | undefined;

  constructor(private readonly url: string) {}

  async start(): Promise<void> {
    this.client = await connectAsync(this.url, { clientId: `drill-observer-${Date.now()}`, clean: true });
    this.client.on('message', (topic, payload) => {
      const at = Date.now();
      const deviceId = topic.split('/')[2];
      try {
        const { seq } = JSON.parse(payload.toString('utf8')) as { seq?: unknown };
        if (deviceId && typeof seq === 'number') {
          const key = `${deviceId.toUpperCase()}\u0000${seq}`;
          if (!this.seen.has(key)) this.seen.set(key, at);
        }
      } catch {
        // Not an event the drill sent.
      }
    });
    await this.client.subscribeAsync(`${TOPIC_PREFIX}/+/event`, { qos: 0 });
  }

  async stop(): Promise<void> {
    await this.client?.endAsync(true).catch(() => undefined);
    this.client = undefined;
  }
}
