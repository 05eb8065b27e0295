import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultProxy } from '../test/fault-proxy.ts';
import { until } from '../test/until.ts';
import { RedisEventRelay } from './event-relay.ts';
import { EventStream, type PublishedEvent } from './events.ts';

const url = process.env.REDIS_URL;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
/** The run's tag, carried where each event's payload can hold a string. */
const tagOf = (e: PublishedEvent): string | undefined =>
  e.type === 'device.contextChanged'
    ? e.payload.deviceIds[0]
    : e.type === 'branding.changed'
      ? e.payload.platformName
      : undefined;

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
      a.subscribeAll((e) => heardA.push(e));
      b.subscribeAll((e) => heardB.push(e));
    });
    afterAll(() => Promise.all([relayA.stop(), relayB.stop()]));

    it('an event committed on one instance is published once on the other, in order, with its origin', async () => {
      const at = new Date('2026-11-26T03:00:00.123Z');
      const tag = `t${Date.now()}`;
      a.publish([
        { id: 1, at, type: 'device.contextChanged', providerId: 7, payload: { deviceIds: [tag, 'A'] } },
        { id: 2, at, type: 'branding.changed', providerId: 7, payload: { platformName: tag } },
      ]);
      const ofRun = (events: PublishedEvent[]) => events.filter((e) => tagOf(e) === tag);
      await until(() => ofRun(heardB).length === 2, { what: 'both events on B' });
      expect(ofRun(heardB).map((e) => [e.type, e.id, e.at.toISOString(), e.providerId, e.origin])).toEqual([
        ['device.contextChanged', 1, at.toISOString(), 7, relayA.instanceId],
        ['branding.changed', 2, at.toISOString(), 7, relayA.instanceId],
      ]);
      // Not echoed back to A, and B does not send on what it received.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(ofRun(heardA)).toHaveLength(2);
      expect(ofRun(heardA).every((e) => e.origin === undefined)).toBe(true);
      expect(relayB.counts.sent).toBe(0);
    });

    it('a transient event reaches the other instance, and an event this version does not know is dropped', async () => {
      const follows: number[][] = [];
      const stop = b.listen('monitor.sessionFollows', (e) => follows.push(e.payload.userIds));
      try {
        const sessionId = Date.now();
        a.announce({ type: 'monitor.sessionFollows', payload: { sessionId, userIds: [3, 4] } });
        await until(() => follows.length === 1, { what: 'the follows on B' });
        expect(follows).toEqual([[3, 4]]);
        const received = relayB.counts.received;
        // What a newer instance may send: B publishes nothing of it.
        const unknown = { id: 3, at: new Date(), type: 'alarm.unheardOf', providerId: 7, payload: {} };
        a.publish([unknown as unknown as PublishedEvent]);
        a.publish([{ id: 4, at: new Date(), type: 'branding.changed', providerId: 7, payload: { platformName: 'x' } }]);
        await until(() => relayB.counts.received === received + 1, { what: 'the known event on B' });
        expect(heardB.some((e) => (e.type as string) === 'alarm.unheardOf')).toBe(false);
      } finally {
        stop();
      }
    });

    it('after a Redis outage, tells this instance and the others that events may have been missed', async () => {
      const proxy = await FaultProxy.to(url ?? '');
      const c = new EventStream();
      const relayC = new RedisEventRelay(FaultProxy.via(url ?? '', proxy), c, quiet);
      await relayC.start();
      const gapsC: number[] = [];
      const gapsB: number[] = [];
      relayC.onGap(() => gapsC.push(Date.now()));
      const stopB = relayB.onGap(() => gapsB.push(Date.now()));
      try {
        expect(relayC.up).toBe(true);
        await proxy.down();
        await until(() => !relayC.up, { what: 'the relay down' });
        // Raised on B meanwhile: C never hears of it.
        const tag = `gap${Date.now()}`;
        const heardC: PublishedEvent[] = [];
        c.subscribeAll((e) => heardC.push(e));
        b.publish([{ id: 9, at: new Date(), type: 'branding.changed', providerId: 7, payload: { platformName: tag } }]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(gapsC).toEqual([]);

        await proxy.up();
        await until(() => relayC.up && gapsC.length === 1, { timeoutMs: 10_000, what: 'the gap on C' });
        await until(() => gapsB.length === 1, { what: 'the gap notice on B' });
        expect(heardC.filter((e) => tagOf(e) === tag)).toEqual([]);
        expect(relayC.counts.gaps).toBe(1);
        const metrics = await relayC.registry.metrics();
        expect(metrics).toContain('vigil_event_relay_up 1');
        expect(metrics).toContain('vigil_event_relay_gaps_total 1');
      } finally {
        stopB();
        await relayC.stop();
        await proxy.close();
      }
    });
  },
);
