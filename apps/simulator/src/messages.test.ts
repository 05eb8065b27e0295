import { describe, expect, it } from 'vitest';
import { DEVICE_EVENT_NAMES, DEVICE_TYPES, parseDeviceMessage, type DeviceTopic } from '@vigil/contract';
import { createBehaviour, type Behaviour, type BehaviourEnv, type Out } from './behaviours.ts';
import { KINDS, parseDeviceCounts, planFleet } from './catalogue.ts';
import { DEFAULT_SITE } from './fleet.ts';
import { stampMessage, willMessage } from './device.ts';
import { Rng } from './random.ts';
import { Resident } from './signals/resident.ts';

/**
 * Everything the generators produce must pass the contract's parser, the one the server runs:
 * the payload schemas, topics, ts and seq rules.
 */

const START = new Date(2026, 2, 1, 12, 0).getTime();

const setup = (eventRate: number, devices = 'all=1') => {
  const plan = planFleet(parseDeviceCounts(devices), 'T');
  const rng = new Rng('messages');
  const residents = Array.from({ length: plan.rooms }, (_, i) => new Resident(rng.derive(`resident:${i}`)));
  const env: BehaviourEnv = { start: START, eventRate, residents, site: DEFAULT_SITE, rri: true };
  const behaviours = plan.devices.map((d) => createBehaviour(d, rng, env));
  return { plan, behaviours };
};

/** Stamps and parses one message as the server would, at the message's own time. */
const check = (deviceId: string, kind: DeviceTopic, body: Record<string, unknown>, ts: number, seq?: number) => {
  const { topic, payload } = stampMessage(deviceId, kind, body, ts, seq);
  const result = parseDeviceMessage(topic, new TextEncoder().encode(JSON.stringify(payload)), ts);
  if (!result.ok)
    throw new Error(`${topic} ${JSON.stringify(payload)} refused: ${result.reason} ${result.detail ?? ''}`);
  return result.message;
};

const checkOuts = (b: Behaviour, outs: Out[], ts: number, seq: { n: number }, seen: Set<string>) => {
  for (const out of outs) {
    const message = check(b.plan.id, out.kind, out.body, ts, seq.n++);
    seen.add(`${b.plan.kind}:${message.kind === 'event' ? message.body.event : message.kind}`);
  }
};

describe('generated messages', () => {
  it('names only events of the contract, and covers every type of the catalogue', () => {
    for (const k of KINDS) for (const e of k.events) expect(DEVICE_EVENT_NAMES).toContain(e);
    const kinds = new Set(KINDS.map((k) => k.kind));
    for (const t of DEVICE_TYPES) expect(kinds.has(t.kind)).toBe(true);
  });

  it('all parse with the contract parser over two simulated days', () => {
    const { behaviours } = setup(30, 'all=1,button=1,badge=1,radar=1');
    const seq = { n: 0 };
    const seen = new Set<string>();
    const step = 60_000;
    for (let now = START + step; now <= START + 2 * 86_400_000; now += step) {
      const ts = now / 1000;
      for (const b of behaviours) {
        checkOuts(b, b.tick(now), ts, seq, seen);
        const report = b.report(now);
        if (report) checkOuts(b, report, ts, seq, seen);
      }
    }
    // What each kind reports on its own, given time (rare events are sped up by the event rate;
    // alarms of the smoke, gas, CO and flood sensors stay too rare: the next test triggers them).
    for (const expected of [
      'sleep_monitor:telemetry',
      'fall_radar:presence',
      'fall_radar:fall_suspected',
      'fall_radar:sitting_up_suspected',
      'emergency_button:sos',
      'door_magnet:door',
      'infrared_motion:motion',
      'badge:position',
      'badge:badge_sos',
      'nurse_watch:position',
    ]) {
      expect(seen).toContain(expected);
    }
    expect([...seen].some((s) => s.endsWith(':low_battery'))).toBe(true);
    expect(seq.n).toBeGreaterThan(5_000);
  });

  it('every event a kind can be made to send parses, and so do status, acks and the will', () => {
    const { behaviours } = setup(1, 'all=2');
    const now = START + 3_600_000;
    const ts = now / 1000;
    let seq = 1;
    for (const b of behaviours) {
      b.tick(now);
      for (const event of b.info.events) {
        const outs = b.trigger(event, now);
        for (const out of outs) check(b.plan.id, out.kind, out.body, ts, seq++);
        // Follow-ups (a cleared alarm, a closed door, a cancelled call) parse too.
        for (const out of b.tick(now + 3_600_000)) check(b.plan.id, out.kind, out.body, ts + 3600, seq++);
      }
      const status = check(b.plan.id, 'status', { online: true, ...b.status() }, ts, seq++);
      expect(status.kind).toBe('status');
      if (b.info.battery) expect(status.body).toHaveProperty('battery');
      const will = willMessage(b.plan.id, ts);
      expect(check(b.plan.id, 'status', { online: false }, ts).body).toEqual(will.payload);
      check(b.plan.id, 'ack', { id: 7, ok: true }, ts, seq++);
      check(b.plan.id, 'ack', { id: 8, ok: false, error: 'interval must be an integer 1-254' }, ts, seq++);
    }
  });

  it('triggering an event a kind does not send is refused', () => {
    const { behaviours } = setup(1);
    const door = behaviours.find((b) => b.plan.kind === 'door_magnet') as Behaviour;
    expect(() => door.trigger('fall', START)).toThrow(/does not send fall/);
  });
});
