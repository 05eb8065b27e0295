import { sourceKey } from './source-address.ts';

export const PENDING_LIMITS = {
  /**
   * Connections from one address not yet authenticated. A care home's devices behind one NAT
   * all reconnect after a restart, and the broker accepts them faster than the secret checks
   * (about 10 ms of scrypt each, on four threads) finish: 128 waiting covers a wing's burst, the
   * rest retry. Each holds at most a CONNECT, so 128 cost little memory.
   */
  perAddress: 128,
  /** Not yet authenticated, from everywhere: each holds at most a CONNECT and one read. */
  overall: 1_000,
};

/**
 * Counts the embedded broker's connections that have not authenticated yet, per source address
 * (an IPv6 /64 as one) and overall, so a flood of idle or slow connections is closed at once
 * instead of each holding memory until the connect timeout. Entries leave with their last
 * connection: the map never holds more than `overall` addresses.
 */
export class PendingConnections {
  private readonly byAddress = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits = PENDING_LIMITS) {}

  /**
   * Takes a new connection if within the caps; the caller must `release` it exactly once, with
   * the same address. Without a known address (a trusted proxy's) only the overall cap applies.
   */
  admit(address: string | undefined): boolean {
    if (this.total >= this.limits.overall) return false;
    const key = sourceKey(address);
    if (key !== undefined) {
      const count = this.byAddress.get(key) ?? 0;
      if (count >= this.limits.perAddress) return false;
      this.byAddress.set(key, count + 1);
    }
    this.total++;
    return true;
  }

  /** The connection authenticated or closed. */
  release(address: string | undefined): void {
    const key = sourceKey(address);
    if (key !== undefined) {
      const count = this.byAddress.get(key) ?? 0;
      if (count <= 1) this.byAddress.delete(key);
      else this.byAddress.set(key, count - 1);
    }
    this.total = Math.max(0, this.total - 1);
  }

  get pending(): number {
    return this.total;
  }
}
