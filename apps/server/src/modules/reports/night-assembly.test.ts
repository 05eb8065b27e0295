import type { Telemetry } from '@vigil/contract';
import { analyseNight, nightSignals, type DeviceSample } from '@vigil/sleep';
import { describe, expect, it } from 'vitest';
import type { DeviceContext } from '../gateway/index.ts';
import { MinuteRollup } from '../gateway/testing.ts';
import { assembleNight } from './night-assembly.ts';

const START = 1_767_304_800; // 22:00 UTC
const HOURS = 9;
const context: DeviceContext = {
  deviceId: 'SM-1',
  typeCode: 49,
  deviceRowId: 1,
  providerId: 1,
  bedId: 1,
  residentId: 1,
  uploadData: false,
  reportInterval: null,
  gatewayDeviceId: null,
  roomId: null,
  areaId: null,
  caregiverId: null,
};

/** A night as a monitor sends it: in bed 22:30–06:30 with a trip 02:00–02:08, asleep from 23:00,
 * a varying rhythm whose beats each message carries (those since the previous message), and a
 * silent stretch (the device offline) 04:00–04:20. */
function messages(): Telemetry[] {
  const out: Telemetry[] = [];
  let seed = 7;
  const noise = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648 - 0.5) * 2;
  let nextBeat = 0;
  let interval = 1000;
  for (let s = 0; s < HOURS * 3600; s++) {
    const inBed = s >= 1800 && s < 30_600 && !(s >= 14_400 && s < 14_880);
    const rri: number[] = [];
    if (inBed) {
      if (nextBeat < s) nextBeat = s;
      while (nextBeat < s + 1) {
        // A slow swing of the rhythm, breathing's arrhythmia and beat-to-beat noise.
        interval = 1000 + 80 * Math.sin(s / 900) + 30 * Math.sin(s / 2.2) + 15 * noise();
        nextBeat += interval / 1000;
        if (nextBeat < s + 1) rri.push(Math.round(interval));
        else {
          rri.push(Math.round(interval));
          break;
        }
      }
    }
    if (s >= 6 * 3600 && s < 6 * 3600 + 1200) continue;
    const hr = inBed ? Math.round(60_000 / interval) : 0;
    out.push({
      ts: START + s + 0.99,
      seq: s,
      hr,
      rr: inBed ? 14 : 0,
      inBed,
      asleep: inBed && s >= 3600,
      move: s % 1500 < 2 ? 40 : 1,
      ...(rri.length ? { rri } : {}),
    });
  }
  return out;
}

describe('a night from its stored minutes', () => {
  it('is the night the device sent: the ingest rollup’s seconds and beats give the same report', () => {
    const sent = messages();
    const rollup = new MinuteRollup();
    for (const t of sent) rollup.add(context, t);
    const stored = rollup.takeAll().map((m) => ({ minute: new Date(m.minute), seconds: m.seconds, rri: m.rri }));
    // Stored minutes come back in any order.
    const fromStore = analyseNight(assembleNight(START, START + HOURS * 3600, stored.reverse()));
    const samples: DeviceSample[] = sent;
    const direct = analyseNight(nightSignals(samples, START, START + HOURS * 3600));

    expect(fromStore.insufficient).toBeNull();
    expect(fromStore.coverage).toBeCloseTo(direct.coverage, 6);
    for (const key of ['bedTime', 'getUpTime', 'sleepOnset', 'wakeTime', 'totalSleep', 'leaveBed', 'heart'] as const) {
      expect(fromStore[key], key).toEqual(direct[key]);
    }
    expect(fromStore.hypnogram).toEqual(direct.hypnogram);
    // Beat times are rebuilt from the intervals, to within a second: the figures agree closely.
    expect(fromStore.hrv).not.toBeNull();
    expect(fromStore.hrv?.rmssd).toBeCloseTo(direct.hrv?.rmssd ?? 0, 0);
    expect(fromStore.hrv?.sdnn).toBeCloseTo(direct.hrv?.sdnn ?? 0, 0);
  });

  it('keeps a minute without kept seconds, and time outside the night, out of it', () => {
    const night = assembleNight(START, START + 120, [
      { minute: new Date((START - 60) * 1000), seconds: null, rri: [1000, 1000] },
      { minute: new Date(START * 1000), seconds: null, rri: null },
    ]);
    expect(night.reported.every((r) => r === 0)).toBe(true);
    expect(Number.isNaN(night.hr[0])).toBe(true);
  });
});
