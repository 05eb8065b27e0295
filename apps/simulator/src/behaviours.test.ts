import { describe, expect, it } from 'vitest';
import { parseDeviceMessage } from '@vigil/contract';
import { WatchBehaviour, createBehaviour, type BehaviourEnv, type Out } from './behaviours.ts';
import { parseDeviceCounts, planFleet } from './catalogue.ts';
import { stampMessage } from './device.ts';
import { DEFAULT_SITE } from './fleet.ts';
import { Rng } from './random.ts';

const START = new Date(2026, 2, 1, 12, 0).getTime();
const MINUTE = 60_000;

const aWatch = (seed = 'watch'): WatchBehaviour => {
  const [plan] = planFleet(parseDeviceCounts('watch=1'), 'T').devices;
  if (!plan) throw new Error('a watch');
  const env: BehaviourEnv = { start: START, eventRate: 0, residents: [], site: DEFAULT_SITE, rri: false };
  const watch = createBehaviour(plan, new Rng(seed), env);
  if (!(watch instanceof WatchBehaviour)) throw new Error('a watch behaviour');
  return watch;
};

/** The devices the watch releases events name ('' for a bare release). */
const releases = (outs: Out[]): string[] =>
  outs.flatMap((o) => (o.kind === 'event' && o.body.event === 'watch_release' ? [o.body.deviceId ?? ''] : []));

describe('a nurse watch', () => {
  it('releases the alarms it was shown by the device that called, the latest first; with none shown, a bare release', () => {
    const watch = aWatch();
    watch.tick(START);
    watch.alarmRaised(START, 'T-BTN-0001');
    watch.alarmRaised(START, 'T-RDR-0001');
    const [named] = watch.trigger('watch_release', START);
    expect(named).toEqual({ kind: 'event', body: { event: 'watch_release', deviceId: 'T-RDR-0001' } });
    // As the server reads it.
    const { topic, payload } = stampMessage('T-WCH-0001', 'event', named?.body ?? {}, START / 1000, 1);
    expect(parseDeviceMessage(topic, new TextEncoder().encode(JSON.stringify(payload)), START / 1000)).toMatchObject({
      ok: true,
      message: { body: { event: 'watch_release', deviceId: 'T-RDR-0001' } },
    });
    expect(releases(watch.trigger('watch_release', START))).toEqual(['T-BTN-0001']);
    // Nothing on the screen: the watch's own, as the first watches send it.
    expect(watch.trigger('watch_release', START)).toEqual([{ kind: 'event', body: { event: 'watch_release' } }]);
  });

  it('the nurse releases some alarms at the watch minutes later, each once, naming its device', () => {
    const watch = aWatch();
    watch.tick(START);
    const callers = Array.from({ length: 8 }, (_, i) => `T-BTN-${String(i + 1).padStart(4, '0')}`);
    for (const id of callers) watch.alarmRaised(START, id);
    const released: string[] = [];
    for (let now = START + MINUTE / 2; now <= START + 5 * MINUTE; now += MINUTE / 2) {
      const named = releases(watch.tick(now));
      // Not before a minute: she has to get there.
      if (now < START + MINUTE) expect(named).toEqual([]);
      released.push(...named);
    }
    expect(released.length).toBeGreaterThan(0);
    expect(released.length).toBeLessThan(callers.length);
    expect(new Set(released).size).toBe(released.length);
    for (const id of released) expect(callers).toContain(id);
    // Those she released are off the screen: pressing release now names one still shown.
    const [next] = releases(watch.trigger('watch_release', START + 5 * MINUTE));
    expect(callers.filter((id) => !released.includes(id))).toContain(next);
  });
});
