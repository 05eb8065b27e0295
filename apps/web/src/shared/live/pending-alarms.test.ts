import type { AlarmRecord } from '@vigil/contract/browser';
import { describe, expect, it } from 'vitest';
import { PendingAlarms } from './pending-alarms.ts';

const record = (id: number, timeStamp: number) => ({ id, timeStamp }) as AlarmRecord;
const memory = () => {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    items,
  };
};

describe('PendingAlarms', () => {
  it('keeps a provider’s pending alarms newest first under pendingAlarms_<provider>, across a reload', () => {
    const storage = memory();
    const store = new PendingAlarms(7, storage);
    expect(store.add(record(1, 100))).toBe(true);
    expect(store.add(record(2, 200))).toBe(true);
    expect(store.add(record(1, 100))).toBe(false);
    expect(store.list().map((a) => a.id)).toEqual([2, 1]);
    expect([...storage.items.keys()]).toEqual(['pendingAlarms_7']);
    expect(new PendingAlarms(7, storage).list().map((a) => a.id)).toEqual([2, 1]);
    expect(new PendingAlarms(8, storage).list()).toEqual([]);
  });

  it('releases one, and takes the server’s list whole on a pending check', () => {
    const store = new PendingAlarms(7, memory());
    store.add(record(1, 100));
    store.add(record(2, 200));
    let changes = 0;
    store.subscribe(() => changes++);
    expect(store.release(1)).toBe(true);
    expect(store.release(1)).toBe(false);
    store.replace([record(5, 50), record(6, 60)]);
    expect(store.list().map((a) => a.id)).toEqual([6, 5]);
    expect(changes).toBe(2);
  });
});
