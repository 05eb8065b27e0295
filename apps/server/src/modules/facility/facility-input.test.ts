import {
  batchAddBunk,
  bunkCheckOut,
  bunkList,
  bunkSummary,
  deleteAreaById,
  deleteBunk,
  deleteRoomById,
  facilityCalls,
  getAdminBunkList,
  getAreaList,
  getAreaWithRoomList,
  getBunkConfiguration,
  getBunkListByRoomId,
  getBunkRoomList,
  getBunksByRoomName,
  getRoomList,
  getRoomListByAreaId,
  getUserBunkList,
  insertArea,
  insertRoom,
  updateArea,
  updateBunk,
  updateRoom,
  userCheckIn,
  type CallDef,
} from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';

/** Values no field of these calls accepts: an object, a nested list, a huge string, a huge negative number. */
const WRONG = [{ nested: { deep: 1 } }, [[]], 'x'.repeat(200_000), -1e308] as const;

const JSON_CALLS: [CallDef, Record<string, unknown>][] = [
  [getAreaList, { pageNum: 1, pageSize: 10, keyWord: 'k', areaId: 1, providerId: 1 }],
  [insertArea, { name: 'A', areaId: 1, providerId: 1, sort: 1, remark: 'r' }],
  [updateArea, { id: 1, name: 'A', sort: 1, remark: null }],
  [getAreaWithRoomList, { providerId: 1 }],
  [getRoomList, { pageNum: 1, pageSize: 10, keyWord: 'k', areaId: 1, providerId: 1 }],
  [insertRoom, { floorId: 1, name: '101,102', remark: 'r' }],
  [updateRoom, { id: 1, name: 'R', floorId: 1, remark: null }],
  [batchAddBunk, { roomId: 1, name: '1,2', mattress: 'spring', remark: 'r' }],
  [
    bunkList,
    { pageNum: 1, pageSize: 10, keyWord: 'k', areaId: 1, roomId: 1, free: true, hasDevice: false, providerId: 1 },
  ],
  [updateBunk, { id: 1, name: 'B', mattress: 'latex', remark: null, deviceId: 'DEV-1', userId: 1, confirm: false }],
  [bunkCheckOut, { userId: 1 }],
  [userCheckIn, { userId: 1, bunkId: 1, confirm: true }],
];
const QUERY_CALLS: [CallDef, string][] = [
  [getRoomListByAreaId, 'areaId'],
  [deleteAreaById, 'id'],
  [deleteRoomById, 'id'],
  [getBunkListByRoomId, 'roomId'],
  [deleteBunk, 'id'],
];
const OPTIONAL_QUERY_CALLS: CallDef[] = [
  getAdminBunkList,
  getUserBunkList,
  getBunkConfiguration,
  bunkSummary,
  getBunkRoomList,
];

describeEachDb('facility calls refuse bad input with a localised 400 (%s)', (target) => {
  let app: TestApp;
  let token: string;
  let admin: string;

  const inject = (method: 'GET' | 'POST', url: string, payload?: string, headers: Record<string, string> = {}) =>
    app.app.inject({
      method,
      url,
      headers: { 'x-token': token, ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
  const body = (res: { body: string }) => JSON.parse(res.body) as { status: number; msgKey?: string; msg: string };

  beforeAll(async () => {
    app = await createTestApp(target);
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const p = await makeProvider(app, admin, 'Input Home');
    token = await app.login(p.userName, p.password);
  });
  afterAll(() => app?.close());

  it('covers every facility call in these tests', () => {
    const covered = new Set([
      ...JSON_CALLS.map(([c]) => c.path),
      ...QUERY_CALLS.map(([c]) => c.path),
      ...OPTIONAL_QUERY_CALLS.map((c) => c.path),
      getBunksByRoomName.path,
    ]);
    expect([...covered].sort()).toEqual(
      Object.values(facilityCalls)
        .map((c) => c.path)
        .sort(),
    );
  });

  it.each(JSON_CALLS.map(([call, base]) => [call.path, call, base] as const))(
    '%s: wrong types in every field answer 400',
    async (_path, call, base) => {
      for (const field of Object.keys(base)) {
        for (const value of WRONG) {
          const res = await inject('POST', call.path, JSON.stringify({ ...base, [field]: value }), {
            'content-type': 'application/json',
          });
          const label = `${call.path} ${field}=${JSON.stringify(value).slice(0, 30)}`;
          expect(res.statusCode, label).toBe(200);
          expect(body(res).status, `${label}: ${res.body.slice(0, 200)}`).toBe(400);
          expect(body(res).msgKey, label).toBeTruthy();
        }
      }
    },
  );

  it.each(JSON_CALLS.map(([call]) => [call.path, call] as const))(
    '%s: malformed bodies answer 400',
    async (_path, call) => {
      const json = { 'content-type': 'application/json' };
      for (const [label, payload, headers] of [
        ['invalid JSON', '{bad', json],
        ['JSON array', '[1,2]', json],
        ['prototype pollution', '{"__proto__": {"admin": true}, "id": 1}', json],
        ['unknown content type', '<id>1</id>', { 'content-type': 'application/xml' }],
        ['deeply nested', `${'['.repeat(3000)}${']'.repeat(3000)}`, json],
      ] as const) {
        const res = await inject('POST', call.path, payload, headers);
        expect(res.statusCode, `${call.path} ${label}`).not.toBe(500);
        expect(body(res).status, `${call.path} ${label}: ${res.body.slice(0, 200)}`).toBe(400);
      }
    },
  );

  it.each(QUERY_CALLS.map(([call, field]) => [call.path, call, field] as const))(
    '%s: malformed query strings answer 400',
    async (_path, call, field) => {
      for (const query of [
        '',
        `${field}=`,
        `${field}=abc`,
        `${field}=1.5`,
        `${field}=-3`,
        `${field}=0`,
        `${field}=1e400`,
        `${field}=2147483648`,
        `${field}[a]=1`,
        `${field}=%00`,
      ]) {
        const res = await inject('GET', `${call.path}?${query}`);
        expect(res.statusCode, `${call.path}?${query}`).not.toBe(500);
        expect(body(res).status, `${call.path}?${query}: ${res.body.slice(0, 200)}`).toBe(400);
      }
    },
  );

  it('names the field in English and Chinese', async () => {
    const missing = await app.call(insertRoom, { name: '101' } as never, { token });
    expect([missing.status, missing.msgKey, missing.msg]).toEqual([400, 'validation.required', 'Floor is required.']);
    const zh = await app.call(userCheckIn, { userId: 1 } as never, { token, lang: 'zh-CN' });
    expect([zh.status, zh.msg]).toEqual([400, '床位不能为空。']);
    const long = await app.call(insertArea, { name: 'x'.repeat(33) }, { token });
    expect([long.status, long.msg]).toEqual([400, 'Name must be at most 32 characters.']);
    const blank = await app.call(insertArea, { name: '   ' }, { token });
    expect([blank.status, blank.msg]).toEqual([400, 'Name is required.']);
    const sort = await app.call(insertArea, { name: 'Sorted', sort: 10_000 }, { token });
    expect([sort.status, sort.msg]).toEqual([400, 'Sort order must be at most 9999.']);
    const mattress = await app.call(batchAddBunk, { roomId: 1, name: '1', mattress: 'straw' as never }, { token });
    expect([mattress.status, mattress.msgKey, mattress.msg]).toEqual([
      400,
      'validation.oneOf',
      'Mattress material must be one of: sponge, spring, latex.',
    ]);
    const device = await app.call(updateBunk, { id: 1, deviceId: 'DEV 1; drop table' }, { token });
    expect([device.status, device.msg]).toEqual([400, 'Device ID has an invalid format.']);
    const page = await app.call(bunkList, { pageSize: 1001 }, { token });
    expect([page.status, page.msg]).toEqual([400, 'Page size must be at most 1000.']);
  });

  it('refuses commas and control characters in a single name, and control characters in a list', async () => {
    for (const name of ['A,B', 'A，B', 'Tab\there', 'New\nline', 'Nul\u0000', 'Del\u007f']) {
      const res = await app.call(insertArea, { name }, { token });
      expect([res.status, res.msgKey, res.msg], JSON.stringify(name)).toEqual([
        400,
        'facility.nameChars',
        'Name must not contain commas or control characters.',
      ]);
    }
    const zh = await app.call(getBunksByRoomName, { roomName: 'a,b' }, { token, lang: 'zh-CN' });
    expect([zh.status, zh.msg]).toEqual([400, '房间名称不能包含逗号或控制字符。']);
    const list = await app.call(insertRoom, { floorId: 1, name: '101,\u0007102' }, { token });
    expect([list.status, list.msgKey]).toEqual([400, 'facility.nameChars']);
    const huge = await app.call(insertRoom, { floorId: 1, name: '1,'.repeat(2001) }, { token });
    expect([huge.status, huge.msgKey]).toEqual([400, 'validation.maxLength']);
  });

  it('stores hostile but printable names as plain text', async () => {
    const hostile = `<script>'"%_\\`;
    const res = await app.call(insertArea, { name: hostile }, { token });
    expect(res.status).toBe(200);
    const list = await app.call(getAreaList, { keyWord: `'"%_` }, { token });
    expect(list.data?.rows.map((a) => a.name)).toEqual([hostile]);
    const none = await app.call(getAreaList, { keyWord: '_' }, { token });
    expect(none.data?.rows.map((a) => a.name)).toEqual([hostile]);
    const noMatch = await app.call(getAreaList, { keyWord: '%x' }, { token });
    expect(noMatch.data?.total).toBe(0);
  });

  it('needs a session for every call', async () => {
    for (const call of Object.values(facilityCalls)) {
      const res = await app.app.inject({
        method: call.method,
        url: call.path,
        ...(call.method === 'POST' ? { headers: { 'content-type': 'application/json' }, payload: '{}' } : {}),
      });
      expect(res.statusCode, call.path).toBe(401);
    }
  });
});
