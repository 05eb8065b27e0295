import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../clock.ts';
import { ConfigError, loadConfig } from '../../../config.ts';
import { deviceRawMinutes, deviceSeconds } from '../../../db/schema.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { describeEachDb } from '../../../test/db-suites.ts';
import { RawRetention, rawRetentionPart } from './raw-retention.ts';

const DAY = 86_400_000;
const NOW = new Date('2026-03-10T12:00:00.000Z');
const one = { t: [0], hr: [60], rr: [14], inBed: [1 as const], asleep: [0 as const], move: [0], rri: [[]] };

describe('RAW_RETENTION_DAYS', () => {
  it('defaults to 31 days and takes 1 to 3650 whole days', () => {
    expect(loadConfig({}).rawRetentionDays).toBe(31);
    expect(loadConfig({ RAW_RETENTION_DAYS: '7' }).rawRetentionDays).toBe(7);
    for (const bad of ['0', '3651', '1.5', 'month']) {
      expect(() => loadConfig({ RAW_RETENTION_DAYS: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ RAW_RETENTION_DAYS: bad }), bad).toThrow(/RAW_RETENTION_DAYS/);
    }
  });
});

describeEachDb('raw data retention (%s)', (target) => {
  let app: TestApp;
  const clock = new ManualClock(NOW);

  /** Minutes of a device, `ago` days (and minutes) before now. */
  const insertAgo = async (deviceId: string, days: number, minutes: number[]) => {
    const base = clock.now().getTime() - days * DAY;
    await app.database.db
      .insert(deviceRawMinutes)
      .values(minutes.map((m) => ({ deviceId, minute: new Date(base + m * 60_000), providerId: null, samples: one })));
  };
  const left = async () =>
    (
      await app.database.db
        .select({ deviceId: deviceRawMinutes.deviceId, minute: deviceRawMinutes.minute })
        .from(deviceRawMinutes)
        .orderBy(asc(deviceRawMinutes.deviceId), asc(deviceRawMinutes.minute))
    ).map((r) => `${r.deviceId} ${r.minute.toISOString()}`);

  beforeAll(async () => {
    app = await createTestApp(target, { clock, env: { RAW_RETENTION_DAYS: '31' } });
    await app.services.gateway.raw.retention.idle();
  });
  afterAll(() => app?.close());

  it('is a part of the gateway module, using the configured period for raw samples and seconds', () => {
    expect(app.services.gateway.raw.retention.days).toBe(31);
    expect(app.services.gateway.raw.secondsRetention.days).toBe(31);
    expect(app.services.modules.gateway.parts.map((p) => p.name)).toEqual(
      expect.arrayContaining(['retention of device_raw', 'retention of device_second']),
    );
  });

  it("deletes a sleep monitor's seconds older than the period the same way", async () => {
    await app.services.gateway.raw.secondsRetention.idle();
    const base = clock.now().getTime() - 31 * DAY;
    await app.database.db.insert(deviceSeconds).values(
      [-2, -1, 1].map((m) => ({
        deviceId: 'SEC-1',
        minute: new Date(base + m * 60_000),
        providerId: null,
        seconds: new Uint8Array(240),
      })),
    );
    const purge = await app.services.gateway.raw.secondsRetention.run();
    expect(purge.deleted).toBe(2);
    const rows = await app.database.db.select({ minute: deviceSeconds.minute }).from(deviceSeconds);
    expect(rows.map((r) => r.minute.getTime())).toEqual([base + 60_000]);
  });

  it('deletes only rows older than the period, in bounded batches', async () => {
    // Seven rows just past 31 days (and one far older), three just inside.
    await insertAgo('RET-OLD', 31, [-7, -6, -5, -4, -3, -2, -1]);
    await insertAgo('RET-OLDEST', 400, [0]);
    await insertAgo('RET-KEEP', 31, [0, 1, 2]);
    await insertAgo('RET-NEW', 0, [-1]);
    const retention = new RawRetention(app.database.db, clock, 31, { batchSize: 3 });
    const purge = await retention.run();
    expect(purge).toEqual({ before: new Date(NOW.getTime() - 31 * DAY), deleted: 8, batches: 3 });
    expect(await left()).toEqual([
      'RET-KEEP 2026-02-07T12:00:00.000Z',
      'RET-KEEP 2026-02-07T12:01:00.000Z',
      'RET-KEEP 2026-02-07T12:02:00.000Z',
      'RET-NEW 2026-03-10T11:59:00.000Z',
    ]);
    // Nothing more to delete: one statement finds nothing.
    expect(await retention.run()).toMatchObject({ deleted: 0, batches: 1 });
  });

  it('follows the clock: rows become old as days pass', async () => {
    const retention = new RawRetention(app.database.db, clock, 31, { batchSize: 3 });
    clock.advance(90_000);
    expect(await retention.run()).toMatchObject({ deleted: 2, batches: 1 });
    clock.advance(DAY);
    expect(await retention.run()).toMatchObject({ deleted: 1, batches: 1 });
    expect(await left()).toEqual(['RET-NEW 2026-03-10T11:59:00.000Z']);
    clock.set(NOW);
  });

  it('runs once when started as a part, then every period; joins a run already going', async () => {
    await insertAgo('RET-PART', 40, [0, 1, 2, 3, 4]);
    const retention = new RawRetention(app.database.db, clock, 31, { batchSize: 2, everyMs: 60 * 60_000 });
    const errors: unknown[] = [];
    const part = rawRetentionPart(retention);
    await part.start((error) => errors.push(error));
    // The run at start goes on in the background; a second run joins it.
    const joined = await retention.run();
    await retention.idle();
    expect(errors).toEqual([]);
    expect(joined.deleted + (await retention.run()).deleted).toBe(5);
    expect(await left()).toEqual(['RET-NEW 2026-03-10T11:59:00.000Z']);
    await part.stop();
  });

  it('stops after the batch going when the server stops', async () => {
    await insertAgo('RET-STOP', 40, [0, 1, 2, 3, 4, 5]);
    const retention = new RawRetention(app.database.db, clock, 31, { batchSize: 1, everyMs: 60 * 60_000 });
    retention.start(() => undefined);
    await retention.stop();
    const remaining = (await left()).filter((k) => k.startsWith('RET-STOP')).length;
    expect(remaining).toBeGreaterThan(0);
    expect(remaining).toBeLessThan(6);
    // A later run finishes the job.
    expect((await retention.run()).deleted).toBe(remaining);
  });
});
