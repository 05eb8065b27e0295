import {
  bunkCheckOut,
  bunkList,
  getBunkListByRoomId,
  updateBunk,
  userCheckIn,
  type ConfirmMove,
} from '@vigil/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema.ts';
import { makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { bedRow, bedsHolding, makeDevice, makePlace, makeResident, residentRow } from './facility.fixtures.ts';

describeEachDb('bed occupancy and the resident lifecycle (%s)', (target) => {
  let app: TestApp;
  let admin: string;
  let home: { id: number; token: string };
  let stranger: { id: number; token: string };

  const tenant = async (name: string, parentId?: number) => {
    const p = await makeProvider(app, admin, name, parentId ? { parentId } : {});
    return { id: p.id, token: await app.login(p.userName, p.password) };
  };
  const callerOf = async (token: string) => {
    const outcome = await app.services.sessions.authenticate(token);
    if (outcome.kind !== 'ok') throw new Error('no session');
    return outcome.caller;
  };
  const conflictsOf = (res: { data: unknown }) => (res.data as ConfirmMove).conflicts;

  beforeAll(async () => {
    app = await createTestApp(target);
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    home = await tenant('Occupancy Home');
    stranger = await tenant('Occupancy Stranger');
  });
  afterAll(() => app?.close());

  describe('check-in, check-out, log-off', () => {
    it('walks registered → checked in → checked out → logged off → checked in again', async () => {
      const place = await makePlace(app, home.token, { area: 'Life', floor: '2F', room: '201', beds: ['1', '2'] });
      const [bed1 = 0, bed2 = 0] = place.bedIds;
      const resident = await makeResident(app, home.id, 'Zhao Lan');
      expect((await residentRow(app, resident)).state).toBe('registered');

      app.clock.advance(60_000);
      const admitted = app.clock.now();
      const checkIn = await app.call(userCheckIn, { userId: resident, bunkId: bed1 }, { token: home.token });
      expect(checkIn.status).toBe(200);
      expect(checkIn.data).toMatchObject({ id: bed1, userId: resident, userName: 'Zhao Lan', roomName: '201' });
      expect(await residentRow(app, resident)).toMatchObject({
        state: 'checkedIn',
        roomId: place.roomId,
        admittedAt: admitted,
        checkedOutAt: null,
        loggedOffAt: null,
      });

      app.clock.advance(60_000);
      const out = await app.call(bunkCheckOut, { userId: resident }, { token: home.token });
      expect(out.status).toBe(200);
      expect((await bedRow(app, bed1)).residentId).toBeNull();
      expect(await residentRow(app, resident)).toMatchObject({
        state: 'checkedOut',
        roomId: place.roomId,
        admittedAt: admitted,
        checkedOutAt: app.clock.now(),
      });
      const twice = await app.call(bunkCheckOut, { userId: resident }, { token: home.token });
      expect([twice.status, twice.msgKey, twice.msg]).toEqual([
        300,
        'resident.notCheckedIn',
        'This resident is not checked in to a bed.',
      ]);

      app.clock.advance(60_000);
      await app.services.facility.occupancy.logOff({ caller: await callerOf(home.token), ip: '127.0.0.1' }, resident);
      expect(await residentRow(app, resident)).toMatchObject({
        state: 'loggedOff',
        roomId: null,
        loggedOffAt: app.clock.now(),
      });

      app.clock.advance(60_000);
      const again = await app.call(userCheckIn, { userId: resident, bunkId: bed2 }, { token: home.token });
      expect(again.status).toBe(200);
      expect(await residentRow(app, resident)).toMatchObject({
        state: 'checkedIn',
        roomId: place.roomId,
        admittedAt: app.clock.now(),
        checkedOutAt: null,
        loggedOffAt: null,
      });
      const actions = await app.database.db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(and(eq(auditLog.targetType, 'resident'), eq(auditLog.targetId, String(resident))));
      expect(actions.map((a) => a.action)).toEqual([
        'resident.checkIn',
        'resident.checkOut',
        'resident.logOff',
        'resident.checkIn',
      ]);
    });

    it('logs off a resident who is still in a bed: bed emptied, checked out and logged off at once', async () => {
      const place = await makePlace(app, home.token, { area: 'Log Off In Bed', beds: ['1'] });
      const resident = await makeResident(app, home.id, 'Qian Yu');
      await app.call(userCheckIn, { userId: resident, bunkId: place.bedIds[0] ?? 0 }, { token: home.token });
      const actor = { caller: await callerOf(home.token), ip: '127.0.0.1' };
      await app.services.facility.occupancy.logOff(actor, resident);
      expect((await bedRow(app, place.bedIds[0] ?? 0)).residentId).toBeNull();
      expect(await residentRow(app, resident)).toMatchObject({
        state: 'loggedOff',
        roomId: null,
        checkedOutAt: app.clock.now(),
      });
      // Logging off twice changes nothing; a foreign caller cannot log anyone off.
      await app.services.facility.occupancy.logOff(actor, resident);
      const foreign = { caller: await callerOf(stranger.token), ip: '127.0.0.1' };
      await expect(app.services.facility.occupancy.logOff(foreign, resident)).rejects.toMatchObject({
        key: 'not_found',
      });
    });

    it('asks before checking in to an occupied bed, then checks the occupant out', async () => {
      const place = await makePlace(app, home.token, { area: 'Occupied', floor: 'G', room: 'R1', beds: ['B1'] });
      const bed = place.bedIds[0] ?? 0;
      const first = await makeResident(app, home.id, 'Sun Li');
      const second = await makeResident(app, home.id, 'Zhou Hua');
      await app.call(userCheckIn, { userId: first, bunkId: bed }, { token: home.token });
      const ask = await app.call(userCheckIn, { userId: second, bunkId: bed }, { token: home.token });
      expect([ask.status, ask.msgKey]).toEqual([300, 'bed.confirmMove']);
      expect(ask.msg).toBe('Please confirm: this bed is occupied by Sun Li, who will be checked out.');
      expect(ask.data).toEqual({
        confirmRequired: true,
        conflicts: [
          {
            kind: 'occupant',
            bunkId: bed,
            bunkPath: 'Occupied / G / R1 / B1',
            deviceId: null,
            userId: first,
            userName: 'Sun Li',
          },
        ],
      });
      expect((await bedRow(app, bed)).residentId).toBe(first);
      expect((await residentRow(app, second)).state).toBe('registered');
      const done = await app.call(userCheckIn, { userId: second, bunkId: bed, confirm: true }, { token: home.token });
      expect(done.data).toMatchObject({ userId: second, userName: 'Zhou Hua' });
      expect((await residentRow(app, first)).state).toBe('checkedOut');
      expect((await residentRow(app, second)).state).toBe('checkedIn');
    });

    it('asks before moving a resident from another bed, names that bed, and keeps the admission time', async () => {
      const place = await makePlace(app, home.token, { area: 'Mover', floor: '3F', room: '301', beds: ['1', '2'] });
      const [from = 0, to = 0] = place.bedIds;
      const resident = await makeResident(app, home.id, 'Wu Mei');
      await app.call(userCheckIn, { userId: resident, bunkId: from }, { token: home.token });
      const admittedAt = (await residentRow(app, resident)).admittedAt;
      app.clock.advance(3_600_000);
      const ask = await app.call(userCheckIn, { userId: resident, bunkId: to }, { token: home.token });
      expect(ask.msgKey).toBe('bed.confirmMove');
      expect(ask.msg).toBe('Please confirm: Wu Mei is in Mover / 3F / 301 / 1; they will move to this bed.');
      const zh = await app.call(userCheckIn, { userId: resident, bunkId: to }, { token: home.token, lang: 'zh-CN' });
      expect(zh.msg).toBe('请确认：住户 Wu Mei 已入住 Mover / 3F / 301 / 1，将移到本床位。');
      expect(conflictsOf(ask)).toEqual([expect.objectContaining({ kind: 'resident', bunkId: from, userId: resident })]);
      const moved = await app.call(
        userCheckIn,
        { userId: resident, bunkId: to, confirm: 'true' },
        { token: home.token },
      );
      expect(moved.status).toBe(200);
      expect((await bedRow(app, from)).residentId).toBeNull();
      expect((await bedRow(app, to)).residentId).toBe(resident);
      expect(await residentRow(app, resident)).toMatchObject({ state: 'checkedIn', admittedAt });
      // Checking in to the bed one is already in is a no-op, not a question.
      const same = await app.call(userCheckIn, { userId: resident, bunkId: to }, { token: home.token });
      expect(same.status).toBe(200);
    });

    it('treats another tenant’s residents and beds as missing', async () => {
      const mine = await makePlace(app, home.token, { area: 'Tenant Beds', beds: ['1'] });
      const theirs = await makePlace(app, stranger.token, { area: 'Stranger Beds', beds: ['1'] });
      const myResident = await makeResident(app, home.id, 'Mine');
      const theirResident = await makeResident(app, stranger.id, 'Theirs');
      await app.call(userCheckIn, { userId: theirResident, bunkId: theirs.bedIds[0] ?? 0 }, { token: stranger.token });
      for (const res of [
        await app.call(userCheckIn, { userId: theirResident, bunkId: mine.bedIds[0] ?? 0 }, { token: home.token }),
        await app.call(userCheckIn, { userId: myResident, bunkId: theirs.bedIds[0] ?? 0 }, { token: home.token }),
        await app.call(bunkCheckOut, { userId: theirResident }, { token: home.token }),
        await app.call(
          updateBunk,
          { id: mine.bedIds[0] ?? 0, userId: theirResident, confirm: true },
          { token: home.token },
        ),
      ]) {
        expect([res.status, res.msgKey]).toEqual([300, 'not_found']);
      }
      expect((await bedRow(app, theirs.bedIds[0] ?? 0)).residentId).toBe(theirResident);
    });
  });

  describe('saving a bed with a device and a resident', () => {
    it('links a bed device of the same provider and refuses wrong types and unknown devices', async () => {
      const place = await makePlace(app, home.token, { area: 'Devices', beds: ['1'] });
      const bed = place.bedIds[0] ?? 0;
      await makeDevice(app, home.id, 'SLEEP-0001', 49);
      await makeDevice(app, home.id, 'RADAR-0001', 21011);
      await makeDevice(app, home.id, 'SMOKE-0001', 20996);
      await makeDevice(app, stranger.id, 'SLEEP-9999', 52);
      const linked = await app.call(updateBunk, { id: bed, deviceId: 'sleep-0001' }, { token: home.token });
      expect(linked.data).toMatchObject({ deviceId: 'SLEEP-0001', deviceType: 49, deviceOnline: false });
      const radar = await app.call(updateBunk, { id: bed, deviceId: 'RADAR-0001' }, { token: home.token });
      expect(radar.data?.deviceId).toBe('RADAR-0001');
      const smoke = await app.call(updateBunk, { id: bed, deviceId: 'SMOKE-0001' }, { token: home.token });
      expect([smoke.status, smoke.msgKey, smoke.msg]).toEqual([
        300,
        'bed.deviceType',
        'Device SMOKE-0001 cannot be linked to a bed: only sleep monitors and fall radars can.',
      ]);
      for (const code of ['SLEEP-9999', 'NO-SUCH-1']) {
        const res = await app.call(updateBunk, { id: bed, deviceId: code }, { token: home.token });
        expect([res.status, res.msgKey, res.msg]).toEqual([
          300,
          'bed.deviceNotFound',
          'No device with this device ID is among your devices.',
        ]);
      }
      expect((await bedRow(app, bed)).deviceId).not.toBeNull();
      const unlinked = await app.call(updateBunk, { id: bed, deviceId: null }, { token: home.token });
      expect(unlinked.data?.deviceId).toBeNull();
    });

    it('refuses a device or resident of another provider the caller also sees', async () => {
      const group = await tenant('Occupancy Group');
      const child = await tenant('Occupancy Child', group.id);
      const groupPlace = await makePlace(app, group.token, { area: 'Group Beds', beds: ['1'] });
      await makeDevice(app, child.id, 'CHILD-SLEEP', 59);
      const childResident = await makeResident(app, child.id, 'Child Resident');
      const device = await app.call(
        updateBunk,
        { id: groupPlace.bedIds[0] ?? 0, deviceId: 'CHILD-SLEEP' },
        { token: group.token },
      );
      expect([device.status, device.msgKey]).toEqual([300, 'bed.deviceOtherProvider']);
      const resident = await app.call(
        userCheckIn,
        { userId: childResident, bunkId: groupPlace.bedIds[0] ?? 0 },
        { token: group.token },
      );
      expect([resident.status, resident.msgKey, resident.msg]).toEqual([
        300,
        'bed.residentOtherProvider',
        'This resident belongs to a different provider than this bed.',
      ]);
    });

    it('asks before moving a device from another bed, then moves it atomically', async () => {
      const place = await makePlace(app, home.token, { area: 'Device Move', floor: 'F1', room: 'R', beds: ['1', '2'] });
      const [from = 0, to = 0] = place.bedIds;
      const device = await makeDevice(app, home.id, 'MOVE-SLEEP-1', 20489);
      await app.call(updateBunk, { id: from, deviceId: device.code }, { token: home.token });
      const ask = await app.call(updateBunk, { id: to, deviceId: device.code, name: 'Two' }, { token: home.token });
      expect([ask.status, ask.msgKey, ask.msg]).toEqual([
        300,
        'bed.confirmMove',
        'Please confirm: device MOVE-SLEEP-1 is linked to Device Move / F1 / R / 1; it will move to this bed.',
      ]);
      expect(conflictsOf(ask)).toEqual([
        {
          kind: 'device',
          bunkId: from,
          bunkPath: 'Device Move / F1 / R / 1',
          deviceId: 'MOVE-SLEEP-1',
          userId: null,
          userName: null,
        },
      ]);
      // Nothing was saved, not even the name.
      expect((await bedRow(app, to)).name).toBe('2');
      expect((await bedRow(app, to)).deviceId).toBeNull();
      const done = await app.call(
        updateBunk,
        { id: to, deviceId: device.code, name: 'Two', confirm: true },
        { token: home.token },
      );
      expect(done.data).toMatchObject({ name: 'Two', deviceId: 'MOVE-SLEEP-1' });
      expect((await bedRow(app, from)).deviceId).toBeNull();
      expect(await bedsHolding(app, { deviceRowId: device.id })).toHaveLength(1);
    });

    it('lists every conflict when both the device and the resident are elsewhere and the bed is occupied', async () => {
      const place = await makePlace(app, home.token, {
        area: 'All Conflicts',
        floor: 'F',
        room: 'R',
        beds: ['1', '2', '3'],
      });
      const [a = 0, b = 0, c = 0] = place.bedIds;
      const device = await makeDevice(app, home.id, 'ALL-SLEEP-1', 52);
      const mover = await makeResident(app, home.id, 'Mover');
      const sitter = await makeResident(app, home.id, 'Sitter');
      await app.call(updateBunk, { id: a, deviceId: device.code, userId: mover }, { token: home.token });
      await app.call(updateBunk, { id: c, userId: sitter }, { token: home.token });
      const ask = await app.call(updateBunk, { id: c, deviceId: device.code, userId: mover }, { token: home.token });
      expect(ask.msgKey).toBe('bed.confirmMove');
      expect(conflictsOf(ask).map((x) => [x.kind, x.bunkId])).toEqual([
        ['device', a],
        ['resident', a],
        ['occupant', c],
      ]);
      expect(ask.msg).toBe(
        'Please confirm: device ALL-SLEEP-1 is linked to All Conflicts / F / R / 1; it will move to this bed; ' +
          'Mover is in All Conflicts / F / R / 1; they will move to this bed; ' +
          'this bed is occupied by Sitter, who will be checked out.',
      );
      const done = await app.call(
        updateBunk,
        { id: c, deviceId: device.code, userId: mover, confirm: true },
        { token: home.token },
      );
      expect(done.data).toMatchObject({ deviceId: 'ALL-SLEEP-1', userId: mover });
      expect(await bedRow(app, a)).toMatchObject({ deviceId: null, residentId: null });
      expect((await bedRow(app, b)).residentId).toBeNull();
      expect((await residentRow(app, sitter)).state).toBe('checkedOut');
      expect((await residentRow(app, mover)).state).toBe('checkedIn');
    });

    it('checks the resident out when the bed is saved without one', async () => {
      const place = await makePlace(app, home.token, { area: 'Clear Resident', beds: ['1'] });
      const resident = await makeResident(app, home.id, 'Leaving');
      await app.call(updateBunk, { id: place.bedIds[0] ?? 0, userId: resident }, { token: home.token });
      const cleared = await app.call(updateBunk, { id: place.bedIds[0] ?? 0, userId: null }, { token: home.token });
      expect(cleared.data?.userId).toBeNull();
      expect((await residentRow(app, resident)).state).toBe('checkedOut');
      const listed = await app.call(bunkList, { keyWord: 'Clear Resident', free: true }, { token: home.token });
      expect(listed.data?.rows.map((r) => r.id)).toEqual(place.bedIds);
    });

    it('keeps a device on one bed and a resident in one bed through any sequence of saves', async () => {
      const place = await makePlace(app, home.token, { area: 'Shuffle', beds: ['1', '2', '3'] });
      const device = await makeDevice(app, home.id, 'SHUFFLE-1', 49);
      const resident = await makeResident(app, home.id, 'Shuffler');
      for (const bed of [...place.bedIds, ...place.bedIds.slice().reverse()]) {
        const res = await app.call(
          updateBunk,
          { id: bed, deviceId: device.code, userId: resident, confirm: true },
          { token: home.token },
        );
        expect(res.status).toBe(200);
        expect(await bedsHolding(app, { deviceRowId: device.id })).toEqual([expect.objectContaining({ id: bed })]);
        expect(await bedsHolding(app, { residentId: resident })).toEqual([expect.objectContaining({ id: bed })]);
      }
      const room = await app.call(getBunkListByRoomId, { roomId: place.roomId }, { token: home.token });
      expect(room.data?.filter((b) => b.userId === resident)).toHaveLength(1);
    });
  });
});
