import {
  deleteCommunity,
  deleteNursing,
  deleteUserFamily,
  getUserSleepConfig,
  insertCommunity,
  insertNursing,
  normalisePhone,
  operateNursing,
  queryCommunityList,
  queryNursingList,
  resetNursingPassword,
  saveAlarmConfig,
  saveUserSleepConfig,
  saveUserSleepConfigs,
  type CallDef,
} from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { careWorld, makeCaregiver, seedResident } from './care-fixtures.ts';

describe('phone numbers', () => {
  it.each([
    ['13800138000', '13800138000'],
    ['+86 138 0013 8000', '13800138000'],
    ['0086-138-0013-8000', '13800138000'],
    ['(+86) 19912345678', '19912345678'],
    ['+49 151 23456789', '+4915123456789'],
    ['0044 20 7946 0958', '+442079460958'],
    ['+1 (415) 555-2671', '+14155552671'],
  ])('normalises %s to %s', (raw, expected) => {
    expect(normalisePhone(raw)).toBe(expected);
  });

  it.each([
    '12800138000',
    '1380013800',
    '138001380001',
    '+86 10 1234 5678',
    '+0123456789',
    '+12345',
    '+1234567890123456',
    '4915123456789',
    'abc',
    '138-0013-800O',
    '１３８００１３８０００',
    '13800138000x',
  ])('refuses %s', (raw) => {
    expect(normalisePhone(raw)).toBeNull();
  });
});

/** Values no field of these calls accepts: an object, a nested empty list, a huge string, a negative huge number. */
const WRONG = [{ nested: { deep: 1 } }, [[]], 'x'.repeat(200_000), -1e308] as const;
const SLEEP = { leaveBedMode: 'allDay', sleepTime: '22:00', wakeTime: '06:00', sensitivity: 'low', mattress: 'sponge' };

/** Every JSON call with every field and a valid base input. */
const JSON_CALLS: [CallDef, Record<string, unknown>][] = [
  [queryNursingList, { pageNum: 1, pageSize: 10, keyWord: 'k', level: 'lead', enabled: true }],
  [
    insertNursing,
    {
      name: 'Fuzz',
      phone: '13800000000',
      job: 'j',
      level: 'normal',
      residentIds: [1],
      userName: 'fuzzCarer1',
      providerId: 1,
      remark: 'r',
    },
  ],
  [
    operateNursing,
    { id: 1, type: 'edit', name: 'n', phone: '13800000001', job: null, level: 'lead', residentIds: [], remark: null },
  ],
  [resetNursingPassword, { id: 1 }],
  [deleteNursing, { id: 1 }],
  [
    insertCommunity,
    { name: 'Fuzz Town', address: 'a', contact: 'c', phone: '13800000002', providerId: 1, remark: 'r' },
  ],
  [queryCommunityList, { pageNum: 1, pageSize: 10, keyWord: 'k' }],
  [saveUserSleepConfig, { communityId: 1, residentId: 1, ...SLEEP }],
  [saveUserSleepConfigs, { communityId: 1, residentIds: [1], ...SLEEP }],
  [saveAlarmConfig, { communityId: 1, level1: ['FALL'], level2: ['SOS'], receiverIds: [1], notify: ['sms'] }],
  [deleteCommunity, { id: 1 }],
];
const QUERY_CALLS: [CallDef, string][] = [
  [deleteUserFamily, 'id'],
  [getUserSleepConfig, 'communityId=1&residentId'],
];

describeEachDb('caregiver and community calls answer bad input with a localised 400 (%s)', (target) => {
  let app: TestApp;
  let token: string;
  let homeId: number;

  const inject = (method: 'GET' | 'POST', url: string, payload?: string, headers: Record<string, string> = {}) =>
    app.app.inject({
      method,
      url,
      headers: { 'x-token': token, 'accept-language': 'en-US', ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
  const json = { 'content-type': 'application/json' };
  const post = async (call: CallDef, input: unknown) => {
    const res = await inject('POST', call.path, JSON.stringify(input), json);
    return { httpStatus: res.statusCode, ...(JSON.parse(res.body) as { status: number; msgKey: string; msg: string }) };
  };

  beforeAll(async () => {
    app = await createTestApp(target);
    const world = await careWorld(app, 'Input');
    token = world.homeToken;
    homeId = world.home.id;
  });
  afterAll(() => app?.close());

  it.each(JSON_CALLS.map(([call, base]) => [call.path, call, base] as const))(
    '%s: wrong types in every field answer 400 naming the field',
    async (_path, call, base) => {
      for (const field of Object.keys(base)) {
        for (const value of WRONG) {
          const res = await post(call, { ...base, [field]: value });
          const label = `${call.path} ${field}=${JSON.stringify(value).slice(0, 30)}`;
          expect(res.httpStatus, label).toBe(200);
          expect(res.status, `${label}: ${res.msg}`).toBe(400);
          expect(res.msgKey, label).toBeTruthy();
          expect(res.msg, label).not.toMatch(/\{\w+\}/);
        }
      }
    },
  );

  it.each(JSON_CALLS.map(([call]) => [call.path, call] as const))(
    '%s: malformed bodies answer 400, never 500',
    async (_path, call) => {
      const cases: [string, string, Record<string, string>][] = [
        ['invalid JSON', '{bad', json],
        ['JSON array', '[1,2,3]', json],
        ['prototype pollution', '{"__proto__": {"admin": true}, "id": 1}', json],
        ['unknown content type', '<id>1</id>', { 'content-type': 'application/xml' }],
        ['body over 1 MB', JSON.stringify({ id: 1, remark: 'x'.repeat(1_100_000) }), json],
      ];
      for (const [label, payload, headers] of cases) {
        const res = await inject('POST', call.path, payload, headers);
        expect(res.statusCode, `${call.path} ${label}`).not.toBe(500);
        expect((JSON.parse(res.body) as { status: number }).status, `${call.path} ${label}`).toBe(400);
      }
    },
  );

  it.each(QUERY_CALLS.map(([call, prefix]) => [call.path, call, prefix] as const))(
    '%s: malformed query strings answer 400, never 500',
    async (_path, call, prefix) => {
      const key = prefix.includes('=') ? prefix : `${prefix}`;
      for (const value of ['', 'abc', '1.5', '-3', '0', '1e400', '2147483648', '%00', `${'9'.repeat(5000)}`]) {
        const url = `${call.path}?${key}=${value}`;
        const res = await inject('GET', url);
        expect(res.statusCode, url.slice(0, 80)).toBe(200);
        expect((JSON.parse(res.body) as { status: number }).status, url.slice(0, 80)).toBe(400);
      }
    },
  );

  it('names the field and the rule, in both languages', async () => {
    const base = { name: 'Named', phone: '13800000009' };
    const cases: [Record<string, unknown>, string, string, string][] = [
      [
        { ...base, phone: 'call me' },
        'validation.phone',
        'Phone must be a valid mobile number',
        '手机号码不是有效的手机号码',
      ],
      [{ ...base, phone: '' }, 'validation.required', 'Phone is required.', '手机号码不能为空'],
      [{ ...base, name: '   ' }, 'validation.required', 'Name is required.', '不能为空'],
      [{ ...base, name: 'n'.repeat(65) }, 'validation.maxLength', 'Name must be at most 64 characters.', '64'],
      [{ ...base, level: 'boss' }, 'validation.oneOf', 'Level must be one of: normal, lead.', '级别'],
      [{ ...base, residentIds: [0] }, 'validation.min', 'Residents must be at least 1.', '长者'],
      [{ ...base, residentIds: ['x'] }, 'validation.type', 'Residents must be a number.', '长者'],
      [{ ...base, userName: 'a b' }, 'validation.loginAccount', 'Account must be 6 to 64 letters or digits.', '账号'],
      [{ ...base, job: 'j'.repeat(65) }, 'validation.maxLength', 'Job must be at most 64 characters.', '职务'],
      [{ ...base, remark: 'r'.repeat(201) }, 'validation.maxLength', 'Remark must be at most 200 characters.', '200'],
      [
        { ...base, name: 'a\u0000b' },
        'validation.controlChars',
        'Name must not contain control characters.',
        '控制字符',
      ],
      [{ ...base, job: 'tab\there' }, 'validation.controlChars', 'Job must not contain control characters.', '职务'],
      [{ ...base, remark: 'nul\u0000' }, 'validation.controlChars', 'Remark must not contain', '控制字符'],
    ];
    for (const [input, key, en, zh] of cases) {
      const res = await post(insertNursing, input);
      expect(res.status, JSON.stringify(input).slice(0, 60)).toBe(400);
      expect(res.msgKey).toBe(key);
      expect(res.msg).toContain(en);
      const zhRes = await inject('POST', insertNursing.path, JSON.stringify(input), {
        ...json,
        'accept-language': 'zh-CN',
      });
      expect((JSON.parse(zhRes.body) as { msg: string }).msg).toContain(zh);
    }
  });

  it('stores hostile text as plain text and searches it literally', async () => {
    const hostile = `Robert'); DROP TABLE caregiver;-- <script>alert(1)</script> %_\\`;
    const resident = await seedResident(app, homeId, 'Hostile Home');
    const c = await makeCaregiver(app, token, hostile, { residentIds: [resident] });
    const list = await app.call(queryNursingList, { keyWord: `DROP TABLE caregiver;-- <script>` }, { token });
    expect(list.data?.rows.map((r) => r.id)).toEqual([c.id]);
    expect(list.data?.rows[0]?.name).toBe(hostile);
    expect((await app.call(queryNursingList, { keyWord: "' or '1'='1" }, { token })).data?.total).toBe(0);
    expect((await app.call(queryNursingList, { keyWord: 'a\u0000' }, { token })).msgKey).toBe(
      'validation.controlChars',
    );
    expect((await app.call(queryCommunityList, { keyWord: '\u0000' }, { token })).msgKey).toBe(
      'validation.controlChars',
    );
    const lines = await app.call(insertCommunity, { name: 'Lines', remark: 'first line\nsecond\tline' }, { token });
    expect(lines.status, lines.msg).toBe(200);
    const town = await app.call(insertCommunity, { name: hostile, address: hostile }, { token });
    expect(town.status, town.msg).toBe(200);
    const towns = await app.call(queryCommunityList, { keyWord: '%_\\' }, { token });
    expect(towns.data?.rows.map((r) => r.name)).toEqual([hostile]);
  });

  it('answers huge page numbers and sizes without a server error', async () => {
    for (const call of [queryNursingList, queryCommunityList]) {
      for (const input of [
        { pageNum: Number.MAX_SAFE_INTEGER, pageSize: 1000 },
        { pageNum: 2147483648, pageSize: 10 },
        { pageNum: 1, pageSize: 1001 },
        { pageNum: 1, pageSize: 0 },
      ]) {
        const res = await post(call, input);
        expect([200, 400], `${call.path} ${JSON.stringify(input)}`).toContain(res.status);
      }
    }
  });
});
