import { changeProvider, insertAccount, operateAccount, queryAccountList, type CallDef } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeAccount, makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';

/** Values no field of these calls accepts: an object, a nested empty list, a huge string, a negative huge number. */
const WRONG = [{ nested: { deep: 1 } }, [[]], 'x'.repeat(200_000), -1e308] as const;

const JSON_CALLS: [CallDef, Record<string, unknown>][] = [
  [queryAccountList, { pageNum: 1, pageSize: 10, keyWord: 'k', role: 'SUB_ROLE', enabled: true }],
  [
    insertAccount,
    {
      userName: 'fuzzAccount1',
      nickName: 'Fuzz',
      role: 'SUB_ROLE',
      passWord: 'Care#Home2026',
      rsa: false,
      providerId: 1,
      permissionType: 1,
      providerIds: [1],
      remark: 'r',
    },
  ],
  [operateAccount, { id: 1, type: 'edit', nickName: 'n', permissionType: 0, providerIds: [], remark: null }],
  [changeProvider, { domain: 'pabc' }],
];

describeEachDb('account calls never fail with a server error (%s)', (target) => {
  let app: TestApp;
  let admin: string;
  let one: string;
  let sub: number;

  const post = (token: string, url: string, payload: string, contentType = 'application/json') =>
    app.app.inject({ method: 'POST', url, headers: { 'x-token': token, 'content-type': contentType }, payload });

  beforeAll(async () => {
    app = await createTestApp(target);
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const p = await makeProvider(app, admin, 'Account Fuzz');
    one = await app.login(p.userName, p.password);
    sub = (await makeAccount(app, one, 'fuzzVictimSub', 'SUB_ROLE')).id;
  });
  afterAll(() => app?.close());

  it.each(JSON_CALLS.map(([call, base]) => [call.path, call, base] as const))(
    '%s: wrong types in every field answer 400 (platform and provider callers)',
    async (_path, call, base) => {
      for (const token of [admin, one]) {
        for (const field of Object.keys(base)) {
          for (const value of WRONG) {
            const res = await post(token, call.path, JSON.stringify({ ...base, [field]: value }));
            const label = `${call.path} ${field}=${JSON.stringify(value).slice(0, 30)}`;
            expect(res.statusCode, label).toBe(200);
            const body = JSON.parse(res.body) as { status: number; msgKey?: string };
            expect(body.status, `${label}: ${res.body.slice(0, 200)}`).toBe(400);
            expect(body.msgKey, label).toBeTruthy();
          }
        }
      }
    },
  );

  it.each(JSON_CALLS.map(([call]) => [call.path, call] as const))(
    '%s: malformed bodies answer 400, never 500',
    async (_path, call) => {
      const cases: [string, string, string][] = [
        ['invalid JSON', '{bad', 'application/json'],
        ['empty JSON body', '', 'application/json'],
        ['JSON array', '[1]', 'application/json'],
        ['JSON string', '"hello"', 'application/json'],
        ['prototype pollution', '{"__proto__": {"role": "SUPER_ROLE"}}', 'application/json'],
        ['unknown content type', '<a/>', 'application/xml'],
        ['body over 1 MB', JSON.stringify({ keyWord: 'x'.repeat(1_100_000) }), 'application/json'],
        ['form body with bad values', 'id=abc&pageNum=x&userName=&domain=', 'application/x-www-form-urlencoded'],
      ];
      for (const [label, payload, contentType] of cases) {
        const res = await post(one, call.path, payload, contentType);
        expect(res.statusCode, `${call.path} ${label}`).not.toBe(500);
        const body = JSON.parse(res.body) as { status: number };
        expect(body.status, `${call.path} ${label}: ${res.body.slice(0, 200)}`).toBe(400);
      }
    },
  );

  it('answers ids beyond the database integer range with 400', async () => {
    for (const id of [2147483648, 9007199254740991]) {
      const operate = await app.call(operateAccount, { id, type: 'disable' }, { token: admin });
      expect(operate.status, `operate ${id}`).toBe(400);
      const insert = await app.call(
        insertAccount,
        { userName: 'bigIdAccount', nickName: 'x', role: 'SUB_ROLE', providerId: id },
        { token: admin },
      );
      expect(insert.status, `insert providerId ${id}`).toBe(400);
      const scoped = await app.call(
        insertAccount,
        { userName: 'bigIdAccount', nickName: 'x', role: 'SUB_ROLE', permissionType: 1, providerIds: [id] },
        { token: one },
      );
      expect(scoped.status, `insert providerIds ${id}`).toBe(400);
    }
  });

  it('answers a huge providerIds list and a huge page without a server error', async () => {
    const many = await app.call(
      operateAccount,
      { id: sub, type: 'edit', permissionType: 1, providerIds: Array.from({ length: 1001 }, (_, i) => i + 1) },
      { token: one },
    );
    expect(many.status).toBe(400);
    const dup = await app.call(
      operateAccount,
      { id: sub, type: 'edit', permissionType: 1, providerIds: Array.from({ length: 1000 }, () => 1) },
      { token: admin },
    );
    expect([200, 300]).toContain(dup.status);
    const page = await app.call(queryAccountList, { pageNum: Number.MAX_SAFE_INTEGER, pageSize: 1000 }, { token: one });
    expect(page.status).toBe(200);
    expect(page.data?.rows).toEqual([]);
  });

  it('answers 401 for every call without a token', async () => {
    for (const [call, base] of JSON_CALLS) {
      const res = await app.app.inject({
        method: 'POST',
        url: call.path,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(base),
      });
      expect(res.statusCode, call.path).toBe(401);
    }
  });
});
