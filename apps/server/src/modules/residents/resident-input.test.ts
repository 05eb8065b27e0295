import {
  deleteResident,
  endAbsence,
  getResident,
  insertResident,
  residentList,
  residentSummary,
  startAbsence,
  updateResident,
  type CallDef,
} from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { mustInsert } from './resident-fixtures.ts';

/** Values no field of these calls accepts: an object, a nested empty list, a huge string, a negative huge number. */
const WRONG = [{ nested: { deep: 1 } }, [[]], 'x'.repeat(200_000), -1e308] as const;

const CONTACT = { name: 'Kin', phone: '13800000000', relation: 'child' };
const RESIDENT = {
  name: 'Fuzz',
  gender: 1,
  birthDate: '1950-01-01',
  height: 160,
  weight: 60,
  medicalHistory: ['stroke'],
  otherHistory: 'o',
  contacts: [CONTACT],
  priority: false,
  remark: 'r',
  caregiverIds: [1],
  communityId: 1,
};

/** Every JSON call, its fields and a valid base input. */
const JSON_CALLS: [CallDef, Record<string, unknown>][] = [
  [
    residentList,
    {
      pageNum: 1,
      pageSize: 10,
      keyWord: 'k',
      state: 'checkedIn',
      gender: 0,
      priority: true,
      areaId: 1,
      roomId: 1,
      ageMin: 60,
      ageMax: 90,
    },
  ],
  [insertResident, { ...RESIDENT, providerId: 1, confirm: false }],
  [updateResident, { id: 1, ...RESIDENT, confirm: false }],
  [startAbsence, { userId: 1, startTime: '2026-01-01T00:00:00Z', endTime: '2026-01-02T00:00:00Z', reason: 'r' }],
];
const QUERY_CALLS: [CallDef, string][] = [
  [deleteResident, 'id'],
  [getResident, 'id'],
  [endAbsence, 'userId'],
];

describeEachDb('resident calls never fail with a server error (%s)', (target) => {
  let app: TestApp;
  let token: string;
  let victim: number;

  const inject = (method: 'GET' | 'POST', url: string, payload?: string, headers: Record<string, string> = {}) =>
    app.app.inject({
      method,
      url,
      headers: { 'x-token': token, 'accept-language': 'en-US', ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
  const json = { 'content-type': 'application/json' };
  const expectInvalid = (res: { statusCode: number; body: string }, label: string) => {
    expect(res.statusCode, label).toBe(200);
    const body = JSON.parse(res.body) as { status: number; msgKey?: string; msg: string };
    expect(body.status, `${label}: ${res.body.slice(0, 200)}`).toBe(400);
    expect(body.msgKey, label).toBeTruthy();
    return body;
  };

  beforeAll(async () => {
    app = await createTestApp(target);
    const admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const home = await makeProvider(app, admin, 'Fuzz Home');
    token = await app.login(home.userName, home.password);
    victim = await mustInsert(app, token, { name: 'Fuzz Victim' });
  });
  afterAll(() => app?.close());

  it.each(JSON_CALLS.map(([call, base]) => [call.path, call, base] as const))(
    '%s: wrong types in every field answer 400',
    async (_path, call, base) => {
      for (const field of Object.keys(base)) {
        for (const value of WRONG) {
          const res = await inject('POST', call.path, JSON.stringify({ ...base, [field]: value }), json);
          expectInvalid(res, `${call.path} ${field}=${JSON.stringify(value).slice(0, 30)}`);
        }
      }
    },
  );

  it.each(JSON_CALLS.map(([call]) => [call.path, call] as const))(
    '%s: malformed bodies answer 400, never 500',
    async (_path, call) => {
      const cases: [string, string, Record<string, string>][] = [
        ['invalid JSON', '{bad', json],
        ['empty JSON body', '', json],
        ['JSON array', '[1,2,3]', json],
        ['prototype pollution', '{"__proto__": {"admin": true}, "id": 1}', json],
        ['text/plain body', 'id=1', { 'content-type': 'text/plain' }],
        ['body over 1 MB', JSON.stringify({ id: 1, remark: 'x'.repeat(1_100_000) }), json],
        ['deeply nested', `${'['.repeat(5000)}${']'.repeat(5000)}`, json],
      ];
      for (const [label, payload, headers] of cases) {
        const res = await inject('POST', call.path, payload, headers);
        expect(res.statusCode, `${call.path} ${label}`).not.toBe(500);
        expect((JSON.parse(res.body) as { status: number }).status, `${call.path} ${label}`).toBe(400);
      }
    },
  );

  it.each(QUERY_CALLS.map(([call, field]) => [call.path, call, field] as const))(
    '%s: malformed query strings answer 400, never 500',
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
        `${field}=${'9'.repeat(5000)}`,
      ]) {
        const res = await inject('GET', `${call.path}?${query}`);
        expect(res.statusCode, `${call.path}?${query.slice(0, 30)}`).not.toBe(500);
        expect((JSON.parse(res.body) as { status: number }).status, `${call.path}?${query.slice(0, 30)}`).toBe(400);
      }
    },
  );

  it('answers out-of-range numbers and lengths with a message naming the field', async () => {
    const cases: [CallDef, Record<string, unknown>, string, string][] = [
      [insertResident, { ...RESIDENT, name: '' }, 'validation.required', 'Name is required.'],
      [insertResident, { ...RESIDENT, name: '   ' }, 'validation.required', 'Name is required.'],
      [
        insertResident,
        { ...RESIDENT, name: 'n'.repeat(33) },
        'validation.maxLength',
        'Name must be at most 32 characters.',
      ],
      [insertResident, { ...RESIDENT, gender: 2 }, 'validation.invalid', 'Gender is invalid.'],
      [insertResident, { ...RESIDENT, height: 0 }, 'validation.min', 'Height must be at least 1.'],
      [insertResident, { ...RESIDENT, height: 256 }, 'validation.max', 'Height must be at most 255.'],
      [insertResident, { ...RESIDENT, weight: 70.5 }, 'validation.type', 'Weight must be a whole number.'],
      [
        insertResident,
        { ...RESIDENT, remark: 'r'.repeat(201) },
        'validation.maxLength',
        'Remark must be at most 200 characters.',
      ],
      [
        insertResident,
        { ...RESIDENT, otherHistory: 'h'.repeat(201) },
        'validation.maxLength',
        'Other medical history must be at most 200 characters.',
      ],
      [insertResident, { ...RESIDENT, medicalHistory: ['cancer'] }, 'validation.oneOf', ''],
      [insertResident, { ...RESIDENT, contacts: [{ ...CONTACT, relation: 'boss' }] }, 'validation.oneOf', ''],
      [
        insertResident,
        { ...RESIDENT, contacts: [{ ...CONTACT, name: '' }] },
        'validation.required',
        'Name is required.',
      ],
      [insertResident, { ...RESIDENT, contacts: [{ ...CONTACT, phone: '12345' }] }, 'validation.phone', ''],
      [
        insertResident,
        { ...RESIDENT, contacts: [{ ...CONTACT, phone: '' }] },
        'validation.required',
        'Phone is required.',
      ],
      [
        insertResident,
        { ...RESIDENT, name: 'Evil\u0000Name' },
        'resident.controlChars',
        'Name must not contain control characters.',
      ],
      [insertResident, { ...RESIDENT, name: 'Two\nLines' }, 'resident.controlChars', ''],
      [insertResident, { ...RESIDENT, remark: 'nul\u0000' }, 'resident.controlChars', ''],
      [insertResident, { ...RESIDENT, contacts: [{ ...CONTACT, name: 'x\u0007' }] }, 'resident.controlChars', ''],
      [residentList, { keyWord: 'a\u0000' }, 'resident.controlChars', ''],
      [residentList, { ageMin: -1 }, 'validation.min', 'Minimum age must be at least 0.'],
      [residentList, { ageMax: 131 }, 'validation.max', 'Maximum age must be at most 130.'],
      [residentList, { state: 'dead' }, 'validation.oneOf', ''],
      [residentList, { pageSize: 1001 }, 'validation.max', ''],
      [
        startAbsence,
        { userId: victim, reason: 'r'.repeat(201) },
        'validation.maxLength',
        'Reason must be at most 200 characters.',
      ],
      [startAbsence, { userId: victim, reason: '\u0000' }, 'resident.controlChars', ''],
      [startAbsence, { userId: victim, endTime: 'soon' }, 'resident.timeFormat', ''],
    ];
    for (const [call, input, msgKey, msg] of cases) {
      const res = await inject('POST', call.path, JSON.stringify(input), json);
      const body = expectInvalid(res, `${call.path} ${JSON.stringify(input).slice(0, 60)}`);
      expect(body.msgKey, JSON.stringify(input).slice(0, 80)).toBe(msgKey);
      if (msg) expect(body.msg).toBe(msg);
    }
    const zh = await app.call(insertResident, { ...RESIDENT, gender: 1, name: 'n'.repeat(33) } as never, {
      token,
      lang: 'zh-CN',
    });
    expect(zh.msg).toBe('名称最多 32 个字符。');
    const zhPhone = await app.call(
      insertResident,
      { ...RESIDENT, gender: 1, contacts: [{ ...CONTACT, phone: 'abc' }] } as never,
      { token, lang: 'zh-CN' },
    );
    expect(zhPhone.msg).toMatch(/^手机号码/);
  });

  it('stores hostile but printable text verbatim and finds it again', async () => {
    const names = [
      "Robert'); DROP TABLE resident;--",
      '<script>alert(1)</script>',
      '王小明 👵🏻',
      '\u202eevil\u202c',
      '%_\\',
    ];
    for (const name of names) {
      const id = await mustInsert(app, token, { name, remark: `${name}\nsecond line`, confirm: true });
      const res = await app.call(getResident, { id }, { token });
      expect(res.data?.name).toBe(name);
      expect(res.data?.remark).toBe(`${name}\nsecond line`);
      const found = await app.call(residentList, { keyWord: name, pageSize: 100 }, { token });
      expect(found.data?.rows.map((r) => r.id)).toContain(id);
    }
    const summary = await app.call(residentSummary, {}, { token });
    expect(summary.status).toBe(200);
  });

  it('answers ids beyond the database integer range and huge pages without a server error', async () => {
    for (const id of ['2147483647', '2147483648', '99999999999']) {
      for (const [call, field] of QUERY_CALLS) {
        const res = await inject('GET', `${call.path}?${field}=${id}`);
        const body = JSON.parse(res.body) as { status: number };
        expect([300, 400], `${call.path}?${field}=${id}: ${res.body}`).toContain(body.status);
      }
    }
    const page = await app.call(residentList, { pageNum: 2147483647, pageSize: 1000 }, { token });
    expect(page.status).toBe(200);
    expect(page.data?.rows).toEqual([]);
    expect((await app.call(getResident, { id: victim }, { token })).data?.name).toBe('Fuzz Victim');
  });

  it('needs a session: 401 for every call without a token', async () => {
    for (const [call, base] of JSON_CALLS) {
      const res = await app.app.inject({
        method: 'POST',
        url: call.path,
        headers: json,
        payload: JSON.stringify(base),
      });
      expect(res.statusCode, call.path).toBe(401);
    }
    for (const [call, field] of QUERY_CALLS) {
      expect((await app.app.inject({ method: 'GET', url: `${call.path}?${field}=${victim}` })).statusCode).toBe(401);
    }
    expect((await app.app.inject({ method: 'GET', url: residentSummary.path })).statusCode).toBe(401);
  });
});
