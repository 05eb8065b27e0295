import { describe, expect, it } from 'vitest';
import { CONNECT_LOCKOUT, ConnectLockout } from './connect-lockout.ts';

const { perPair, perAddress, perDevice, windowMs } = CONNECT_LOCKOUT;
const T0 = 1_000_000;

/** `n` counted failures of an ID from an address, as the gate records them (refused ones are not counted). */
const fail = (lockout: ConnectLockout, source: string | undefined, deviceId: string, n: number, now = T0) => {
  for (let i = 0; i < n; i++) if (!lockout.refuses(source, deviceId, now)) lockout.failed(source, deviceId, now);
};

describe('the device connect lockout (by address, decision 0030)', () => {
  it('locks an ID out of the address its failures came from, never out of another address', () => {
    const lockout = new ConnectLockout();
    fail(lockout, '203.0.113.9', 'SLP-0001', 100);
    expect(lockout.refuses('203.0.113.9', 'SLP-0001', T0)).toBe(true);
    // The device itself, elsewhere, is checked as usual: the stranger cannot lock it out.
    expect(lockout.refuses('198.51.100.7', 'SLP-0001', T0)).toBe(false);
    // Other IDs from the stranger's address are not locked by these few failures.
    expect(lockout.refuses('203.0.113.9', 'SLP-0002', T0)).toBe(false);
  });

  it('locks the pair after five failures within the window, and lifts it when the window ends', () => {
    const lockout = new ConnectLockout();
    fail(lockout, '203.0.113.9', 'SLP-0001', perPair - 1);
    expect(lockout.refuses('203.0.113.9', 'SLP-0001', T0)).toBe(false);
    fail(lockout, '203.0.113.9', 'SLP-0001', 1);
    expect(lockout.refuses('203.0.113.9', 'SLP-0001', T0)).toBe(true);
    expect(lockout.refuses('203.0.113.9', 'SLP-0001', T0 + windowMs)).toBe(false);
  });

  it('locks an address out of every ID after fifty failures across IDs', () => {
    const lockout = new ConnectLockout();
    for (let i = 0; i < perAddress; i++) fail(lockout, '203.0.113.9', `GUESS-${i}`, 1);
    expect(lockout.refuses('203.0.113.9', 'SLP-0001', T0)).toBe(true);
    expect(lockout.refuses('198.51.100.7', 'SLP-0001', T0)).toBe(false);
  });

  it('a success clears the pair’s failures but not the address’s', () => {
    const lockout = new ConnectLockout();
    fail(lockout, '203.0.113.9', 'SLP-0001', perPair - 1);
    lockout.succeeded('203.0.113.9', 'SLP-0001');
    fail(lockout, '203.0.113.9', 'SLP-0001', perPair - 1);
    expect(lockout.refuses('203.0.113.9', 'SLP-0001', T0)).toBe(false);
    // An attacker owning one device cannot reset the count of their guesses at others with it.
    for (let i = 0; i < perAddress; i++) {
      fail(lockout, '203.0.113.9', `GUESS-${i}`, 1);
      lockout.succeeded('203.0.113.9', 'OWN-1');
    }
    expect(lockout.refuses('203.0.113.9', 'OWN-1', T0)).toBe(true);
  });

  it('an ID attacked from many addresses is never locked for an address without failures; each attacker gets one guess', () => {
    const lockout = new ConnectLockout();
    for (let a = 0; a < perDevice; a++) fail(lockout, `10.0.${a >> 8}.${a & 255}`, 'SLP-0001', 1);
    expect(lockout.besieged('SLP-0001', T0)).toBe(true);
    expect(lockout.refuses('198.51.100.7', 'SLP-0001', T0)).toBe(false);
    // Once the ID is besieged, an address is locked for it at its first failure.
    fail(lockout, '10.9.9.9', 'SLP-0001', 1);
    expect(lockout.refuses('10.9.9.9', 'SLP-0001', T0)).toBe(true);
    expect(lockout.refuses('10.9.9.9', 'SLP-0002', T0)).toBe(false);
  });

  it('without a known address (a broker that does not send it) nothing is ever locked', () => {
    const lockout = new ConnectLockout();
    fail(lockout, undefined, 'SLP-0001', 10 * perDevice);
    expect(lockout.refuses(undefined, 'SLP-0001', T0)).toBe(false);
    expect(lockout.besieged('SLP-0001', T0)).toBe(true);
  });

  it('counts an IPv6 /64 as one address and an IPv4-mapped address as its IPv4 one', () => {
    const lockout = new ConnectLockout();
    for (let i = 0; i < perPair; i++) fail(lockout, `2001:db8:1:2::${i + 1}`, 'SLP-0001', 1);
    expect(lockout.refuses('2001:db8:1:2:ffff::9', 'SLP-0001', T0)).toBe(true);
    expect(lockout.refuses('2001:db8:1:3::1', 'SLP-0001', T0)).toBe(false);
    fail(lockout, '::ffff:203.0.113.9', 'SLP-0001', perPair);
    expect(lockout.refuses('203.0.113.9', 'SLP-0001', T0)).toBe(true);
  });

  it('keeps memory bounded by forgetting the oldest counts first, never everything at once', () => {
    const lockout = new ConnectLockout({ maxEntries: 100 });
    fail(lockout, '203.0.113.1', 'OLD-1', perPair);
    // A lock taken in the middle of a flood of other failures survives the flood.
    for (let i = 0; i < 60; i++) fail(lockout, `10.1.${i >> 8}.${i & 255}`, `FLOOD-${i}`, 1, T0 + 1);
    fail(lockout, '203.0.113.2', 'MID-1', perPair, T0 + 2);
    for (let i = 60; i < 150; i++) fail(lockout, `10.1.${i >> 8}.${i & 255}`, `FLOOD-${i}`, 1, T0 + 3);
    expect(lockout.refuses('203.0.113.2', 'MID-1', T0 + 3)).toBe(true);
    expect(lockout.size).toBeLessThanOrEqual(3 * 100);
    // The oldest went first.
    expect(lockout.refuses('203.0.113.1', 'OLD-1', T0 + 3)).toBe(false);
  });
});
