import { getAreaWithRoomList, userCheckIn, updateBunk } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { bedRow, makeDevice, makePlace, makeResident, residentRow } from './facility.fixtures.ts';
import type { Actor } from './occupancy.service.ts';

/** The service methods other modules call: imports inside their transaction, placements, device unlinking. */
describeEachDb('facility services for other modules (%s)', (target) => {
  let app: TestApp;
  let home: { id: number; token: string };
  let stranger: { id: number; token: string };
  let actor: Actor;

  const tenant = async (admin: string, name: string) => {
    const p = await makeProvider(app, admin, name);
    return { id: p.id, token: await app.login(p.userName, p.password) };
  };
  /** Runs `work` in a transaction that is always rolled back unless `keep` is set (an importer deciding). */
  const inTransaction = async <T>(work: (tx: never) => Promise<T>, keep: boolean): Promise<T> => {
    let out: T | undefined;
    await app.database.db
      .transaction(async (tx) => {
        out = await work(tx as never);
        if (!keep) throw new Error('rollback');
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error && error.message === 'rollback')) throw error;
      });
    return out as T;
  };

  beforeAll(async () => {
    app = await createTestApp(target);
    const admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    home = await tenant(admin, 'Services Home');
    stranger = await tenant(admin, 'Services Stranger');
    const outcome = await app.services.sessions.authenticate(home.token);
    if (outcome.kind !== 'ok') throw new Error('no session');
    actor = { caller: outcome.caller, ip: '127.0.0.1', lang: 'en-US' };
  });
  afterAll(() => app?.close());

  describe('importBeds', () => {
    it('finds or creates areas, floors and rooms by name and adds the beds in row order', async () => {
      await makePlace(app, home.token, { area: 'Import Hall', floor: '1F', room: '101', beds: ['1'] });
      const { places } = app.services.facility;
      const result = await inTransaction(
        (tx) =>
          places.importBeds(
            actor,
            {
              rows: [
                { area: 'import hall', floor: '1f', room: '101', bed: '2' },
                { area: 'Import Hall', floor: '2F', room: '201', bed: '1', mattress: 'latex' },
                { area: ' New Wing ', floor: 'G', room: 'G1', bed: 'A' },
                { area: 'New Wing', floor: 'G', room: 'G1', bed: 'B' },
              ],
            },
            tx,
          ),
        true,
      );
      expect(result.problems).toEqual([]);
      expect(result.bedIds).toHaveLength(4);
      const tree = await app.call(getAreaWithRoomList, {}, { token: home.token });
      const shape = tree.data?.map((a) => [
        a.name,
        a.floors.map((f) => [f.name, f.rooms.map((r) => [r.name, r.bedCount])]),
      ]);
      expect(shape).toEqual([
        [
          'Import Hall',
          [
            ['1F', [['101', 2]]],
            ['2F', [['201', 1]]],
          ],
        ],
        ['New Wing', [['G', [['G1', 2]]]]],
      ]);
      expect((await bedRow(app, result.bedIds[1] ?? 0)).mattress).toBe('latex');
    });

    it('reports every bad row and writes nothing', async () => {
      const before = await app.call(getAreaWithRoomList, {}, { token: home.token });
      const { places } = app.services.facility;
      const result = await inTransaction(
        (tx) =>
          places.importBeds(
            actor,
            {
              rows: [
                { area: 'Fresh', floor: 'F', room: 'R', bed: '1' },
                { area: 'Fresh', floor: 'F', room: 'R', bed: '1' },
                { area: '', floor: 'F', room: 'R', bed: '2' },
                { area: 'Fresh', floor: 'F', room: 'R,S', bed: '3' },
                { area: 'Fresh', floor: 'F', room: 'R', bed: 'x'.repeat(33) },
              ],
            },
            tx,
          ),
        true,
      );
      expect(result.problems.map((p) => [p.index, p.field, p.msgKey])).toEqual([
        [1, 'bed', 'facility.duplicateInList'],
        [2, 'area', 'validation.required'],
        [3, 'room', 'facility.nameChars'],
        [4, 'bed', 'facility.nameTooLong'],
      ]);
      expect(result.bedIds).toEqual([]);
      const taken = await inTransaction(
        (tx) => places.importBeds(actor, { rows: [{ area: 'Import Hall', floor: '1F', room: '101', bed: '1' }] }, tx),
        true,
      );
      expect(taken.problems).toEqual([{ index: 0, field: 'bed', msgKey: 'bed.exists', params: { names: '1' } }]);
      expect((await app.call(getAreaWithRoomList, {}, { token: home.token })).data).toEqual(before.data);
    });
  });

  describe('checkInMany', () => {
    it('applies the good rows and reports the others without asking', async () => {
      const place = await makePlace(app, home.token, { area: 'Batch Check-in', beds: ['1', '2', '3', '4'] });
      const [b1 = 0, b2 = 0, b3 = 0, b4 = 0] = place.bedIds;
      const sitting = await makeResident(app, home.id, 'Already Here');
      await app.call(userCheckIn, { userId: sitting, bunkId: b3 }, { token: home.token });
      const [r1, r2, r3] = [
        await makeResident(app, home.id, 'Batch One'),
        await makeResident(app, home.id, 'Batch Two'),
        await makeResident(app, home.id, 'Batch Three'),
      ];
      const foreign = await makeResident(app, stranger.id, 'Not Mine');
      const { occupancy } = app.services.facility;
      const problems = await inTransaction(
        (tx) =>
          occupancy.checkInMany(
            actor,
            [
              { residentId: r1, bedId: b1 },
              { residentId: r2, bedId: b1 },
              { residentId: r3, bedId: b3 },
              { residentId: foreign, bedId: b2 },
              { residentId: r2, bedId: b4 },
            ],
            { tx, emit: () => undefined },
          ),
        true,
      );
      expect(problems.map((p) => [p.index, p.msgKey])).toEqual([
        [1, 'facility.duplicateInList'],
        [2, 'bed.confirmMove'],
        [3, 'not_found'],
      ]);
      expect(String(problems[1]?.params.details)).toContain('occupied by Already Here');
      expect((await bedRow(app, b1)).residentId).toBe(r1);
      expect((await bedRow(app, b2)).residentId).toBeNull();
      expect((await bedRow(app, b4)).residentId).toBe(r2);
      expect((await bedRow(app, b3)).residentId).toBe(sitting);
      expect((await residentRow(app, r3)).state).toBe('registered');
    });

    it('leaves nothing behind when the importer rolls its transaction back', async () => {
      const place = await makePlace(app, home.token, { area: 'Rolled Back', beds: ['1'] });
      const resident = await makeResident(app, home.id, 'Rolled');
      const { occupancy } = app.services.facility;
      const problems = await inTransaction(
        (tx) =>
          occupancy.checkInMany(actor, [{ residentId: resident, bedId: place.bedIds[0] ?? 0 }], {
            tx,
            emit: () => undefined,
          }),
        false,
      );
      expect(problems).toEqual([]);
      expect((await bedRow(app, place.bedIds[0] ?? 0)).residentId).toBeNull();
      expect((await residentRow(app, resident)).state).toBe('registered');
    });
  });

  describe('placements and device unlinking', () => {
    it('tells where residents and devices are, and unlinks a device from its bed', async () => {
      const place = await makePlace(app, home.token, { area: 'Placements', floor: 'P', room: 'P1', beds: ['1'] });
      const resident = await makeResident(app, home.id, 'Placed');
      const nowhere = await makeResident(app, home.id, 'Nowhere');
      const device = await makeDevice(app, home.id, 'PLACED-DEV', 59);
      await app.call(
        updateBunk,
        { id: place.bedIds[0] ?? 0, userId: resident, deviceId: device.code },
        { token: home.token },
      );
      const { occupancy } = app.services.facility;
      const residents = await occupancy.bedsOfResidents([resident, nowhere]);
      expect([...residents.keys()]).toEqual([resident]);
      expect(residents.get(resident)).toMatchObject({
        areaName: 'Placements',
        floorName: 'P',
        roomName: 'P1',
        name: '1',
      });
      const devices = await occupancy.bedsOfDevices([device.id]);
      expect(devices.get(device.id)?.id).toBe(place.bedIds[0]);
      expect(await occupancy.unlinkDevice(device.id)).toBe(place.bedIds[0]);
      expect((await bedRow(app, place.bedIds[0] ?? 0)).deviceId).toBeNull();
      expect(await occupancy.unlinkDevice(device.id)).toBeNull();
    });
  });
});
