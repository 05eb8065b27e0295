import { afterAll, beforeAll, expect, it } from 'vitest';
import { deviceMinutes, deviceSeconds } from '../../db/schema.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { emptySeconds, writeSecond } from '../gateway/index.ts';
import { NightRepository, SLICE_MINUTES } from './night.repository.ts';
import { unpackNight } from './packed-night.ts';

const T0 = Date.parse('2026-03-01T22:00:00.000Z');
const minuteRow = (deviceId: string, residentId: number, minutesAfter: number, rri: number[] | null) => ({
  deviceId,
  minute: new Date(T0 + minutesAfter * 60_000),
  providerId: 1,
  bedId: 1,
  residentId,
  samples: 60,
  hrSamples: 60,
  rrSamples: 60,
  inBedSeconds: 60,
  asleepSeconds: 0,
  moveAvg: 0,
  moveMax: 0,
  rri,
});

describeEachDb('the nights a resident has stored (%s)', (target) => {
  let app: TestApp;
  const repo = new NightRepository();

  beforeAll(async () => {
    app = await createTestApp(target);
    const seconds = emptySeconds();
    writeSecond(seconds, 5, { hr: 61, rr: 13, move: 2, inBed: true, asleep: true });
    await app.database.db.insert(deviceMinutes).values([
      minuteRow('NR-A', 7, 0, [1000]),
      minuteRow('NR-A', 7, 1, null),
      // The monitor was swapped: the resident's next minutes come from another device.
      minuteRow('NR-B', 7, 2, [900, 950]),
      minuteRow('NR-B', 8, 3, null),
      minuteRow('NR-A', 7, -1, null),
    ]);
    await app.database.db.insert(deviceSeconds).values([
      { deviceId: 'NR-A', minute: new Date(T0), providerId: 1, seconds },
      { deviceId: 'NR-B', minute: new Date(T0 + 2 * 60_000), providerId: 1, seconds },
      // Another resident's seconds at the same minute.
      { deviceId: 'NR-B', minute: new Date(T0 + 3 * 60_000), providerId: 1, seconds },
    ]);
  });
  afterAll(() => app?.close());

  it("reads the resident's minutes in the window from every monitor, with their seconds where kept", async () => {
    const packed = await repo.packedSlice(app.database.db, 7, new Date(T0), new Date(T0 + 4 * 60_000));
    const minutes = unpackNight([packed]);
    expect(minutes.map((m) => [m.minute.getTime() - T0, m.rri, m.seconds === null])).toEqual([
      [0, [1000], false],
      [60_000, null, true],
      [120_000, [900, 950], false],
    ]);
    expect(Array.from(minutes[0]?.seconds?.slice(20, 24) ?? [])).toEqual([61, 13, 2, 7]);
    expect(minutes[0]?.seconds).toHaveLength(240);
  });

  it('reads a long night in slices, every minute once, in order', async () => {
    const from = new Date(T0 - 2 * SLICE_MINUTES * 60_000 - 30_000);
    const slices = NightRepository.slicesOf(from, new Date(T0 + 4 * 60_000));
    expect(slices.map((s) => (s.to.getTime() - s.from.getTime()) / 60_000)).toEqual([120, 120, 4.5]);
    const read = (residentId: number) =>
      Promise.all(slices.map((s) => repo.packedSlice(app.database.db, residentId, s.from, s.to)));
    const packed = await read(7);
    expect(packed[0]).toBeNull();
    expect(unpackNight(packed).map((m) => (m.minute.getTime() - T0) / 60_000)).toEqual([-1, 0, 1, 2]);
    expect(unpackNight(await read(9))).toEqual([]);
  });
});
