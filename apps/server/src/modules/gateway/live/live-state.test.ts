import { describe, expect, it } from 'vitest';
import { LiveStateStore } from './live-state.ts';

const at = (s: number) => new Date(Date.UTC(2026, 10, 25, 3, 0, s));

describe('live device state in memory', () => {
  it('merges what each message tells, keeping what it does not', () => {
    const store = new LiveStateStore();
    store.apply('SLP-1', { online: true, battery: 80, firmwareVersion: '2.1' }, at(0));
    const state = store.apply('SLP-1', { signal: -70, mat: 'dislodged' }, at(5));
    expect(state).toEqual({
      online: true,
      lastSeenAt: at(5),
      battery: 80,
      signal: -70,
      firmwareVersion: '2.1',
      hardwareVersion: null,
      mat: 'dislodged',
    });
  });

  it('never moves last seen backwards for a late message', () => {
    const store = new LiveStateStore();
    store.apply('SLP-1', { online: true }, at(10));
    expect(store.apply('SLP-1', { battery: 50 }, at(3)).lastSeenAt).toEqual(at(10));
  });

  it('writes a change at once but "last seen" alone only every 30 s', () => {
    const store = new LiveStateStore();
    store.apply('SLP-1', { online: true, battery: 80 }, at(0));
    expect(store.takeDirty(10).entries).toHaveLength(1);
    // Seen again and again with nothing new: nothing to write until 30 s have passed.
    for (let s = 1; s < 30; s++) store.apply('SLP-1', { online: true, battery: 80 }, at(s));
    expect(store.dirtyCount).toBe(0);
    store.apply('SLP-1', { online: true }, at(30));
    expect(store.takeDirty(10).entries.map(([, state]) => state.lastSeenAt)).toEqual([at(30)]);
    // Any other change is written at the next flush.
    store.apply('SLP-1', { battery: 79 }, at(31));
    expect(store.dirtyCount).toBe(1);
    store.takeDirty(10);
    store.apply('SLP-1', { online: false }, at(32));
    expect(store.dirtyCount).toBe(1);
  });

  it('keeps one dirty entry per device however many messages arrive', () => {
    const store = new LiveStateStore();
    for (let i = 0; i < 10_000; i++) store.apply(`SLP-${i % 100}`, { battery: i % 100 }, at(i % 60));
    expect(store.dirtyCount).toBe(100);
    const batch = store.takeDirty(30);
    expect(batch.entries).toHaveLength(30);
    expect(store.dirtyCount).toBe(70);
    batch.putBack();
    expect(store.dirtyCount).toBe(100);
    store.load([['SLP-X', { ...store.get('SLP-1')!, online: false }]]);
    expect(store.dirtyCount).toBe(100);
  });
});
