import { connectAsync, type MqttClient } from 'mqtt';

/** One call for help as the device saw it: published, and whether the broker acknowledged it. */
export interface Press {
  deviceId: string;
  seq: number;
  event: 'badge_sos' | 'device_release';
  sentAt: number;
  acked: boolean;
  /** When the PUBACK came back. */
  ackedAt?: number;
}

/**
 * Badges whose wearers call for help at a known pace: each presses SOS every 6–14 s, and most
 * of the calls are released at the badge 3–20 s later (the rest stay open, as a call nobody
 * answered yet). Every press is kept with whether the broker acknowledged it: the drill's own
 * ground truth, beside the simulated fleet's. QoS 1, resent after a reconnect, as a device does.
 */
export class Presser {
  readonly presses: Press[] = [];
  private readonly clients = new Map<string, MqttClient>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private running = false;
  private seq = Math.floor(Date.now() % 1e9) * 1000;

  constructor(
    private readonly url: string,
    private readonly badges: readonly { deviceId: string; secret: string }[],
    private readonly random: () => number = Math.random,
  ) {}

  async start(): Promise<void> {
    for (const { deviceId, secret } of this.badges) {
      const client = await connectAsync(this.url, {
        clientId: deviceId,
        username: deviceId,
        password: secret,
        reconnectPeriod: 2_000,
        keepalive: 30,
      });
      this.clients.set(deviceId, client);
    }
    this.running = true;
    for (const deviceId of this.clients.keys()) this.later(deviceId, 1_000 + this.random() * 8_000, 'badge_sos');
  }

  /** Stops pressing; what was published still gets its PUBACK (or not) within `drainMs`. */
  async stop(drainMs = 10_000): Promise<void> {
    this.running = false;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const end = Date.now() + drainMs;
    while (Date.now() < end && this.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    await Promise.all([...this.clients.values()].map((c) => c.endAsync(true).catch(() => undefined)));
  }

  private inFlight = 0;

  private later(deviceId: string, ms: number, event: Press['event']): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.running) return;
      this.publish(deviceId, event);
      if (event === 'badge_sos') {
        if (this.random() < 0.8) this.later(deviceId, 3_000 + this.random() * 17_000, 'device_release');
        else this.later(deviceId, 6_000 + this.random() * 8_000, 'badge_sos');
      } else this.later(deviceId, 6_000 + this.random() * 8_000, 'badge_sos');
    }, ms);
    this.timers.add(timer);
  }

  private publish(deviceId: string, event: Press['event']): void {
    const client = this.clients.get(deviceId);
    if (!client) return;
    const press: Press = { deviceId, seq: ++this.seq, event, sentAt: Date.now(), acked: false };
    this.presses.push(press);
    this.inFlight++;
    client
      .publishAsync(`vigil/v1/${deviceId}/event`, JSON.stringify({ ts: press.sentAt / 1000, seq: press.seq, event }), {
        qos: 1,
      })
      .then(
        () => {
          press.acked = true;
          press.ackedAt = Date.now();
        },
        () => undefined,
      )
      .finally(() => this.inFlight--);
  }
}
