import { RELEASE_KIND } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { transact } from '../../db/transactions.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { openTestDatabase, type TestDb } from '../../test/harness.ts';
import { AlarmRepository, type AlarmRaise } from './alarm.repository.ts';

const T0 = new Date('2026-11-26T02:00:00Z');
const later = (ms: number) => new Date(T0.getTime() + ms);

const raise = (over: Partial<AlarmRaise> = {}): AlarmRaise => ({
  providerId: 1,
  deviceId: 'SOS-0001',
  deviceType: 20993,
  deviceRowId: 5,
  bedId: null,
  residentId: 9,
  roomId: null,
  areaId: null,
  caregiverId: null,
  alertType: 'SOS',
  level: 1,
  startedAt: T0,
  at: T0,
  detail: {},
  measure: null,
  eventId: null,
  counts: true,
  ...over,
});

describeEachDb('alarm store (%s)', (target) => {
  let test: TestDb;
  const repo = new AlarmRepository();
  let n = 0;
  /** A device of its own for each test, so tests never see each other's alarms. */
  const device = () => `DEV-${++n}`;

  beforeAll(async () => {
    test = await openTestDatabase(target);
  });
  afterAll(() => test?.close());

  it('a repeat of an open alarm updates it (count, last time), never a second row', async () => {
    const db = test.database.db;
    const deviceId = device();
    const [first] = await repo.raise(db, [raise({ deviceId })]);
    const [second] = await repo.raise(db, [raise({ deviceId, at: later(5) })]);
    expect(first).toMatchObject({ outcome: 'raised', alarm: { count: 1 } });
    expect(second).toMatchObject({ outcome: 'repeated', alarm: { id: first?.alarm.id, count: 2, lastAt: later(5) } });
    // Another type of the same device is another alarm.
    const [fall] = await repo.raise(db, [raise({ deviceId, alertType: 'FALL' })]);
    expect(fall?.alarm.id).not.toBe(first?.alarm.id);
  });

  it('two raises of one type 5 ms apart, in concurrent transactions, make one alarm counted twice', async () => {
    const db = test.database.db;
    for (let trial = 0; trial < 20; trial++) {
      const deviceId = device();
      const results = await Promise.all(
        [0, 5].map((ms) => transact(db, (tx) => repo.raise(tx, [raise({ deviceId, at: later(ms) })]))),
      );
      const ids = new Set(results.map(([r]) => r?.alarm.id));
      expect(ids.size).toBe(1);
      expect(results.map(([r]) => r?.outcome).sort()).toEqual(['raised', 'repeated']);
      const open = (await repo.open(db)).filter((a) => a.deviceId === deviceId);
      expect(open).toHaveLength(1);
      expect(open[0]?.count).toBe(2);
    }
  });

  it('a condition raised again while its alarm is open (another instance) leaves the alarm as it was', async () => {
    const db = test.database.db;
    for (let trial = 0; trial < 10; trial++) {
      const deviceId = device();
      const spell = raise({ deviceId, alertType: 'LEAVE_BED', counts: false, detail: { duration: 900 } });
      const results = await Promise.all(
        [0, 5].map((ms) =>
          transact(db, (tx) => repo.raise(tx, [{ ...spell, at: later(ms), detail: { duration: ms } }])),
        ),
      );
      expect(results.map(([r]) => r?.outcome).sort()).toEqual(['open', 'raised']);
      const open = (await repo.open(db)).filter((a) => a.deviceId === deviceId);
      expect(open).toHaveLength(1);
      expect(open[0]).toMatchObject({ count: 1 });
      expect(open[0]?.lastAt).toEqual(results.find(([r]) => r?.outcome === 'raised')?.[0]?.alarm.lastAt);
    }
  });

  it('after a release, the same condition raises a new alarm', async () => {
    const db = test.database.db;
    const deviceId = device();
    const [first] = await repo.raise(db, [raise({ deviceId, alertType: 'SMOKE' })]);
    const released = await repo.release(db, deviceId, ['SMOKE', 'GAS'], RELEASE_KIND.automatic, later(1000));
    expect(released.map((a) => [a.id, a.releaseKind])).toEqual([[first?.alarm.id, 2]]);
    // Released already: a second release changes nothing.
    expect(await repo.release(db, deviceId, ['SMOKE'], RELEASE_KIND.automatic, later(2000))).toEqual([]);
    const [again] = await repo.raise(db, [raise({ deviceId, alertType: 'SMOKE', at: later(3000) })]);
    expect(again).toMatchObject({ outcome: 'raised', alarm: { count: 1 } });
    expect(again?.alarm.id).not.toBe(first?.alarm.id);
  });

  it('handling races: of two terminals at once, exactly one wins, in each of 100 trials', async () => {
    const db = test.database.db;
    const deviceId = device();
    for (let trial = 0; trial < 100; trial++) {
      const [raised] = await repo.raise(db, [raise({ deviceId, at: later(trial) })]);
      const id = raised?.alarm.id ?? 0;
      const attempt = (accountId: number) =>
        transact(db, (tx) =>
          repo.handle(tx, id, {
            at: later(trial + 1),
            reason: 'CHECKED',
            result: 'NO_ABNORMALITY',
            remark: null,
            accountId,
            handlerName: `carer${accountId}`,
          }),
        );
      const outcomes = await Promise.all([attempt(1), attempt(2)]);
      const winners = outcomes.filter((o) => o !== undefined);
      expect(winners).toHaveLength(1);
      const stored = await repo.byId(db, id);
      expect(stored).toMatchObject({ releaseKind: 1, handledBy: winners[0]?.handledBy });
    }
  });

  it('keeps each alarm’s timeline in order', async () => {
    const db = test.database.db;
    const [r] = await repo.raise(db, [raise({ deviceId: device() })]);
    const alarmId = r?.alarm.id ?? 0;
    await repo.addTimeline(db, [
      { alarmId, at: T0, step: 'raised' },
      { alarmId, at: later(200), step: 'delivered', accountId: 3, detail: { console: 'a' } },
      { alarmId, at: later(90_000), step: 'handled', accountId: 3 },
    ]);
    expect((await repo.timeline(db, alarmId)).map((e) => e.step)).toEqual(['raised', 'delivered', 'handled']);
  });
});
