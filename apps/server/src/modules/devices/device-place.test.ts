import { deviceCalls } from '@vigil/contract';
import { DEVICE_CONTEXT_CHANGED } from '../../core/event-catalogue.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caregivers } from '../../db/schema.ts';
import type { PublishedEvent } from '../../core/events.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { addDevice, deviceWorld, linkBed, loadStock, placeBed, T, type DeviceWorld } from './device-test-support.ts';

const { getDeviceList, insertDevice, updateDevice } = deviceCalls;

describeEachDb('device places (%s)', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  let a: Awaited<ReturnType<typeof placeBed>>;
  let a2: Awaited<ReturnType<typeof placeBed>>;
  let b: Awaited<ReturnType<typeof placeBed>>;
  let caregiverId: number;
  const moves: PublishedEvent[] = [];

  const rowOf = async (deviceId: string, filter: Record<string, unknown> = {}) => {
    const res = await app.call(
      getDeviceList,
      { pageSize: 100, keyWord: deviceId, ...filter },
      { token: w.aHome.token },
    );
    expect(res.status, res.msg).toBe(200);
    return res.data?.rows.find((r) => r.deviceId === deviceId);
  };
  const update = (input: Record<string, unknown>, lang = 'en-US') =>
    app.call(updateDevice, input as never, { token: w.aHome.token, lang });

  beforeAll(async () => {
    app = await createTestApp(target);
    app.services.events.subscribe((e) => moves.push(e), [DEVICE_CONTEXT_CHANGED]);
    w = await deviceWorld(app, 'Plc');
    await loadStock(app, w.admin, [
      { deviceId: 'PLC-DOOR1', deviceType: T.door },
      { deviceId: 'PLC-SOS1', deviceType: T.sos },
      { deviceId: 'PLC-SOS2', deviceType: T.sos },
      { deviceId: 'PLC-SLP1', deviceType: T.sleep },
      { deviceId: 'PLC-BDG1', deviceType: T.badge },
      { deviceId: 'PLC-WCH1', deviceType: T.watch },
      { deviceId: 'PLC-SMK1', deviceType: T.smoke },
    ]);
    a = await placeBed(app, w.aHome.id, { area: 'Plc Main', room: '102', bed: 'A', resident: 'Edith Warren' });
    a2 = await placeBed(app, w.aHome.id, { area: 'Plc East', room: '205', bed: 'B' });
    b = await placeBed(app, w.bGroup.id, { area: 'Plc Foreign', room: '900', bed: 'Z', resident: 'Stranger' });
    for (const [id, type] of [
      ['PLC-DOOR1', T.door],
      ['PLC-SOS1', T.sos],
      ['PLC-SLP1', T.sleep],
      ['PLC-BDG1', T.badge],
      ['PLC-WCH1', T.watch],
    ] as const)
      await addDevice(app, w.aHome.token, id, type);
    const [carer] = await app.database.db
      .insert(caregivers)
      .values({ providerId: w.aHome.id, name: 'Nora Quinn', phone: '13900000046' })
      .returning();
    caregiverId = carer?.id ?? 0;
  });
  afterAll(() => app?.close());

  describe('placing, moving and clearing', () => {
    it('places a door sensor in a room: the list names room, floor and area, and the move is announced', async () => {
      moves.length = 0;
      const res = await update({ deviceId: 'PLC-DOOR1', roomId: a.roomId });
      expect(res.status, res.msg).toBe(200);
      expect(await rowOf('PLC-DOOR1')).toMatchObject({
        placeKind: 'room',
        roomId: a.roomId,
        roomName: '102',
        floorName: 'Plc Main F1',
        areaName: 'Plc Main',
        bunkId: null,
        userName: null,
      });
      expect(moves.some((e) => (e.payload as { deviceIds: string[] }).deviceIds.includes('PLC-DOOR1'))).toBe(true);
    });

    it('moves it to a bed of another room (the bed names its resident), then to a floor, then clears it', async () => {
      expect((await update({ deviceId: 'PLC-DOOR1', bunkId: a.bedId })).status).toBe(200);
      expect(await rowOf('PLC-DOOR1')).toMatchObject({
        placeKind: 'bed',
        bunkName: 'A',
        roomName: '102',
        userName: 'Edith Warren',
      });
      expect((await update({ deviceId: 'PLC-DOOR1', areaId: a2.floorId })).status).toBe(200);
      expect(await rowOf('PLC-DOOR1')).toMatchObject({
        placeKind: 'area',
        roomName: null,
        floorName: 'Plc East F1',
        areaName: 'Plc East',
      });
      // An edit without place fields keeps the place.
      expect((await update({ deviceId: 'PLC-DOOR1', name: 'Exit door' })).status).toBe(200);
      expect(await rowOf('PLC-DOOR1')).toMatchObject({ placeKind: 'area', name: 'Exit door' });
      moves.length = 0;
      expect((await update({ deviceId: 'PLC-DOOR1', areaId: null })).status).toBe(200);
      expect(await rowOf('PLC-DOOR1')).toMatchObject({ placeKind: null, roomName: null, floorName: null });
      expect(moves).toHaveLength(1);
    });

    it('places a device as it is added', async () => {
      const res = await app.call(
        insertDevice,
        { deviceId: 'PLC-SOS2', deviceType: T.sos, roomId: a.roomId, bunkId: a.bedId },
        { token: w.aHome.token },
      );
      expect(res.status, res.msg).toBe(200);
      expect(await rowOf('PLC-SOS2')).toMatchObject({ placeKind: 'bed', bunkName: 'A', userName: 'Edith Warren' });
    });

    it('a badge is worn by a resident (their bed and room follow), a nurse watch by a caregiver', async () => {
      expect((await update({ deviceId: 'PLC-BDG1', userId: a.residentId })).status).toBe(200);
      expect(await rowOf('PLC-BDG1')).toMatchObject({
        placeKind: 'resident',
        userName: 'Edith Warren',
        bunkName: 'A',
        roomName: '102',
      });
      expect((await update({ deviceId: 'PLC-WCH1', caregiverId })).status).toBe(200);
      expect(await rowOf('PLC-WCH1')).toMatchObject({ placeKind: 'caregiver', caregiverName: 'Nora Quinn' });
    });

    it('a sleep monitor keeps its place from its bed link', async () => {
      await linkBed(app, a2.bedId, 'PLC-SLP1');
      expect(await rowOf('PLC-SLP1')).toMatchObject({ placeKind: 'bed', bunkName: 'B', roomName: '205' });
      const res = await update({ deviceId: 'PLC-SLP1', roomId: a.roomId });
      expect(res.msgKey).toBe('device.placedByBed');
    });

    it('filters the list by room, by floor or area, and by whether a place is set', async () => {
      await update({ deviceId: 'PLC-SOS1', roomId: a.roomId });
      const ids = async (filter: Record<string, unknown>) => {
        const res = await app.call(getDeviceList, { pageSize: 100, ...filter }, { token: w.aHome.token });
        return (res.data?.rows ?? []).map((r) => r.deviceId).sort();
      };
      expect(await ids({ roomId: a.roomId })).toEqual(['PLC-BDG1', 'PLC-SOS1', 'PLC-SOS2']);
      expect(await ids({ areaId: a.areaId })).toEqual(['PLC-BDG1', 'PLC-SOS1', 'PLC-SOS2']);
      expect(await ids({ areaId: a2.floorId })).toEqual(['PLC-SLP1']);
      expect(await ids({ placed: false })).toEqual(['PLC-DOOR1']);
    });
  });

  describe('refusals', () => {
    it('never accepts another provider’s room, bed, area or resident, in the caller’s language', async () => {
      for (const place of [{ roomId: b.roomId }, { bunkId: b.bedId }, { areaId: b.areaId }]) {
        const res = await update({ deviceId: 'PLC-SOS1', ...place });
        expect(res.msgKey, JSON.stringify(place)).toBe('device.placeOtherProvider');
      }
      const badge = await update({ deviceId: 'PLC-BDG1', userId: b.residentId }, 'zh-CN');
      expect(badge.msgKey).toBe('device.placeOtherProvider');
      expect(badge.msg).toMatch(/服务商/);
      const added = await app.call(
        insertDevice,
        { deviceId: 'PLC-SMK1', deviceType: T.smoke, roomId: b.roomId },
        { token: w.aHome.token },
      );
      expect(added.msgKey).toBe('device.placeOtherProvider');
      // Refused: nothing changed, nothing added.
      expect(await rowOf('PLC-SOS1')).toMatchObject({ placeKind: 'room', roomName: '102' });
      expect(await rowOf('PLC-SMK1')).toBeUndefined();
    });

    it('refuses two places, a bed of another room, a missing place and places that do not fit the kind', async () => {
      const key = async (input: Record<string, unknown>) => (await update(input)).msgKey;
      expect(await key({ deviceId: 'PLC-SOS1', roomId: a.roomId, areaId: a.areaId })).toBe('device.placeOneOnly');
      expect(await key({ deviceId: 'PLC-SOS1', roomId: a2.roomId, bunkId: a.bedId })).toBe('device.placeBedNotInRoom');
      expect(await key({ deviceId: 'PLC-SOS1', roomId: 999_999 })).toBe('device.placeNotFound');
      expect(await key({ deviceId: 'PLC-SOS1', userId: a.residentId })).toBe('device.placeNotWorn');
      expect(await key({ deviceId: 'PLC-BDG1', roomId: a.roomId })).toBe('device.placeWorn');
      expect(await key({ deviceId: 'PLC-BDG1', caregiverId })).toBe('device.placeNotWorn');
    });
  });
});
