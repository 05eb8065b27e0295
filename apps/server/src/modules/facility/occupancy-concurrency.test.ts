import { batchAddBunk, bunkCheckOut, insertRoom, updateBunk, userCheckIn } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { beds as bedTable, residents as residentTable } from '../../db/schema.ts';
import { makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { bedRow, bedsHolding, makeDevice, makePlace, makeResident, residentRow } from './facility.fixtures.ts';

/**
 * Concurrent bed changes: whatever interleaving the database picks, a device is on at most one
 * bed, a resident in at most one bed, and a resident is checked in exactly when a bed holds them.
 * On PostgreSQL the requests really overlap (a pool of connections); PGlite runs them one by one.
 */
describeEachDb('concurrent bed changes (%s)', (target) => {
  let app: TestApp;
  let home: { id: number; token: string };

  const burst = <T>(n: number, make: (i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: n }, (_, i) => make(i)));
  const allowed = (res: { status: number; msgKey?: string }, keys: string[]) =>
    res.status === 200 || (res.status === 300 && keys.includes(res.msgKey ?? ''));

  /** Every resident: checked in exactly when one bed holds them, with that bed's room as address. */
  const expectConsistent = async (providerId: number) => {
    const { db } = app.database;
    const beds = (await db.select().from(bedTable)).filter((b) => b.providerId === providerId);
    const residents = (await db.select().from(residentTable)).filter((r) => r.providerId === providerId);
    const devices = beds.map((b) => b.deviceId).filter((d) => d !== null);
    expect(new Set(devices).size, 'a device on two beds').toBe(devices.length);
    for (const r of residents) {
      const holders = beds.filter((b) => b.residentId === r.id);
      expect(holders.length, `resident ${r.id} in ${holders.length} beds`).toBeLessThanOrEqual(1);
      const holder = holders[0];
      if (holder) expect([r.state, r.roomId], `resident ${r.id}`).toEqual(['checkedIn', holder.roomId]);
      else expect(r.state, `resident ${r.id} without a bed`).not.toBe('checkedIn');
    }
  };

  beforeAll(async () => {
    app = await createTestApp(target);
    const admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const p = await makeProvider(app, admin, 'Race Home');
    home = { id: p.id, token: await app.login(p.userName, p.password) };
  });
  afterAll(() => app?.close());

  it('moves one device to eight beds at once: it ends on exactly one of them', async () => {
    const place = await makePlace(app, home.token, {
      area: 'Race Device',
      beds: ['1', '2', '3', '4', '5', '6', '7', '8'],
    });
    const device = await makeDevice(app, home.id, 'RACE-DEV-1', 49);
    const results = await burst(8, (i) =>
      app.call(updateBunk, { id: place.bedIds[i] ?? 0, deviceId: device.code, confirm: true }, { token: home.token }),
    );
    for (const r of results) expect(allowed(r, ['facility.busy']), JSON.stringify(r)).toBe(true);
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    expect(await bedsHolding(app, { deviceRowId: device.id })).toHaveLength(1);
  });

  it('checks one resident in to eight beds at once: they end in exactly one', async () => {
    const place = await makePlace(app, home.token, {
      area: 'Race Resident',
      beds: ['1', '2', '3', '4', '5', '6', '7', '8'],
    });
    const resident = await makeResident(app, home.id, 'Racer');
    const results = await burst(8, (i) =>
      app.call(userCheckIn, { userId: resident, bunkId: place.bedIds[i] ?? 0, confirm: true }, { token: home.token }),
    );
    for (const r of results) expect(allowed(r, ['facility.busy']), JSON.stringify(r)).toBe(true);
    const holders = await bedsHolding(app, { residentId: resident });
    expect(holders).toHaveLength(1);
    expect(await residentRow(app, resident)).toMatchObject({ state: 'checkedIn', roomId: place.roomId });
  });

  it('without confirmation, exactly one of many residents gets a free bed; the others are asked', async () => {
    const place = await makePlace(app, home.token, { area: 'Race Free Bed', beds: ['1'] });
    const people = await Promise.all(Array.from({ length: 6 }, (_, i) => makeResident(app, home.id, `Hopeful ${i}`)));
    const results = await burst(6, (i) =>
      app.call(userCheckIn, { userId: people[i] ?? 0, bunkId: place.bedIds[0] ?? 0 }, { token: home.token }),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200))
      expect([r.status, r.msgKey]).toEqual([300, 'bed.confirmMove']);
    const winner = people[results.findIndex((r) => r.status === 200)];
    expect((await bedRow(app, place.bedIds[0] ?? 0)).residentId).toBe(winner);
    await expectConsistent(home.id);
  });

  it('swaps two devices and two residents crosswise at the same moment without a deadlock or a loss', async () => {
    const place = await makePlace(app, home.token, { area: 'Race Swap', beds: ['1', '2'] });
    const [bed1 = 0, bed2 = 0] = place.bedIds;
    const d1 = await makeDevice(app, home.id, 'SWAP-D1', 52);
    const d2 = await makeDevice(app, home.id, 'SWAP-D2', 59);
    const r1 = await makeResident(app, home.id, 'Swap One');
    const r2 = await makeResident(app, home.id, 'Swap Two');
    for (let round = 0; round < 4; round++) {
      await app.call(updateBunk, { id: bed1, deviceId: d1.code, userId: r1, confirm: true }, { token: home.token });
      await app.call(updateBunk, { id: bed2, deviceId: d2.code, userId: r2, confirm: true }, { token: home.token });
      const [a, b] = await Promise.all([
        app.call(updateBunk, { id: bed2, deviceId: d1.code, userId: r1, confirm: true }, { token: home.token }),
        app.call(updateBunk, { id: bed1, deviceId: d2.code, userId: r2, confirm: true }, { token: home.token }),
      ]);
      expect([a.status, b.status], JSON.stringify([a, b])).toEqual([200, 200]);
      expect(await bedRow(app, bed1)).toMatchObject({ deviceId: d2.id, residentId: r2 });
      expect(await bedRow(app, bed2)).toMatchObject({ deviceId: d1.id, residentId: r1 });
      await expectConsistent(home.id);
    }
  });

  it('keeps every invariant through a storm of random saves, check-ins and check-outs', async () => {
    const place = await makePlace(app, home.token, { area: 'Race Storm', beds: ['1', '2', '3', '4'] });
    const devices = [await makeDevice(app, home.id, 'STORM-1', 49), await makeDevice(app, home.id, 'STORM-2', 21007)];
    const people = [
      await makeResident(app, home.id, 'Storm A'),
      await makeResident(app, home.id, 'Storm B'),
      await makeResident(app, home.id, 'Storm C'),
    ];
    let seed = 20260101;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const pick = <T>(list: readonly T[]): T => list[random(list.length)] as T;
    for (let round = 0; round < 5; round++) {
      const operations = Array.from({ length: 10 }, () => {
        const bed = pick(place.bedIds);
        switch (random(4)) {
          case 0:
            return () =>
              app.call(updateBunk, { id: bed, deviceId: pick(devices).code, confirm: true }, { token: home.token });
          case 1:
            return () =>
              app.call(userCheckIn, { userId: pick(people), bunkId: bed, confirm: true }, { token: home.token });
          case 2:
            return () => app.call(bunkCheckOut, { userId: pick(people) }, { token: home.token });
          default:
            return () =>
              app.call(
                updateBunk,
                {
                  id: bed,
                  userId: random(2) ? pick(people) : null,
                  deviceId: random(2) ? null : pick(devices).code,
                  confirm: true,
                },
                { token: home.token },
              );
        }
      });
      const results = await Promise.all(operations.map((op) => op()));
      for (const r of results) {
        expect(allowed(r, ['resident.notCheckedIn', 'facility.busy']), JSON.stringify(r).slice(0, 300)).toBe(true);
      }
      await expectConsistent(home.id);
    }
  });

  it('adds the same room names from many requests at once: one wins, the others are told the names exist', async () => {
    const place = await makePlace(app, home.token, { area: 'Race Names', beds: [] });
    const results = await burst(6, () =>
      app.call(insertRoom, { floorId: place.floorId, name: 'R1,R2,R3' }, { token: home.token }),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect([r.status, r.msgKey]).toEqual([300, 'room.exists']);
    const beds = await burst(6, () =>
      app.call(batchAddBunk, { roomId: place.roomId, name: 'A,B' }, { token: home.token }),
    );
    expect(beds.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of beds.filter((x) => x.status !== 200)) expect([r.status, r.msgKey]).toEqual([300, 'bed.exists']);
  });
});
