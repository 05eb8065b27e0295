import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topicOf } from '@vigil/contract';
import { ManualClock } from '../../clock.ts';
import { alarms, alarmSpells } from '../../db/schema.ts';
import { createTestApp, dbTargets, openTestDatabase, type TestApp, type TestDb } from '../../test/harness.ts';
import { addDevice, deviceWorld, linkBed, loadStock, placeBed, T } from '../devices/device-test-support.ts';
import { SPELLS } from './alarm-runner.ts';

/**
 * A restart in the middle of a duration: the engine's clocks are written as they run and taken
 * up again, so a resident out of bed for 8 of 10 minutes gets the alarm 2 minutes later, not 10.
 */
describe.each(dbTargets())('duration clocks across a restart on %s', (target) => {
  let testDb: TestDb;
  let app: TestApp;
  const clock = new ManualClock(new Date('2026-11-26T01:00:00Z'));
  let seq = 1;

  const start = async () => {
    app = await createTestApp(target, { clock, testDb });
    await app.services.gateway.directory.load();
  };
  const sample = (inBed: boolean) =>
    app.services.gateway.ingest.handle(
      topicOf('RST-SLP1', 'telemetry'),
      Buffer.from(
        JSON.stringify({ ts: clock.now().getTime() / 1000, seq: seq++, hr: 70, rr: 14, inBed, asleep: false, move: 0 }),
      ),
    );
  /** Out of bed for `seconds`, a sample every 5 s. */
  const away = async (seconds: number) => {
    for (let s = 0; s < seconds; s += 5) {
      await sample(false);
      clock.advance(5_000);
    }
  };
  const openLeaveBed = () =>
    app.database.db
      .select()
      .from(alarms)
      .where(and(eq(alarms.deviceId, 'RST-SLP1'), eq(alarms.alertType, 'LEAVE_BED'), eq(alarms.releaseKind, 0)));

  beforeAll(async () => {
    testDb = await openTestDatabase(target);
    await start();
    const w = await deviceWorld(app, 'Rst');
    await loadStock(app, w.admin, [{ deviceId: 'RST-SLP1', deviceType: T.sleep }]);
    await addDevice(app, w.aHome.token, 'RST-SLP1', T.sleep);
    const bed = await placeBed(app, w.aHome.id, { area: 'Rst Area', room: 'Rst 1', bed: 'Rst 1-1', resident: 'Ruth' });
    await linkBed(app, bed.bedId, 'RST-SLP1');
    await app.services.gateway.directory.load();
  });
  afterAll(async () => {
    await app?.close();
    await testDb?.close();
  });

  it('a restart goes on counting a resident out of bed instead of starting over', async () => {
    await sample(true);
    clock.advance(1_000);
    await away(480); // 8 of the default 10 minutes
    await app.close(); // a rolling restart: the clocks are written on the way down
    const [stored] = await testDb.database.db.select().from(alarmSpells).where(eq(alarmSpells.deviceId, 'RST-SLP1'));
    expect(Object.keys(stored?.spells ?? {})).toContain('LEAVE_BED');

    clock.advance(10_000);
    await start();
    // Nothing is raised on the restored clock before a sample confirms it.
    clock.advance(1_000);
    await app.services.alarms.runner.flush();
    expect(await openLeaveBed()).toEqual([]);
    // 492 s of the spell have passed (16 of them unobserved, taken as held): 100 s more is not yet 10 minutes.
    await away(100);
    await app.services.alarms.runner.flush();
    expect(await openLeaveBed()).toEqual([]);
    await away(15);
    await app.services.alarms.runner.flush();
    const [alarm] = await openLeaveBed();
    // The spell began before the restart; it counts from there.
    expect(alarm).toBeDefined();
    expect(clock.now().getTime() - (alarm?.startedAt.getTime() ?? 0)).toBeGreaterThanOrEqual(600_000);
  });

  it('clocks written longer ago than the freshness window start over', async () => {
    await sample(true); // back in bed: the alarm clears, the clock stops
    clock.advance(1_000);
    await app.services.alarms.runner.flush();
    await away(480);
    await app.close();
    clock.advance(SPELLS.freshMs + 1_000);
    await start();
    await away(300);
    await app.services.alarms.runner.flush();
    expect(await openLeaveBed()).toEqual([]);
  });

  it('clocks that ended are removed from the table', async () => {
    await sample(true);
    clock.advance(1_000);
    await app.services.alarms.runner.writeSpells();
    const rows = await app.database.db.select().from(alarmSpells).where(eq(alarmSpells.deviceId, 'RST-SLP1'));
    expect(rows.flatMap((r) => Object.keys(r.spells))).not.toContain('LEAVE_BED');
  });
});
