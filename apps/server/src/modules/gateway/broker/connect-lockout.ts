import { sourceKey } from './source-address.ts';

export const CONNECT_LOCKOUT = {
  /** Failures of one device ID from one address before that ID is refused from there unchecked. */
  perPair: 5,
  /** Failures from one address, whatever the IDs, before the address is refused unchecked. */
  perAddress: 50,
  /**
   * Failures of one ID from all addresses before it counts as besieged: its secret is still
   * checked for everyone, but an address that fails it is then refused it at the first failure.
   */
  perDevice: 100,
  windowMs: 60_000,
  /** Counts kept per table (pairs, addresses, IDs); the oldest are forgotten first. */
  maxEntries: 100_000,
};

/**
 * Failure counts in fixed windows, bounded. Entries sit in the map in the order their windows
 * started (a restarted window is moved to the end), so the oldest — the first to expire — are at
 * the front: expired ones are swept from there, and when the map is full the oldest is dropped.
 * Nobody can empty it at once by filling it; a flood only shortens the oldest counts.
 */
class WindowCounts {
  private readonly entries = new Map<string, { count: number; since: number }>();
  constructor(
    private readonly windowMs: number,
    private readonly max: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  count(key: string, now: number): number {
    const entry = this.entries.get(key);
    return entry && now - entry.since < this.windowMs ? entry.count : 0;
  }

  add(key: string, now: number): void {
    const entry = this.entries.get(key);
    if (entry && now - entry.since < this.windowMs) {
      entry.count++;
      return;
    }
    this.entries.delete(key);
    for (const [oldest, { since }] of this.entries) {
      if (now - since < this.windowMs && this.entries.size < this.max) break;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { count: 1, since: now });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}

/**
 * Who is refused a device CONNECT without a check, after failed ones (decision 0030, modelled on
 * the console's sign-in lockout, decision 0016). Failures are counted by source address: per
 * device ID from that address, and across IDs. A stranger's failures lock out only the
 * stranger's address, never the device connecting with its secret from elsewhere. Per ID alone
 * there is only a loose cap, which never refuses an address that has not failed. Without a
 * known address (a broker that does not send it) nothing is locked: the broker's own address
 * would stand for every device.
 */
export class ConnectLockout {
  private readonly limits: typeof CONNECT_LOCKOUT;
  private readonly pairs: WindowCounts;
  private readonly addresses: WindowCounts;
  private readonly devices: WindowCounts;

  constructor(limits: Partial<typeof CONNECT_LOCKOUT> = {}) {
    this.limits = { ...CONNECT_LOCKOUT, ...limits };
    const { windowMs, maxEntries } = this.limits;
    this.pairs = new WindowCounts(windowMs, maxEntries);
    this.addresses = new WindowCounts(windowMs, maxEntries);
    this.devices = new WindowCounts(windowMs, maxEntries);
  }

  /** Entries held, all tables together. */
  get size(): number {
    return this.pairs.size + this.addresses.size + this.devices.size;
  }

  /** Whether a CONNECT of the ID from the address is refused before its secret is checked. */
  refuses(source: string | undefined, deviceId: string, now: number): boolean {
    const address = sourceKey(source);
    if (address === undefined) return false;
    if (this.addresses.count(address, now) >= this.limits.perAddress) return true;
    const pair = this.pairs.count(pairKey(address, deviceId), now);
    return pair >= (this.besieged(deviceId, now) ? 1 : this.limits.perPair);
  }

  failed(source: string | undefined, deviceId: string, now: number): void {
    this.devices.add(deviceId, now);
    const address = sourceKey(source);
    if (address === undefined) return;
    this.addresses.add(address, now);
    this.pairs.add(pairKey(address, deviceId), now);
  }

  /** The device is in: its failures from that address are forgotten (the address's stay). */
  succeeded(source: string | undefined, deviceId: string): void {
    const address = sourceKey(source);
    if (address !== undefined) this.pairs.delete(pairKey(address, deviceId));
  }

  /** Whether the ID failed so often, from everywhere, that every failing address gets one try. */
  besieged(deviceId: string, now: number): boolean {
    return this.devices.count(deviceId, now) >= this.limits.perDevice;
  }
}

const pairKey = (address: string, deviceId: string) => `${address}\u0000${deviceId}`;
