import type { MqttClient } from 'mqtt';

/** Reserved topics of the server's canaries: outside `vigil/v1/`, so no device may publish on them. */
export const CANARY_PREFIX = 'vigil/canary';

export interface CanaryTiming {
  /** A canary goes out this often on each connection. */
  everyMs: number;
  /** A canary not back within this long is missed. */
  timeoutMs: number;
}

export const CANARY_TIMING: CanaryTiming = { everyMs: 5_000, timeoutMs: 10_000 };

/**
 * Proves that messages flow on one connection to an external broker, not only that its socket
 * is open: the connection subscribes, beside the device topics, to a canary topic of its own —
 * through a shared subscription like theirs, so a broker that lost the device subscriptions (a
 * persistent session restored without its `$share` subscriptions, as Mosquitto does after a
 * restart) loses this one too — and publishes to it every few seconds. The canary comes back
 * through the broker, or the connection is not flowing: /readyz says so and the link
 * subscribes again, then reconnects.
 */
export class FlowCanary {
  readonly topic: string;
  /** The shared subscription of the canary (a group of its own: only this connection receives it). */
  readonly subscription: string;
  private sent = 0;
  private lastSentAt = 0;
  private lastBackAt = 0;
  /** Last device message taken or stored on this connection. */
  private lastHeardAt = 0;
  private connectedAt = 0;
  private pendingSince: number | undefined;
  /** Canaries missed in a row since the last one came back. */
  missedInARow = 0;

  constructor(
    clientId: string,
    private readonly now: () => number = Date.now,
    readonly timing: CanaryTiming = CANARY_TIMING,
  ) {
    const name = clientId.replace(/[^A-Za-z0-9_-]/g, '_');
    this.topic = `${CANARY_PREFIX}/${name}`;
    this.subscription = `$share/canary-${name}/${this.topic}`;
  }

  /** Whether a message is this connection's canary (never handed to the ingest). */
  isCanary(topic: string): boolean {
    return topic === this.topic;
  }

  /** Subscribed on a new connection: flowing only once a canary made the round trip on it; the first goes at once. */
  subscribed(): void {
    this.connectedAt = this.now();
    this.lastSentAt = 0;
    this.pendingSince = undefined;
  }

  received(): void {
    this.lastBackAt = this.now();
    this.pendingSince = undefined;
    this.missedInARow = 0;
  }

  /**
   * A device message was taken or stored on this connection. While they keep coming, a canary
   * that is late is waiting behind them (a burst, a broker's redelivery after a restart), not
   * lost: counting it as missed would reconnect a connection that works and have the broker
   * deliver the burst again.
   */
  heard(): void {
    this.lastHeardAt = this.now();
  }

  /** Messages flowed on this connection, recently, since it last subscribed. */
  get flowing(): boolean {
    const now = this.now();
    const canaryBack = this.lastBackAt > 0 && this.lastBackAt >= this.connectedAt;
    const heard = this.lastHeardAt > 0 && this.lastHeardAt >= this.connectedAt;
    if (!canaryBack && !heard) return false;
    const last = Math.max(canaryBack ? this.lastBackAt : 0, heard ? this.lastHeardAt : 0);
    return now - last <= this.timing.everyMs + this.timing.timeoutMs;
  }

  /**
   * One tick: sends a canary when one is due, and answers whether the one in flight was missed
   * (then the caller repairs the connection).
   */
  tick(client: MqttClient): 'ok' | 'missed' {
    const now = this.now();
    if (this.pendingSince !== undefined && this.lastHeardAt > this.pendingSince) {
      // Still in the queue behind device messages: missed only after timeoutMs with none.
      this.pendingSince = this.lastHeardAt;
    }
    if (this.pendingSince !== undefined && now - this.pendingSince > this.timing.timeoutMs) {
      this.pendingSince = undefined;
      this.missedInARow++;
      return 'missed';
    }
    if (client.connected && this.pendingSince === undefined && now - this.lastSentAt >= this.timing.everyMs) {
      this.lastSentAt = now;
      this.pendingSince = now;
      client.publish(this.topic, JSON.stringify({ n: ++this.sent, at: now }), { qos: 1 }, () => undefined);
    }
    return 'ok';
  }
}
