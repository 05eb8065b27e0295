import {
  batchAddBunk,
  deleteAreaById,
  deleteBunk,
  deleteRoomById,
  getAreaList,
  getBunkListByRoomId,
  getRoomList,
  getRoomListByAreaId,
  insertArea,
  insertRoom,
  updateArea,
  updateBunk,
  updateRoom,
} from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { auditLog } from '../../db/schema.ts';
import { makeDevice, makePlace, makeResident } from './facility.fixtures.ts';

describeEachDb('facility places (%s)', (target) => {
  let app: TestApp;
  let admin: string;
  let home: { id: number; token: string };
  let other: { id: number; token: string };

  const tenant = async (name: string, parentId?: number) => {
    const p = await makeProvider(app, admin, name, parentId ? { parentId } : {});
    return { id: p.id, token: await app.login(p.userName, p.password) };
  };
  const rooms = async (token: string, floorId: number) =>
    (await app.call(getRoomList, { areaId: floorId, pageSize: 100 }, { token })).data?.rows.map((r) => r.name) ?? [];

  beforeAll(async () => {
    app = await createTestApp(target);
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    home = await tenant('Places Home');
    other = await tenant('Places Other');
  });
  afterAll(() => app?.close());

  describe('hierarchy', () => {
    it('builds area → floor → rooms → beds and lists them with paths and counts', async () => {
      const area = await app.call(insertArea, { name: 'Building A', sort: 2, remark: 'north' }, { token: home.token });
      expect(area.status).toBe(200);
      const areaId = area.data?.id ?? 0;
      const floor = await app.call(insertArea, { name: '1F', areaId }, { token: home.token });
      const floorId = floor.data?.id ?? 0;
      const added = await app.call(insertRoom, { floorId, name: ' 101 ,102，103 ,, ' }, { token: home.token });
      expect(added.status).toBe(200);
      expect(added.data?.ids).toHaveLength(3);
      expect(await rooms(home.token, floorId)).toEqual(['101', '102', '103']);
      const room101 = added.data?.ids[0] ?? 0;
      const beds = await app.call(
        batchAddBunk,
        { roomId: room101, name: 'A,B', mattress: 'latex' },
        { token: home.token },
      );
      expect(beds.data?.ids).toHaveLength(2);
      const listed = await app.call(getBunkListByRoomId, { roomId: room101 }, { token: home.token });
      expect(listed.data?.map((b) => [b.name, b.mattress, b.areaName, b.floorName, b.roomName])).toEqual([
        ['A', 'latex', 'Building A', '1F', '101'],
        ['B', 'latex', 'Building A', '1F', '101'],
      ]);
      const areas = await app.call(getAreaList, { keyWord: 'Building A' }, { token: home.token });
      expect(areas.data?.rows).toEqual([
        expect.objectContaining({
          id: areaId,
          level: 'area',
          parentId: null,
          providerId: home.id,
          providerName: 'Places Home',
          sort: 2,
          remark: 'north',
          floorCount: 1,
          roomCount: 3,
          bedCount: 2,
          occupiedCount: 0,
          deviceCount: 0,
        }),
      ]);
      const floors = await app.call(getAreaList, { areaId }, { token: home.token });
      expect(floors.data?.rows).toEqual([
        expect.objectContaining({
          id: floorId,
          level: 'floor',
          parentId: areaId,
          parentName: 'Building A',
          roomCount: 3,
        }),
      ]);
      const byArea = await app.call(getRoomListByAreaId, { areaId }, { token: home.token });
      expect(byArea.data?.map((r) => [r.name, r.bedCount])).toEqual([
        ['101', 2],
        ['102', 0],
        ['103', 0],
      ]);
      const byFloor = await app.call(getRoomListByAreaId, { areaId: floorId }, { token: home.token });
      expect(byFloor.data).toHaveLength(3);
    });

    it('refuses a floor inside a floor and a room directly in an area', async () => {
      const place = await makePlace(app, home.token, { area: 'Levels', beds: [] });
      const nested = await app.call(insertArea, { name: 'Mezzanine', areaId: place.floorId }, { token: home.token });
      expect([nested.status, nested.msgKey]).toEqual([300, 'area.parentNotArea']);
      const direct = await app.call(insertRoom, { floorId: place.areaId, name: '201' }, { token: home.token });
      expect([direct.status, direct.msgKey]).toEqual([300, 'room.floorRequired']);
      expect(direct.msg).toBe('Rooms belong to a floor/unit. Choose a floor, not an area.');
    });
  });

  describe('duplicate names', () => {
    it('refuses a duplicate area name per provider, case-insensitively and trimmed', async () => {
      expect((await app.call(insertArea, { name: 'Garden Wing' }, { token: home.token })).status).toBe(200);
      for (const name of ['Garden Wing', 'garden wing', '  GARDEN WING ']) {
        const res = await app.call(insertArea, { name }, { token: home.token });
        expect([res.status, res.msgKey], name).toEqual([300, 'area.exists']);
        expect(res.msg).toBe(`An area named ${name.trim()} already exists.`);
      }
      const zh = await app.call(insertArea, { name: 'Garden Wing' }, { token: home.token, lang: 'zh-CN' });
      expect(zh.msg).toBe('区域“Garden Wing”已存在。');
      // Another provider may use the same name.
      expect((await app.call(insertArea, { name: 'Garden Wing' }, { token: other.token })).status).toBe(200);
    });

    it('refuses a duplicate floor within one area but allows it in another', async () => {
      const a = await makePlace(app, home.token, { area: 'Dup Floors A', floor: 'Ground', beds: [] });
      const b = await makePlace(app, home.token, { area: 'Dup Floors B', floor: 'Ground', beds: [] });
      expect(b.floorId).not.toBe(a.floorId);
      const res = await app.call(insertArea, { name: 'ground', areaId: a.areaId }, { token: home.token });
      expect([res.status, res.msgKey, res.msg]).toEqual([
        300,
        'floor.exists',
        'This area already has a floor named ground.',
      ]);
      const rename = await app.call(updateArea, { id: b.floorId, name: 'GROUND' }, { token: home.token });
      expect(rename.status).toBe(200);
      const clash = await app.call(insertArea, { name: 'Second', areaId: a.areaId }, { token: home.token });
      const renameClash = await app.call(
        updateArea,
        { id: clash.data?.id ?? 0, name: 'Ground' },
        { token: home.token },
      );
      expect([renameClash.status, renameClash.msgKey]).toEqual([300, 'floor.exists']);
      const areaClash = await app.call(updateArea, { id: b.areaId, name: 'dup floors a' }, { token: home.token });
      expect([areaClash.status, areaClash.msgKey]).toEqual([300, 'area.exists']);
    });

    it('refuses a room list with repeated names or names already on the floor, all or nothing', async () => {
      const place = await makePlace(app, home.token, { area: 'Dup Rooms', room: '301', beds: [] });
      const repeated = await app.call(
        insertRoom,
        { floorId: place.floorId, name: '302, 303，302,303 ,304' },
        { token: home.token },
      );
      expect([repeated.status, repeated.msgKey]).toEqual([300, 'facility.duplicateInList']);
      expect(repeated.msg).toBe('These names are listed more than once: 302, 303.');
      expect(repeated.data).toEqual({
        problems: [
          { index: 2, name: '302', msgKey: 'facility.duplicateInList' },
          { index: 3, name: '303', msgKey: 'facility.duplicateInList' },
        ],
      });
      const existing = await app.call(
        insertRoom,
        { floorId: place.floorId, name: '305,301,306' },
        { token: home.token },
      );
      expect([existing.status, existing.msgKey, existing.msg]).toEqual([
        300,
        'room.exists',
        'This floor already has rooms named: 301.',
      ]);
      expect(existing.data).toEqual({ problems: [{ index: 1, name: '301', msgKey: 'room.exists' }] });
      expect(await rooms(home.token, place.floorId)).toEqual(['301']);
      const caseOnly = await app.call(insertRoom, { floorId: place.floorId, name: 'a1,A1' }, { token: home.token });
      expect(caseOnly.msgKey).toBe('facility.duplicateInList');
      const moved = await app.call(updateRoom, { id: place.roomId, name: '301' }, { token: home.token });
      expect(moved.status).toBe(200);
    });

    it('refuses empty, oversized and over-long lists', async () => {
      const place = await makePlace(app, home.token, { area: 'List Limits', beds: [] });
      const empty = await app.call(insertRoom, { floorId: place.floorId, name: ' , ，, ' }, { token: home.token });
      expect([empty.status, empty.msgKey, empty.msg]).toEqual([300, 'facility.namesEmpty', 'Enter at least one name.']);
      const many = Array.from({ length: 201 }, (_, i) => `R${i}`).join(',');
      const tooMany = await app.call(insertRoom, { floorId: place.floorId, name: many }, { token: home.token });
      expect([tooMany.status, tooMany.msgKey]).toEqual([300, 'facility.tooManyNames']);
      expect(tooMany.msg).toBe('At most 200 names can be added at a time.');
      const long = await app.call(
        insertRoom,
        { floorId: place.floorId, name: `ok,${'x'.repeat(33)}` },
        { token: home.token },
      );
      expect([long.status, long.msgKey]).toEqual([300, 'facility.nameTooLong']);
      expect(long.data).toEqual({ problems: [{ index: 1, name: 'x'.repeat(33), msgKey: 'facility.nameTooLong' }] });
      expect(await rooms(home.token, place.floorId)).toEqual(['101']);
      const exactly = Array.from({ length: 200 }, (_, i) => `S${i}`).join('，');
      expect(
        (await app.call(insertRoom, { floorId: place.floorId, name: exactly }, { token: home.token })).data?.ids,
      ).toHaveLength(200);
    });

    it('refuses a bed list with names already in the room and a bed rename onto another bed', async () => {
      const place = await makePlace(app, home.token, { area: 'Dup Beds', beds: ['1', '2'] });
      const res = await app.call(batchAddBunk, { roomId: place.roomId, name: '3,2,4' }, { token: home.token });
      expect([res.status, res.msgKey, res.msg]).toEqual([300, 'bed.exists', 'This room already has beds named: 2.']);
      expect((await app.call(getBunkListByRoomId, { roomId: place.roomId }, { token: home.token })).data).toHaveLength(
        2,
      );
      const rename = await app.call(updateBunk, { id: place.bedIds[0] ?? 0, name: '2' }, { token: home.token });
      expect([rename.status, rename.msgKey]).toEqual([300, 'bed.exists']);
      const self = await app.call(
        updateBunk,
        { id: place.bedIds[0] ?? 0, name: '1', mattress: 'spring' },
        { token: home.token },
      );
      expect(self.data).toMatchObject({ name: '1', mattress: 'spring' });
    });
  });

  describe('deleting', () => {
    it('refuses to delete an area with floors, a floor with rooms and a room with beds', async () => {
      const place = await makePlace(app, home.token, { area: 'Delete Chain', beds: ['1'] });
      const area = await app.call(deleteAreaById, { id: place.areaId }, { token: home.token });
      expect([area.status, area.msgKey, area.msg]).toEqual([
        300,
        'area.hasFloors',
        'This area still has floors. Delete them first.',
      ]);
      const floor = await app.call(deleteAreaById, { id: place.floorId }, { token: home.token });
      expect([floor.status, floor.msgKey]).toEqual([300, 'floor.hasRooms']);
      const room = await app.call(deleteRoomById, { id: place.roomId }, { token: home.token });
      expect([room.status, room.msgKey]).toEqual([300, 'room.hasBeds']);
      expect((await app.call(deleteBunk, { id: place.bedIds[0] ?? 0 }, { token: home.token })).status).toBe(200);
      expect((await app.call(deleteRoomById, { id: place.roomId }, { token: home.token })).status).toBe(200);
      expect((await app.call(deleteAreaById, { id: place.floorId }, { token: home.token })).status).toBe(200);
      expect((await app.call(deleteAreaById, { id: place.areaId }, { token: home.token })).status).toBe(200);
      const again = await app.call(deleteAreaById, { id: place.areaId }, { token: home.token });
      expect([again.status, again.msgKey]).toEqual([300, 'not_found']);
    });

    it('refuses to delete a bed with a resident or a device, naming them', async () => {
      const place = await makePlace(app, home.token, { area: 'Delete Linked', beds: ['1', '2'] });
      const [bed1 = 0, bed2 = 0] = place.bedIds;
      const resident = await makeResident(app, home.id, 'Wang Fang');
      const device = await makeDevice(app, home.id, 'DEL-SLEEP-1');
      expect((await app.call(updateBunk, { id: bed1, userId: resident }, { token: home.token })).status).toBe(200);
      expect((await app.call(updateBunk, { id: bed2, deviceId: device.code }, { token: home.token })).status).toBe(200);
      const withResident = await app.call(deleteBunk, { id: bed1 }, { token: home.token });
      expect([withResident.status, withResident.msgKey, withResident.msg]).toEqual([
        300,
        'bed.hasResident',
        'Wang Fang is in this bed. Check them out first.',
      ]);
      const withDevice = await app.call(deleteBunk, { id: bed2 }, { token: home.token, lang: 'zh-CN' });
      expect([withDevice.msgKey, withDevice.msg]).toEqual([
        'bed.hasDevice',
        '该床位已绑定设备 DEL-SLEEP-1，请先解绑。',
      ]);
      expect((await app.call(updateBunk, { id: bed2, deviceId: null }, { token: home.token })).status).toBe(200);
      expect((await app.call(deleteBunk, { id: bed2 }, { token: home.token })).status).toBe(200);
    });

    it('refuses to delete a room that is still a checked-out resident’s address', async () => {
      const place = await makePlace(app, home.token, { area: 'Address Kept', beds: ['1'] });
      const resident = await makeResident(app, home.id, 'Li Ming');
      await app.call(updateBunk, { id: place.bedIds[0] ?? 0, userId: resident }, { token: home.token });
      await app.call(updateBunk, { id: place.bedIds[0] ?? 0, userId: null }, { token: home.token });
      expect((await app.call(deleteBunk, { id: place.bedIds[0] ?? 0 }, { token: home.token })).status).toBe(200);
      const res = await app.call(deleteRoomById, { id: place.roomId }, { token: home.token });
      expect([res.status, res.msgKey]).toEqual([300, 'room.hasResidents']);
      const actor = { caller: await callerOf(home.token), ip: '127.0.0.1' };
      await app.services.facility.occupancy.logOff(actor, resident);
      expect((await app.call(deleteRoomById, { id: place.roomId }, { token: home.token })).status).toBe(200);
    });
  });

  describe('editing rooms', () => {
    it('moves a room to another floor of the same provider only, keeping names unique there', async () => {
      const group = await tenant('Places Group');
      const child = await tenant('Places Child', group.id);
      const own = await makePlace(app, group.token, { area: 'Group House', room: '1', beds: [] });
      const target = await makePlace(app, group.token, { area: 'Group Annex', room: '1', beds: [] });
      const childPlace = await makePlace(app, group.token, { area: 'Child House', beds: [], providerId: child.id });
      const clash = await app.call(updateRoom, { id: own.roomId, floorId: target.floorId }, { token: group.token });
      expect([clash.status, clash.msgKey]).toEqual([300, 'room.exists']);
      const toArea = await app.call(updateRoom, { id: own.roomId, floorId: target.areaId }, { token: group.token });
      expect(toArea.msgKey).toBe('room.floorRequired');
      const toChild = await app.call(
        updateRoom,
        { id: own.roomId, floorId: childPlace.floorId },
        { token: group.token },
      );
      expect([toChild.status, toChild.msgKey]).toEqual([300, 'room.floorOtherProvider']);
      const moved = await app.call(
        updateRoom,
        { id: own.roomId, floorId: target.floorId, name: '2', remark: 'moved' },
        { token: group.token },
      );
      expect(moved.status).toBe(200);
      expect(await rooms(group.token, target.floorId)).toEqual(['1', '2']);
      expect(await rooms(group.token, own.floorId)).toEqual([]);
    });
  });

  describe('providers and roles', () => {
    it('asks platform callers for a provider, and checks that it exists', async () => {
      const none = await app.call(insertArea, { name: 'Platform Area' }, { token: admin });
      expect([none.status, none.msgKey, none.msg]).toEqual([300, 'provider.required', 'Choose a provider first.']);
      const missing = await app.call(insertArea, { name: 'Platform Area', providerId: 999_999 }, { token: admin });
      expect([missing.status, missing.msgKey]).toEqual([300, 'not_found']);
      const made = await app.call(insertArea, { name: 'Platform Area', providerId: home.id }, { token: admin });
      expect(made.status).toBe(200);
      const listed = await app.call(getAreaList, { keyWord: 'Platform Area' }, { token: home.token });
      expect(listed.data?.total).toBe(1);
    });

    it('keeps each tenant to its own rows: foreign ids behave like missing ones', async () => {
      const foreign = await makePlace(app, other.token, { area: 'Foreign Block', beds: ['9'] });
      const probes = [
        await app.call(updateArea, { id: foreign.areaId, name: 'Taken Over' }, { token: home.token }),
        await app.call(deleteAreaById, { id: foreign.floorId }, { token: home.token }),
        await app.call(insertArea, { name: 'Sneaky Floor', areaId: foreign.areaId }, { token: home.token }),
        await app.call(insertRoom, { floorId: foreign.floorId, name: 'Sneaky' }, { token: home.token }),
        await app.call(updateRoom, { id: foreign.roomId, name: 'Renamed' }, { token: home.token }),
        await app.call(deleteRoomById, { id: foreign.roomId }, { token: home.token }),
        await app.call(batchAddBunk, { roomId: foreign.roomId, name: 'x' }, { token: home.token }),
        await app.call(getBunkListByRoomId, { roomId: foreign.roomId }, { token: home.token }),
        await app.call(getRoomListByAreaId, { areaId: foreign.areaId }, { token: home.token }),
        await app.call(updateBunk, { id: foreign.bedIds[0] ?? 0, name: 'mine' }, { token: home.token }),
        await app.call(deleteBunk, { id: foreign.bedIds[0] ?? 0 }, { token: home.token }),
        await app.call(insertArea, { name: 'Into Other', providerId: other.id }, { token: home.token }),
      ];
      for (const res of probes) expect([res.status, res.msgKey]).toEqual([300, 'not_found']);
      const areas = await app.call(getAreaList, { pageSize: 1000 }, { token: home.token });
      expect(areas.data?.rows.some((a) => a.name === 'Foreign Block')).toBe(false);
      const filtered = await app.call(getAreaList, { providerId: other.id }, { token: home.token });
      expect(filtered.data?.rows).toEqual([]);
      const floorsOfForeign = await app.call(getAreaList, { areaId: foreign.areaId }, { token: home.token });
      expect(floorsOfForeign.data?.rows).toEqual([]);
      const stillThere = await app.call(getBunkListByRoomId, { roomId: foreign.roomId }, { token: other.token });
      expect(stillThere.data?.map((b) => b.name)).toEqual(['9']);
    });

    it('lets readers read but not write, and keeps government viewers out', async () => {
      const { makeAccount } = await import('../../test/fixtures.ts');
      const worker = await makeAccount(app, home.token, 'placesWorker', 'SOCIAL_WORKER');
      const workerToken = await app.login(worker.userName, worker.password);
      const list = await app.call(getAreaList, {}, { token: workerToken });
      expect(list.status).toBe(200);
      expect(list.data?.total).toBeGreaterThan(0);
      const write = await app.call(insertArea, { name: 'Worker Area' }, { token: workerToken });
      expect([write.status, write.msgKey]).toEqual([300, 'no_permission']);
      const gov = await makeAccount(app, home.token, 'placesGov', 'GOVERNMENT');
      const govToken = await app.login(gov.userName, gov.password);
      for (const res of [
        await app.call(getAreaList, {}, { token: govToken }),
        await app.call(insertArea, { name: 'Gov Area' }, { token: govToken }),
      ]) {
        expect([res.status, res.msgKey]).toEqual([300, 'no_permission']);
      }
    });

    it('audits changes under the provider of the row', async () => {
      const place = await makePlace(app, home.token, { area: 'Audited', beds: ['1'] });
      const rows = await app.database.db.select().from(auditLog);
      const mine = rows.filter((r) => r.providerId === home.id && String(r.detail?.name ?? '') === 'Audited');
      expect(mine.map((r) => r.action)).toContain('area.create');
      expect(rows.some((r) => r.action === 'bed.create' && r.targetId === String(place.roomId))).toBe(true);
    });
  });

  /** The resolved caller of a token, for service-level calls. */
  const callerOf = async (token: string) => {
    const outcome = await app.services.sessions.authenticate(token);
    if (outcome.kind !== 'ok') throw new Error('no session');
    return outcome.caller;
  };
});
