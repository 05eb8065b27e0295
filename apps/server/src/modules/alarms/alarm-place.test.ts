import { alarmCalls, deviceCalls, topicOf, type AlarmRecord } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { addDevice, deviceWorld, loadStock, placeBed, T, type DeviceWorld } from '../devices/device-test-support.ts';
import { minuteOfDayIn } from './local-time.ts';

/** Alarms name the place of their device, stamped at raise time (decision 0046). */
describeEachDb('alarms name the device’s place (%s)', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  let r102: Awaited<ReturnType<typeof placeBed>>;
  let r205: Awaited<ReturnType<typeof placeBed>>;
  const clock = new ManualClock(new Date());
  let seq = 1;

  const ingest = (deviceId: string, body: Record<string, unknown>) =>
    app.services.gateway.ingest.handle(
      topicOf(deviceId, 'event'),
      Buffer.from(JSON.stringify({ ts: clock.now().getTime() / 1000, seq: seq++, ...body })),
    );
  const place = async (deviceId: string, input: Record<string, unknown>) => {
    const res = await app.call(deviceCalls.updateDevice, { deviceId, ...input } as never, { token: w.aHome.token });
    expect(res.status, res.msg).toBe(200);
  };
  const records = async (open: boolean, deviceId: string, lang = 'en-US'): Promise<AlarmRecord[]> => {
    const res = await app.call(
      open ? alarmCalls.alarmLogUnDeal : alarmCalls.alarmLog,
      { pageSize: 100, keyWord: deviceId },
      { token: w.aHome.token, lang },
    );
    expect(res.status, res.msg).toBe(200);
    return res.data?.rows ?? [];
  };

  beforeAll(async () => {
    app = await createTestApp(target, { clock });
    // 23:00 in the beds' day, before anyone signs in: inside the default door range (22:00–06:00).
    const minute = minuteOfDayIn(app.config.timeZone)(clock.now());
    clock.advance(((23 * 60 - minute + 1440) % 1440) * 60_000);
    w = await deviceWorld(app, 'APl');
    const rows = [
      { deviceId: 'APL-SOS1', deviceType: T.sos },
      { deviceId: 'APL-DOOR1', deviceType: T.door },
      { deviceId: 'APL-SMK1', deviceType: T.smoke },
      { deviceId: 'APL-BDG1', deviceType: T.badge },
    ];
    await loadStock(app, w.admin, rows);
    for (const { deviceId, deviceType } of rows) await addDevice(app, w.aHome.token, deviceId, deviceType);
    r102 = await placeBed(app, w.aHome.id, { area: 'APl Main', room: '102', bed: 'A', resident: 'Edith Warren' });
    r205 = await placeBed(app, w.aHome.id, { area: 'APl East', room: '205', bed: 'B' });
    await app.services.gateway.directory.load();
  });
  afterAll(() => app?.close());

  it('an SOS from a call button placed at a bed names the bed, its room and its resident', async () => {
    await place('APL-SOS1', { bunkId: r102.bedId });
    await ingest('APL-SOS1', { event: 'sos' });
    const [record] = await records(true, 'APL-SOS1');
    expect(record).toMatchObject({
      alertType: 'SOS',
      bunk: 'A',
      room: '102',
      floorArea: 'APl Main / APl Main F1',
      userName: 'Edith Warren',
      userId: r102.residentId,
    });
    expect(record?.text).toBe('102 A: Edith Warren pressed the emergency button');
    const [zh] = await records(true, 'APL-SOS1', 'zh-CN');
    expect(zh?.text.startsWith('102 A')).toBe(true);
  });

  it('a door alarm names the room and the door, place first', async () => {
    await place('APL-DOOR1', { roomId: r102.roomId, name: 'Bathroom door' });
    await ingest('APL-DOOR1', { event: 'door', open: true });
    const [record] = await records(true, 'APL-DOOR1');
    expect(record).toMatchObject({ alertType: 'DOOR', room: '102', bunk: null, userName: null });
    expect(record?.text).toBe('Room 102 · Bathroom door: a door or window was opened');
    const [de] = await records(true, 'APL-DOOR1', 'de');
    expect(de?.text.startsWith('Zimmer 102 · Bathroom door')).toBe(true);
  });

  it('a badge names who wears it, with their bed', async () => {
    await place('APL-BDG1', { userId: r102.residentId });
    await ingest('APL-BDG1', { event: 'badge_sos' });
    const [record] = await records(true, 'APL-BDG1');
    expect(record).toMatchObject({ alertType: 'BADGE_SOS', userName: 'Edith Warren', bunk: 'A', room: '102' });
  });

  it('a move applies to the very next alarm, without waiting for a reload', async () => {
    await place('APL-SMK1', { areaId: r102.floorId });
    await ingest('APL-SMK1', { event: 'smoke', active: true });
    await ingest('APL-SMK1', { event: 'smoke', active: false });
    await place('APL-SMK1', { roomId: r205.roomId });
    await ingest('APL-SMK1', { event: 'smoke', active: true });
    // Newest first: the alarm raised after the move, then the one before it (cleared, pending until handled).
    const [open, before] = await records(true, 'APL-SMK1');
    expect(open).toMatchObject({ alertType: 'SMOKE', room: '205', floorArea: 'APl East / APl East F1' });
    expect(open?.text.startsWith('Room 205')).toBe(true);
    // The earlier alarm keeps where it was raised: the floor, no room.
    expect(before).toMatchObject({ room: null, floorArea: 'APl Main / APl Main F1' });
    expect(before?.text.startsWith('APl Main F1')).toBe(true);
  });
});
