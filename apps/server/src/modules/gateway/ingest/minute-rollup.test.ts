import { describe, expect, it } from 'vitest';
import type { Telemetry } from '@vigil/contract';
import type { DeviceContext } from './device-directory.ts';
import { MinuteRollup } from './minute-rollup.ts';

const ctx = (uploadData = false): DeviceContext => ({
  deviceId: 'SM-1',
  typeCode: 1,
  deviceRowId: 1,
  providerId: 2,
  bedId: 3,
  residentId: 4,
  uploadData,
  reportInterval: null,
  gatewayDeviceId: null,
  roomId: null,
  areaId: null,
  caregiverId: null,
});
const T0 = 1_795_000_020; // a minute start (divisible by 60)
const sample = (s: number, patch: Partial<Telemetry> = {}): Telemetry => ({
  ts: T0 + s,
  seq: s,
  hr: 60,
  rr: 14,
  inBed: true,
  asleep: true,
  move: 0,
  ...patch,
});

describe('MinuteRollup', () => {
  it('sums a minute of samples: measured vitals only, seconds in bed and asleep, movement, beats', () => {
    const r = new MinuteRollup(0);
    r.add(ctx(), sample(0, { hr: 50, rri: [1200] }));
    r.add(ctx(), sample(1, { hr: 70, rr: 0, move: 40 }));
    r.add(ctx(), sample(2, { hr: 0, rr: 16, asleep: false, rri: [900, 950] }));
    r.add(ctx(), sample(4, { inBed: false, asleep: false, hr: 0, rr: 0 }));
    expect(r.takeClosed((T0 + 59) * 1000)).toEqual([]);
    const [m] = r.takeClosed((T0 + 60) * 1000);
    expect(m).toMatchObject({
      deviceId: 'SM-1',
      minute: T0 * 1000,
      providerId: 2,
      residentId: 4,
      samples: 4,
      hrSamples: 2,
      hrMin: 50,
      hrMax: 70,
      hrSum: 120,
      rrSamples: 2,
      rrMin: 14,
      rrMax: 16,
      inBedSeconds: 3,
      asleepSeconds: 2,
      moveSum: 40,
      moveMax: 40,
      rri: [1200, 900, 950],
      raw: null,
    });
    expect(r.size).toBe(0);
  });

  it('splits samples by the device clock minute and keeps raw columns when upload is on', () => {
    const r = new MinuteRollup(0);
    r.add(ctx(true), sample(59.5, { hr: 61 }));
    r.add(ctx(true), sample(60.5, { hr: 62 }));
    const closed = r.takeAll().sort((a, b) => a.minute - b.minute);
    expect(closed.map((m) => [m.minute / 1000 - T0, m.samples])).toEqual([
      [0, 1],
      [60, 1],
    ]);
    expect(closed[0]?.raw).toEqual({ t: [59_500], hr: [61], rr: [14], inBed: [1], asleep: [1], move: [0], rri: [[]] });
  });

  it('caps the time a sample covers after a long silence', () => {
    const r = new MinuteRollup(0);
    r.add(ctx(), sample(0));
    r.add(ctx(), sample(40));
    const [m] = r.takeAll();
    expect(m?.inBedSeconds).toBe(2);
  });
});
