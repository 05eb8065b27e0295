/** The few log calls background parts make; the server's pino logger fits it. */
export interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * A log whose target is attached later: services are built before the HTTP server that owns
 * the logger. Until then (and in tests that attach none) lines are dropped.
 */
export class LateLog implements Log {
  private target: Log | undefined;
  attach(target: Log): void {
    this.target = target;
  }
  info(obj: object, msg: string): void {
    this.target?.info(obj, msg);
  }
  warn(obj: object, msg: string): void {
    this.target?.warn(obj, msg);
  }
  error(obj: object, msg: string): void {
    this.target?.error(obj, msg);
  }
}

/**
 * At most one line per key and period, with how many were held back: a flood of bad messages
 * from one device must not become a flood of log lines.
 */
export class RateLimitedLog {
  private readonly last = new Map<string, { at: number; suppressed: number }>();
  constructor(
    private readonly log: Log,
    private readonly periodMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  warn(key: string, obj: object, msg: string): void {
    const now = this.now();
    const entry = this.last.get(key);
    if (entry && now - entry.at < this.periodMs) {
      entry.suppressed++;
      return;
    }
    if (this.last.size > 10_000) this.last.clear();
    this.last.set(key, { at: now, suppressed: 0 });
    this.log.warn(entry?.suppressed ? { ...obj, suppressed: entry.suppressed } : obj, msg);
  }
}
