import { COMMAND_TOPIC, DEVICE_ID_MAX, DEVICE_ID_PATTERN, parseTopic, TOPIC_PREFIX } from '@vigil/contract';
import type { Clock } from '../../../clock.ts';
import type { RateLimitedLog } from '../../../core/log.ts';
import type { VerifiedSecrets } from '../credentials/secret.ts';
import type { DeviceSecrets } from '../credentials/device-secrets.ts';
import type { DeviceDirectory } from '../ingest/device-directory.ts';
import type { IngestMetrics } from '../ingest/ingest-metrics.ts';
import { ConnectLockout } from './connect-lockout.ts';

export type ConnectRefusal = 'malformed' | 'id_mismatch' | 'unknown' | 'no_secret' | 'bad_secret' | 'rate_limited';

/**
 * Messages a device may publish per second on average, and in a burst (hosts: per device
 * behind them). A sleep monitor sends one a second; a device replaying its buffer must pace
 * itself to this (docs/device-protocol.md).
 */
export const RATE_PER_S = 50;
export const BURST = 500;

/** A user name, when given, must be the client id (any case): one device's login never speaks as another. */
export const userNameFits = (username: string | undefined, deviceId: string): boolean =>
  username === undefined || username.toUpperCase() === deviceId;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Who may connect, publish and subscribe — one set of rules for the embedded broker's hooks and
 * the HTTP auth/ACL endpoint an external broker calls. A device connects with client id =
 * username = its device ID and password = its secret; it publishes only on its own topics and
 * subscribes only to its own `cmd`; a gateway host also on those of its paired sub-devices.
 */
export class DeviceGate {
  private readonly lockout = new ConnectLockout();
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly stored: DeviceSecrets,
    private readonly directory: DeviceDirectory,
    private readonly secrets: VerifiedSecrets,
    private readonly clock: Clock,
    private readonly metrics: IngestMetrics,
    private readonly log: RateLimitedLog,
  ) {}

  /**
   * Checks a CONNECT. `source` is the address the device connects from (undefined when a broker
   * does not say): failures lock out that address, never the device elsewhere (decision 0030).
   */
  async authenticate(
    clientId: string,
    username: string | undefined,
    password: string | undefined,
    source?: string,
  ): Promise<{ ok: true; deviceId: string } | { ok: false; reason: ConnectRefusal }> {
    const deviceId = clientId.toUpperCase();
    const refuse = (reason: ConnectRefusal) => {
      this.metrics.refusedConnects.inc({ reason });
      // The secret is never logged; the ID is cut short and checked for shape first.
      this.log.warn(`connect:${reason}`, { deviceId: deviceId.slice(0, 64), reason, source }, 'device connect refused');
      return { ok: false as const, reason };
    };
    if (deviceId.length > DEVICE_ID_MAX || !DEVICE_ID_PATTERN.test(deviceId) || !password) return refuse('malformed');
    if (!userNameFits(username, deviceId)) return refuse('id_mismatch');
    const now = this.clock.now().getTime();
    if (this.lockout.refuses(source, deviceId, now)) return refuse('rate_limited');

    // From memory (no query); a refusal first checks the stored entry, which may have changed on
    // another instance. So every refusal costs one query and one verification whatever the
    // entry (a decoy for none): the time tells nothing (issue 28).
    const held = await this.stored.hashOf(deviceId);
    let hash = held.hash;
    let verified = await this.secrets.verify(password, hash ?? null);
    if (!verified && held.fromMemory) {
      const stored = await this.stored.reread(deviceId);
      if (stored !== hash) verified = await this.secrets.verify(password, stored ?? null);
      hash = stored;
    }
    const reason: ConnectRefusal | null =
      hash === undefined ? 'unknown' : !hash ? 'no_secret' : verified ? null : 'bad_secret';
    if (reason) {
      this.lockout.failed(source, deviceId, now);
      if (this.lockout.besieged(deviceId, now)) {
        this.log.warn('connect:besieged', { deviceId }, 'device ID failing from many addresses; each gets one try');
      }
      return refuse(reason);
    }
    this.lockout.succeeded(source, deviceId);
    return { ok: true, deviceId };
  }

  /** Whether a device speaks for the device named in a topic: itself, or a sub-device it hosts. */
  private speaksFor(deviceId: string, topicDevice: string): boolean {
    const target = topicDevice.toUpperCase();
    return target === deviceId || this.directory.subDevicesOf(deviceId).has(target);
  }

  /**
   * Whether the device may publish on the topic. When it publishes for a device the directory
   * does not show under it, that device is read again first: a sub-device paired since the last
   * reload speaks through its host at once. A refusal is counted and logged.
   */
  async mayPublish(deviceId: string, topic: string): Promise<boolean> {
    const route = parseTopic(topic);
    if (route && !this.speaksFor(deviceId, route.deviceId)) await this.directory.refresh(route.deviceId.toUpperCase());
    if (!route || !this.speaksFor(deviceId, route.deviceId)) {
      this.refusePublish('topic', deviceId, topic);
      return false;
    }
    return true;
  }

  /** The common case without a query: the device publishes for itself or a known sub-device. */
  mayPublishNow(deviceId: string, topic: string): boolean {
    const route = parseTopic(topic);
    return route !== null && this.speaksFor(deviceId, route.deviceId);
  }

  /** An external broker's ACL question named a user other than the client id: refused, counted. */
  refuseUserName(deviceId: string, topic: string): void {
    this.refusePublish('id_mismatch', deviceId.slice(0, 64), topic);
  }

  async maySubscribe(deviceId: string, topic: string): Promise<boolean> {
    const parts = topic.split('/');
    const shaped = parts.length === 4 && `${parts[0]}/${parts[1]}` === TOPIC_PREFIX && parts[3] === COMMAND_TOPIC;
    const target = (parts[2] ?? '').toUpperCase();
    if (shaped && !this.speaksFor(deviceId, target) && /^[A-Z0-9-]{1,64}$/.test(target)) {
      await this.directory.refresh(target);
    }
    const ok = shaped && this.speaksFor(deviceId, target);
    if (!ok) this.refusePublish('subscribe', deviceId, topic);
    return ok;
  }

  /**
   * The per-device rate limit: a token bucket, larger for a host that speaks for its
   * sub-devices. False: drop the message (counted), the device stays connected.
   */
  withinRate(deviceId: string): boolean {
    const now = this.clock.now().getTime();
    const scale = 1 + this.directory.subDevicesOf(deviceId).size;
    const bucket = this.buckets.get(deviceId) ?? { tokens: BURST * scale, at: now };
    bucket.tokens = Math.min(BURST * scale, bucket.tokens + ((now - bucket.at) / 1000) * RATE_PER_S * scale);
    bucket.at = now;
    this.buckets.set(deviceId, bucket);
    if (bucket.tokens < 1) {
      this.refusePublish('rate_limited', deviceId, '');
      return false;
    }
    bucket.tokens -= 1;
    return true;
  }

  private refusePublish(reason: string, deviceId: string, topic: string): void {
    this.metrics.refusedPublishes.inc({ reason });
    this.log.warn(`publish:${reason}`, { deviceId, reason, topic: topic.slice(0, 120) }, 'device publish refused');
  }
}
