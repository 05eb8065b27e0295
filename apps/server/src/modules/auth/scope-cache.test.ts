import { describe, expect, it } from 'vitest';
import type { ProviderScope } from '../../core/caller.ts';
import { ScopeCache } from './scope-cache.ts';

const scope = (...ids: number[]): ProviderScope => ({ all: false, ids });

describe('ScopeCache', () => {
  it('reuses a scope within its time, reads it again after', async () => {
    let now = 0;
    const cache = new ScopeCache({ ttlMs: 5_000, now: () => now });
    let reads = 0;
    const read = async () => scope(++reads);
    expect(await cache.get('s1', read)).toEqual(scope(1));
    now = 4_999;
    expect(await cache.get('s1', read)).toEqual(scope(1));
    now = 5_000;
    expect(await cache.get('s1', read)).toEqual(scope(2));
    expect(reads).toBe(2);
  });

  it('a clear drops every scope, and one computed across a clear is not kept', async () => {
    const cache = new ScopeCache();
    await cache.get('s1', async () => scope(1));
    cache.clear();
    expect(cache.size).toBe(0);
    let release: () => void = () => undefined;
    const slow = cache.get('s2', () => new Promise((resolve) => (release = () => resolve(scope(2)))));
    cache.clear();
    release();
    expect(await slow).toEqual(scope(2));
    expect(cache.size).toBe(0);
  });

  it('keeps at most its number of sessions, dropping the oldest', async () => {
    const cache = new ScopeCache({ maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => scope(1));
    expect(cache.size).toBe(2);
    let read = false;
    await cache.get('a', async () => ((read = true), scope(1)));
    expect(read).toBe(true);
  });
});
