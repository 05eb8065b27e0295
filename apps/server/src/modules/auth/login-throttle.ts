import type { Clock } from '../../clock.ts';

/**
 * Per-address limit on login attempts (sliding one-minute window). In memory: each
 * instance limits on its own; the per-account lockout in the database is the shared guard.
 */
export class LoginThrottle {
  private readonly hits = new Map<string, number[]>();
  constructor(
    private readonly perMinute: number,
    private readonly clock: Clock,
  ) {}

  /** Records an attempt; returns seconds to wait when over the limit, else 0. */
  attempt(ip: string): number {
    const now = this.clock.now().getTime();
    const windowStart = now - 60_000;
    const recent = (this.hits.get(ip) ?? []).filter((t) => t > windowStart);
    if (recent.length >= this.perMinute) {
      this.hits.set(ip, recent);
      return Math.max(1, Math.ceil(((recent[0] ?? now) + 60_000 - now) / 1000));
    }
    recent.push(now);
    this.hits.set(ip, recent);
    if (this.hits.size > 10_000) this.sweep(windowStart);
    return 0;
  }

  private sweep(windowStart: number): void {
    for (const [ip, times] of this.hits) if (!times.some((t) => t > windowStart)) this.hits.delete(ip);
  }
}
