/** Test support of the reports module: a resident's night stored as ingest stores it. */
import { deviceMinutes, deviceSeconds } from '../../db/schema.ts';
import type { TestApp } from '../../test/harness.ts';
import { emptySeconds, writeSecond } from '../gateway/index.ts';

export interface StoredNightSpec {
  deviceId: string;
  providerId: number;
  bedId: number;
  residentId: number;
  /** The first stored minute. */
  from: Date;
  minutes: number;
  /** In bed from this many minutes after `from` until `inBedTo`; asleep 20 minutes after lying down. */
  inBedFrom: number;
  inBedTo: number;
  /** Seconds without any message (a dropout), as [fromMinute, toMinute). */
  silent?: [number, number];
}

/** Stores minute rows with beat intervals and each minute's seconds, in batches. */
export async function storeNight(app: TestApp, spec: StoredNightSpec): Promise<void> {
  const rows: { minute: Date; rri: number[]; seconds: Uint8Array; inBed: number; asleep: number }[] = [];
  for (let m = 0; m < spec.minutes; m++) {
    if (spec.silent && m >= spec.silent[0] && m < spec.silent[1]) continue;
    const seconds = emptySeconds();
    const rri: number[] = [];
    let inBedSeconds = 0;
    let asleepSeconds = 0;
    for (let s = 0; s < 60; s++) {
      const t = m * 60 + s;
      const inBed = m >= spec.inBedFrom && m < spec.inBedTo;
      const asleep = inBed && m >= spec.inBedFrom + 20;
      const hr = inBed ? 58 + 6 * Math.sin(t / 1100) + 2 * Math.sin(t / 37) : 0;
      writeSecond(seconds, s, { hr, rr: inBed ? 14 : 0, move: t % 1400 < 3 ? 35 : 1, inBed, asleep });
      if (hr) rri.push(Math.round(60_000 / hr + 25 * Math.sin(t * 2.1)));
      inBedSeconds += inBed ? 1 : 0;
      asleepSeconds += asleep ? 1 : 0;
    }
    rows.push({
      minute: new Date(spec.from.getTime() + m * 60_000),
      rri,
      seconds,
      inBed: inBedSeconds,
      asleep: asleepSeconds,
    });
  }
  const { db } = app.database;
  for (let i = 0; i < rows.length; i += 200) {
    const part = rows.slice(i, i + 200);
    await db.insert(deviceMinutes).values(
      part.map((r) => ({
        deviceId: spec.deviceId,
        minute: r.minute,
        providerId: spec.providerId,
        bedId: spec.bedId,
        residentId: spec.residentId,
        samples: 60,
        hrSamples: r.inBed,
        rrSamples: r.inBed,
        inBedSeconds: r.inBed,
        asleepSeconds: r.asleep,
        moveAvg: 1,
        moveMax: 35,
        rri: r.rri.length ? r.rri : null,
      })),
    );
    await db.insert(deviceSeconds).values(
      part.map((r) => ({
        deviceId: spec.deviceId,
        minute: r.minute,
        providerId: spec.providerId,
        seconds: r.seconds,
      })),
    );
  }
}
