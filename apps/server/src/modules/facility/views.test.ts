import {
  bunkList,
  bunkSummary,
  changeProvider,
  getAdminBunkList,
  getAreaWithRoomList,
  getBunkConfiguration,
  getBunkRoomList,
  getBunksByRoomName,
  getRoomList,
  getUserBunkList,
  updateBunk,
} from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { providers } from '../../db/schema.ts';
import { makeAccount, makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { makeDevice, makePlace, makeResident } from './facility.fixtures.ts';

describeEachDb('facility lists, tree and summary (%s)', (target) => {
  let app: TestApp;
  let admin: string;
  let group: { id: number; token: string };
  let child: { id: number; token: string };
  let stranger: { id: number; token: string };

  const tenant = async (name: string, parentId?: number) => {
    const p = await makeProvider(app, admin, name, parentId ? { parentId } : {});
    return { id: p.id, token: await app.login(p.userName, p.password) };
  };

  beforeAll(async () => {
    app = await createTestApp(target);
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    group = await tenant('Views Group');
    child = await tenant('Views Child', group.id);
    stranger = await tenant('Views Stranger');
    // Group: East (1F: 101 with 3 beds, 102 with 1 bed; 2F: no rooms) and West (no floors).
    const east = await makePlace(app, group.token, { area: 'East', floor: '1F', room: '101', beds: ['1', '2', '3'] });
    const { insertArea, insertRoom, batchAddBunk } = await import('@vigil/contract');
    const room102 = await app.call(insertRoom, { floorId: east.floorId, name: '102' }, { token: group.token });
    await app.call(batchAddBunk, { roomId: room102.data?.ids[0] ?? 0, name: '1' }, { token: group.token });
    await app.call(insertArea, { name: '2F', areaId: east.areaId, sort: 2 }, { token: group.token });
    await app.call(insertArea, { name: 'West', sort: 5 }, { token: group.token });
    const resident = await makeResident(app, group.id, 'Feng Qi');
    const device = await makeDevice(app, group.id, 'VIEW-SLEEP-1', 49);
    const [bed1 = 0, bed2 = 0] = east.bedIds;
    await app.call(updateBunk, { id: bed1, userId: resident, deviceId: device.code }, { token: group.token });
    await makeDevice(app, group.id, 'VIEW-SLEEP-2', 52);
    await app.call(updateBunk, { id: bed2, deviceId: 'VIEW-SLEEP-2' }, { token: group.token });
    // Child provider: one bed in a room also called 101; stranger: the same names.
    await makePlace(app, group.token, { area: 'Child House', room: '101', beds: ['C1'], providerId: child.id });
    await makePlace(app, stranger.token, { area: 'East', room: '101', beds: ['S1'] });
  });
  afterAll(() => app?.close());

  it('answers the tree of the chosen provider with counts on every node, a subordinate on request, nothing foreign', async () => {
    const tree = await app.call(getAreaWithRoomList, {}, { token: group.token });
    expect(tree.status).toBe(200);
    const names = tree.data?.map((a) => [a.providerName, a.name]);
    expect(names).toEqual([
      ['Views Group', 'East'],
      ['Views Group', 'West'],
    ]);
    const east = tree.data?.find((a) => a.name === 'East');
    expect(east).toMatchObject({ bedCount: 4, occupiedCount: 1, freeCount: 3, deviceCount: 2 });
    expect(
      east?.floors.map((f) => [f.name, f.bedCount, f.rooms.map((r) => [r.name, r.bedCount, r.occupiedCount])]),
    ).toEqual([
      [
        '1F',
        4,
        [
          ['101', 3, 1],
          ['102', 1, 0],
        ],
      ],
      ['2F', 0, []],
    ]);
    expect(tree.data?.find((a) => a.name === 'West')).toMatchObject({ bedCount: 0, floors: [] });
    const childOnly = await app.call(getAreaWithRoomList, { providerId: child.id }, { token: group.token });
    expect(childOnly.data?.map((a) => a.name)).toEqual(['Child House']);
    const foreign = await app.call(getAreaWithRoomList, { providerId: stranger.id }, { token: group.token });
    expect(foreign.data).toEqual([]);
  });

  it('follows the provider chosen in the console', async () => {
    const chosen = await app.call(changeProvider, { domain: await domainOf(child.id) }, { token: group.token });
    expect(chosen.status).toBe(200);
    const tree = await app.call(getAreaWithRoomList, {}, { token: group.token });
    expect(tree.data?.map((a) => a.name)).toEqual(['Child House']);
    await app.call(changeProvider, { domain: await domainOf(group.id) }, { token: group.token });
    const back = await app.call(getAreaWithRoomList, {}, { token: group.token });
    expect(back.data?.map((a) => a.name)).toEqual(['East', 'West']);
    // Asking for a visible provider explicitly still works while another one is chosen.
    const explicit = await app.call(bunkSummary, { providerId: child.id }, { token: group.token });
    expect(explicit.data?.total).toBe(1);
  });

  it('sums beds overall and per area', async () => {
    const summary = await app.call(bunkSummary, { providerId: group.id }, { token: group.token });
    expect(summary.data).toEqual({
      total: 4,
      occupied: 1,
      free: 3,
      withDevice: 2,
      withoutDevice: 2,
      areas: [
        expect.objectContaining({
          areaName: 'East',
          providerName: 'Views Group',
          total: 4,
          occupied: 1,
          free: 3,
          withDevice: 2,
        }),
        expect.objectContaining({ areaName: 'West', total: 0, occupied: 0, free: 0, withDevice: 0 }),
      ],
    });
    const strangerSummary = await app.call(bunkSummary, {}, { token: stranger.token });
    expect(strangerSummary.data).toMatchObject({
      total: 1,
      occupied: 0,
      areas: [expect.objectContaining({ areaName: 'East' })],
    });
  });

  it('filters the bed list by keyword, area, room, occupancy and device, with pages', async () => {
    const all = await app.call(bunkList, { providerId: group.id }, { token: group.token });
    expect(all.data?.total).toBe(4);
    expect(all.data?.rows.map((b) => `${b.roomName}/${b.name}`)).toEqual(['101/1', '101/2', '101/3', '102/1']);
    const byResident = await app.call(bunkList, { keyWord: 'feng' }, { token: group.token });
    expect(byResident.data?.rows.map((b) => [b.name, b.userName, b.deviceId])).toEqual([
      ['1', 'Feng Qi', 'VIEW-SLEEP-1'],
    ]);
    const byDevice = await app.call(bunkList, { keyWord: 'sleep-2' }, { token: group.token });
    expect(byDevice.data?.rows.map((b) => b.name)).toEqual(['2']);
    const free = await app.call(bunkList, { providerId: group.id, free: true }, { token: group.token });
    expect(free.data?.total).toBe(3);
    const occupied = await app.call(bunkList, { providerId: group.id, free: false }, { token: group.token });
    expect(occupied.data?.total).toBe(1);
    const noDevice = await app.call(bunkList, { providerId: group.id, hasDevice: false }, { token: group.token });
    expect(noDevice.data?.rows.map((b) => `${b.roomName}/${b.name}`)).toEqual(['101/3', '102/1']);
    const page2 = await app.call(bunkList, { providerId: group.id, pageNum: 2, pageSize: 3 }, { token: group.token });
    expect(page2.data).toMatchObject({
      total: 4,
      pageNum: 2,
      pageSize: 3,
      rows: [expect.objectContaining({ roomName: '102' })],
    });
    const like = await app.call(bunkList, { keyWord: '%' }, { token: group.token });
    expect(like.data?.total).toBe(0);
    const users = await app.call(
      getUserBunkList,
      { free: 'true', roomId: all.data?.rows[0]?.roomId ?? 0 },
      { token: group.token },
    );
    expect(users.data?.rows.map((b) => b.name)).toEqual(['2', '3']);
  });

  it('lists rooms with counts, and beds by room name across floors and providers in scope', async () => {
    const rooms = await app.call(getRoomList, { providerId: group.id }, { token: group.token });
    expect(
      rooms.data?.rows.map((r) => [r.areaName, r.floorName, r.name, r.bedCount, r.occupiedCount, r.deviceCount]),
    ).toEqual([
      ['East', '1F', '101', 3, 1, 2],
      ['East', '1F', '102', 1, 0, 0],
    ]);
    const all = await app.call(getBunkRoomList, {}, { token: group.token });
    expect(all.data?.map((r) => `${r.providerName}:${r.name}`)).toEqual(['Views Group:101', 'Views Group:102']);
    const named = await app.call(getBunksByRoomName, { roomName: '101' }, { token: group.token });
    expect(named.data?.map((b) => `${b.providerName}:${b.name}`)).toEqual([
      'Views Group:1',
      'Views Group:2',
      'Views Group:3',
    ]);
    // A platform administrator sees every provider's room 101.
    const everywhere = await app.call(getBunksByRoomName, { roomName: '101' }, { token: admin });
    expect(everywhere.data?.map((b) => b.name)).toEqual(expect.arrayContaining(['C1', '1', 'S1']));
    const east = all.data?.[0]?.areaId ?? 0;
    const inArea = await app.call(getBunksByRoomName, { roomName: '101', areaId: east }, { token: admin });
    expect(inArea.data?.map((b) => b.name)).toEqual(['1', '2', '3']);
    const strangerNamed = await app.call(getBunksByRoomName, { roomName: '101' }, { token: stranger.token });
    expect(strangerNamed.data?.map((b) => b.name)).toEqual(['S1']);
  });

  it('offers the bed picker with only free beds when asked', async () => {
    const config = await app.call(getBunkConfiguration, { providerId: group.id, free: true }, { token: group.token });
    expect(config.data?.mattresses).toEqual(['sponge', 'spring', 'latex']);
    expect(config.data?.deviceTypes).toEqual([49, 52, 59, 20489, 21007, 21011]);
    const east = config.data?.areas.find((a) => a.name === 'East');
    expect(east?.floors[0]?.rooms.map((r) => [r.name, r.beds.map((b) => b.name)])).toEqual([
      ['101', ['2', '3']],
      ['102', ['1']],
    ]);
    const full = await app.call(getBunkConfiguration, { providerId: group.id }, { token: group.token });
    const bed1 = full.data?.areas[0]?.floors[0]?.rooms[0]?.beds[0];
    expect(bed1).toMatchObject({ name: '1', userName: 'Feng Qi', deviceId: 'VIEW-SLEEP-1' });
  });

  it('gives platform roles every bed in their scope, and nobody else the admin list', async () => {
    const everything = await app.call(getAdminBunkList, { pageSize: 1000 }, { token: admin });
    const names = everything.data?.rows.map((b) => `${b.providerName}:${b.name}`) ?? [];
    expect(names).toEqual(expect.arrayContaining(['Views Child:C1', 'Views Group:1', 'Views Stranger:S1']));
    const narrowed = await makeAccount(app, admin, 'viewsSenior', 'SENIOR_ROLE', {
      permissionType: 1,
      providerIds: [stranger.id],
    });
    const seniorToken = await app.login(narrowed.userName, narrowed.password);
    const mine = await app.call(getAdminBunkList, {}, { token: seniorToken });
    expect(mine.data?.rows.map((b) => b.name)).toEqual(['S1']);
    const refused = await app.call(getAdminBunkList, {}, { token: group.token });
    expect([refused.status, refused.msgKey]).toEqual([300, 'no_permission']);
  });

  const domainOf = async (id: number) => {
    const [row] = await app.database.db.select().from(providers).where(eq(providers.id, id));
    return row?.domain ?? '';
  };
});
