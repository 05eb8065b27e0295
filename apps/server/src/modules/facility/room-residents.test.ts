import { deleteBunk, getAreaWithRoomList, updateBunk } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { makePlace, makeResident } from './facility.fixtures.ts';

/** The tree's room residentCount: what lets the console disable "delete room" before the server refuses it. */
describeEachDb('facility tree: residents per room (%s)', (target) => {
  let app: TestApp;
  let home: { id: number; token: string };
  let other: { id: number; token: string };

  const tenant = async (admin: string, name: string) => {
    const p = await makeProvider(app, admin, name);
    return { id: p.id, token: await app.login(p.userName, p.password) };
  };
  const roomNode = async (token: string, roomId: number) => {
    const tree = await app.call(getAreaWithRoomList, {}, { token });
    return tree.data?.flatMap((a) => a.floors.flatMap((f) => f.rooms)).find((r) => r.id === roomId);
  };
  const callerOf = async (token: string) => {
    const outcome = await app.services.sessions.authenticate(token);
    if (outcome.kind !== 'ok') throw new Error('no session');
    return outcome.caller;
  };

  beforeAll(async () => {
    app = await createTestApp(target);
    const admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    home = await tenant(admin, 'Room Residents Home');
    other = await tenant(admin, 'Room Residents Other');
  });
  afterAll(() => app?.close());

  it('counts the residents whose address a room is, until they are logged off', async () => {
    const place = await makePlace(app, home.token, { area: 'Address House', beds: ['1'] });
    const bed = place.bedIds[0] ?? 0;
    expect(await roomNode(home.token, place.roomId)).toMatchObject({ bedCount: 1, residentCount: 0 });

    const resident = await makeResident(app, home.id, 'Zhou Lan');
    await app.call(updateBunk, { id: bed, userId: resident }, { token: home.token });
    expect(await roomNode(home.token, place.roomId)).toMatchObject({ occupiedCount: 1, residentCount: 1 });

    // Checked out and the bed gone: no beds left, yet the room is still her address.
    await app.call(updateBunk, { id: bed, userId: null }, { token: home.token });
    expect((await app.call(deleteBunk, { id: bed }, { token: home.token })).status).toBe(200);
    expect(await roomNode(home.token, place.roomId)).toMatchObject({ bedCount: 0, residentCount: 1 });

    await app.services.facility.occupancy.logOff({ caller: await callerOf(home.token), ip: '127.0.0.1' }, resident);
    expect(await roomNode(home.token, place.roomId)).toMatchObject({ bedCount: 0, residentCount: 0 });
  });

  it('counts only the rooms of the caller’s own tree', async () => {
    const mine = await makePlace(app, home.token, { area: 'Own House', beds: ['1'] });
    const theirs = await makePlace(app, other.token, { area: 'Their House', beds: ['1'] });
    const resident = await makeResident(app, other.id, 'Qian Hui');
    await app.call(updateBunk, { id: theirs.bedIds[0] ?? 0, userId: resident }, { token: other.token });
    expect(await roomNode(other.token, theirs.roomId)).toMatchObject({ residentCount: 1 });
    expect(await roomNode(home.token, mine.roomId)).toMatchObject({ residentCount: 0 });
    expect(await roomNode(home.token, theirs.roomId)).toBeUndefined();
  });
});
