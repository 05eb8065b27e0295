import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../test/until.ts';
import type { DeviceVitals } from './vitals-hub.ts';
import { RedisVitalsRelay } from './vitals-relay.ts';

const url = process.env.REDIS_URL;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A hub as the relay sees it: what this instance heard, and what it was given. */
const fakeHub = () => {
  const hub = {
    heard: [] as DeviceVitals[],
    merged: [] as DeviceVitals[],
    takeChangedHere: () => hub.heard.splice(0),
    merge: (rows: readonly DeviceVitals[]) => void hub.merged.push(...rows),
  };
  return hub;
};

describe.skipIf(!url)(`vitals between instances over Redis${url ? '' : ' — skipped: REDIS_URL is not set'}`, () => {
  const a = fakeHub();
  const b = fakeHub();
  // No timer of their own (an hour): the test flushes.
  const relayA = new RedisVitalsRelay(url ?? '', a, quiet, 3_600_000);
  const relayB = new RedisVitalsRelay(url ?? '', b, quiet, 3_600_000);

  beforeAll(() => Promise.all([relayA.start(), relayB.start()]));
  afterAll(() => Promise.all([relayA.stop(), relayB.stop()]));

  it('publishes what one instance heard as one message, merged by the others and not echoed back', async () => {
    const deviceId = `RELAY-${Date.now()}`;
    const at = Date.now();
    a.heard.push(
      { deviceId, online: true, at, sample: { heartRate: 61, breathRate: 14, inBed: true, move: 0, receivedAt: at } },
      { deviceId: `${deviceId}-2`, online: false, at, sample: null },
    );
    relayA.flush();
    // Nothing heard since: no message.
    relayA.flush();
    await until(() => b.merged.some((r) => r.deviceId === deviceId), { what: 'the vitals on B' });
    expect(b.merged.filter((r) => r.deviceId.startsWith(deviceId))).toEqual([
      { deviceId, online: true, at, sample: { heartRate: 61, breathRate: 14, inBed: true, move: 0, receivedAt: at } },
      { deviceId: `${deviceId}-2`, online: false, at, sample: null },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(a.merged.filter((r) => r.deviceId.startsWith(deviceId))).toEqual([]);
    expect(relayA.counts.sent).toBe(1);
  });
});
