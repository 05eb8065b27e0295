import type { ProviderScope } from '../../core/caller.ts';

export interface ScopeCacheOptions {
  /** How long a session's scope is reused (wall time). */
  ttlMs?: number;
  /** Sessions kept at most; the oldest go first. */
  maxEntries?: number;
  now?: () => number;
}

/**
 * A session's provider scope, reused for a few seconds instead of read on every request (the
 * provider subtree, the data-permission list). The session row itself is still read on every
 * request, so logout, password changes and disabled accounts take effect at once. A scope
 * changes when providers are created or deleted: this instance clears the cache then; another
 * instance sees the change within `ttlMs`.
 */
export class ScopeCache {
  private readonly entries = new Map<string, { scope: ProviderScope; at: number }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: ScopeCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 5_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? (() => performance.now());
  }

  async get(key: string, compute: () => Promise<ProviderScope>): Promise<ProviderScope> {
    const hit = this.entries.get(key);
    const now = this.now();
    if (hit && now - hit.at < this.ttlMs) return hit.scope;
    const generation = this.generation;
    const scope = await compute();
    // Computed before a clear that came meanwhile: answered, but not kept.
    if (generation === this.generation) {
      this.entries.delete(key);
      this.entries.set(key, { scope, at: now });
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    }
    return scope;
  }

  /** Providers were added or removed: every scope is read again. */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private generation = 0;
}
