import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../test/until.ts';
import { RedisEventRelay } from './event-relay.ts';
import { EventStream, type PublishedEvent } from './events.ts';

const url = process.env.REDIS_URL;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe.skipIf(!url)(
  `domain events between instances over Redis${url ? '' : ' — skipped: REDIS_URL is not set'}`,
  () => {
    const a = new EventStream();
    const b = new EventStream();
    const relayA = new RedisEventRelay(url ?? '', a, quiet);
    const relayB = new RedisEventRelay(url ?? '', b, quiet);
    const heardA: PublishedEvent[] = [];
    const heardB: PublishedEvent[] = [];

    beforeAll(async () => {
      await Promise.all([relayA.start(), relayB.start()]);
      a.subscribe((e) => heardA.push(e));
      b.subscribe((e) => heardB.push(e));
    });
    afterAll(() => Promise.all([relayA.stop(), relayB.stop()]));

    it('an event committed on one instance is published once on the other, in order, with its origin', async () => {
      const at = new Date('2026-11-26T03:00:00.123Z');
      const tag = `t${Date.now()}`;
      a.publish([
        { id: 1, at, type: 'alarm.raised', providerId: 7, payload: { tag, alarm: { id: 5 } } },
        { id: 2, at, type: 'alarm.released', providerId: 7, payload: { tag, alarm: { id: 5 } } },
      ]);
      const ofRun = (events: PublishedEvent[]) => events.filter((e) => e.payload.tag === tag);
      await until(() => ofRun(heardB).length === 2, { what: 'both events on B' });
      expect(ofRun(heardB).map((e) => [e.type, e.id, e.at.toISOString(), e.providerId, e.origin])).toEqual([
        ['alarm.raised', 1, at.toISOString(), 7, relayA.instanceId],
        ['alarm.released', 2, at.toISOString(), 7, relayA.instanceId],
      ]);
      // Not echoed back to A, and B does not send on what it received.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(ofRun(heardA)).toHaveLength(2);
      expect(ofRun(heardA).every((e) => e.origin === undefined)).toBe(true);
      expect(relayB.counts.sent).toBe(0);
    });
  },
);
