import {
  deleteProvider,
  getProvider,
  insertAccount,
  insertProvider,
  operateProvider,
  queryProviderList,
  restProviderPwd,
  type CallDef,
} from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';

/** Values no field of these calls accepts: an object, a nested empty list, a huge string, a negative huge number. */
const WRONG = [{ nested: { deep: 1 } }, [[]], 'x'.repeat(200_000), -1e308] as const;

/** Every call with a JSON or query body, its fields and a valid base input. */
const JSON_CALLS: [CallDef, Record<string, unknown>][] = [
  [queryProviderList, { pageNum: 1, pageSize: 10, keyWord: 'k', providerClass: 1, parentId: 1, enabled: true }],
  [
    insertProvider,
    {
      name: 'Fuzz',
      number: 'F-1',
      userName: 'fuzzLogin1',
      passWord: 'Care#Home2026',
      rsa: false,
      parentId: 1,
      logoUrl: '/system/file?id=00000000-0000-4000-8000-000000000000',
      platformName: 'P',
      remark: 'r',
    },
  ],
  [restProviderPwd, { id: 1 }],
  [operateProvider, { id: 1, type: 'edit', name: 'n', number: 'N-1', logoUrl: null, platformName: null, remark: null }],
];
const QUERY_CALLS: CallDef[] = [getProvider, deleteProvider];

describeEachDb('provider calls never fail with a server error (%s)', (target) => {
  let app: TestApp;
  let admin: string;
  let victim: number;

  const inject = (method: 'GET' | 'POST', url: string, payload?: string, headers: Record<string, string> = {}) =>
    app.app.inject({
      method,
      url,
      headers: { 'x-token': admin, ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
  const expectClientError = (res: { statusCode: number; body: string }, label: string) => {
    expect([200, 400, 401, 413, 415], label).toContain(res.statusCode);
    const body = JSON.parse(res.body) as { status: number; msgKey?: string };
    expect(body.status, `${label}: ${res.body.slice(0, 200)}`).toBe(400);
    expect(body.msgKey, label).toBeTruthy();
  };

  beforeAll(async () => {
    app = await createTestApp(target);
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    victim = (await makeProvider(app, admin, 'Fuzz Victim')).id;
  });
  afterAll(() => app?.close());

  it.each(JSON_CALLS.map(([call, base]) => [call.path, call, base] as const))(
    '%s: wrong types in every field answer 400',
    async (_path, call, base) => {
      for (const field of Object.keys(base)) {
        for (const value of WRONG) {
          const body = JSON.stringify({ ...base, [field]: value });
          const res = await inject('POST', call.path, body, { 'content-type': 'application/json' });
          expectClientError(res, `${call.path} ${field}=${JSON.stringify(value).slice(0, 30)}`);
        }
      }
    },
  );

  it.each(JSON_CALLS.map(([call]) => [call.path, call] as const))(
    '%s: malformed bodies answer 400, never 500',
    async (_path, call) => {
      const json = { 'content-type': 'application/json' };
      const cases: [string, string | undefined, Record<string, string>][] = [
        ['invalid JSON', '{bad', json],
        ['truncated JSON', '{"id": 1', json],
        ['empty JSON body', '', json],
        ['JSON array', '[1,2,3]', json],
        ['JSON string', '"hello"', json],
        ['JSON number', '42', json],
        ['prototype pollution', '{"__proto__": {"admin": true}, "id": 1}', json],
        ['constructor pollution', '{"constructor": {"prototype": {"x": 1}}, "id": 1}', json],
        ['text/plain body', 'id=1', { 'content-type': 'text/plain' }],
        ['unknown content type', '<id>1</id>', { 'content-type': 'application/xml' }],
        ['body over 1 MB', JSON.stringify({ id: 1, remark: 'x'.repeat(1_100_000) }), json],
        ['deeply nested', `${'['.repeat(5000)}${']'.repeat(5000)}`, json],
      ];
      for (const [label, payload, headers] of cases) {
        const res = await inject('POST', call.path, payload, headers);
        expect(res.statusCode, `${call.path} ${label}`).not.toBe(500);
        const body = JSON.parse(res.body) as { status: number; msgKey?: string };
        expect(body.status, `${call.path} ${label}: ${res.body.slice(0, 200)}`).toBe(400);
      }
      // Form-encoded bodies are read like JSON ones (the token travels in a header, so this is no CSRF door).
      const form = await inject('POST', call.path, 'id=abc&pageNum=x&name=', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(JSON.parse(form.body)).toMatchObject({ status: 400 });
    },
  );

  it.each(QUERY_CALLS.map((call) => [call.path, call] as const))(
    '%s: malformed query strings answer 400, never 500',
    async (_path, call) => {
      for (const query of [
        '',
        'id=',
        'id=abc',
        'id=1.5',
        'id=-3',
        'id=0',
        'id=1e400',
        'id=NaN',
        'id=1&id=2',
        'id[a]=1',
        'id=%00',
        'id=%E0%A4%A',
        `id=${'9'.repeat(5000)}`,
      ]) {
        const res = await inject('GET', `${call.path}?${query}`);
        expect(res.statusCode, `${call.path}?${query.slice(0, 30)}`).not.toBe(500);
        const body = JSON.parse(res.body) as { status: number };
        expect(body.status, `${call.path}?${query.slice(0, 30)}: ${res.body.slice(0, 200)}`).toBe(400);
      }
    },
  );

  it('answers ids beyond the database integer range without a server error', async () => {
    for (const id of ['2147483648', '9007199254740991', '99999999999']) {
      for (const call of QUERY_CALLS) {
        const res = await inject('GET', `${call.path}?id=${id}`);
        const body = JSON.parse(res.body) as { status: number; msgKey?: string };
        expect(body.status, `${call.path}?id=${id}: ${res.body}`).not.toBe(500);
        expect([300, 400], `${call.path}?id=${id}`).toContain(body.status);
      }
      for (const [call, base] of JSON_CALLS) {
        const input = { ...base, ...('id' in base ? { id: Number(id) } : { parentId: Number(id) }) };
        const res = await inject('POST', call.path, JSON.stringify(input), { 'content-type': 'application/json' });
        const body = JSON.parse(res.body) as { status: number };
        expect(body.status, `${call.path} ${id}: ${res.body}`).not.toBe(500);
      }
    }
  });

  it('answers huge page numbers and sizes without a server error', async () => {
    for (const input of [
      { pageNum: Number.MAX_SAFE_INTEGER, pageSize: 1000 },
      { pageNum: 2147483648, pageSize: 10 },
      { pageNum: 1, pageSize: 1001 },
      { pageNum: 1, pageSize: 0 },
    ]) {
      const res = await app.call(queryProviderList, input, { token: admin });
      expect(res.status, JSON.stringify(input)).not.toBe(500);
      expect([200, 400]).toContain(res.status);
      if (res.status === 200) expect(res.data?.rows).toEqual([]);
    }
  });

  it('answers concurrent duplicates with provider.exists / account.exists, never 500', async () => {
    const burst = <T>(n: number, make: (i: number) => Promise<T>) =>
      Promise.all(Array.from({ length: n }, (_, i) => make(i)));
    const sameName = await burst(6, (i) =>
      app.call(
        insertProvider,
        { name: 'Race Care', userName: `raceNameLogin${i}`, passWord: 'Care#Home2026' },
        { token: admin },
      ),
    );
    expect(sameName.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of sameName.filter((r) => r.status !== 200))
      expect([r.status, r.msgKey]).toEqual([300, 'provider.exists']);
    const sameNumber = await burst(6, (i) =>
      app.call(
        insertProvider,
        { name: `Race Number ${i}`, number: 'RACE-1', userName: `raceNumberLogin${i}`, passWord: 'Care#Home2026' },
        { token: admin },
      ),
    );
    expect(sameNumber.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of sameNumber.filter((r) => r.status !== 200)) {
      expect([r.status, r.msgKey]).toEqual([300, 'provider.numberExists']);
    }
    const sameLogin = await burst(6, (i) =>
      app.call(
        insertProvider,
        { name: `Race Login ${i}`, userName: 'raceSameLogin', passWord: 'Care#Home2026' },
        { token: admin },
      ),
    );
    expect(sameLogin.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of sameLogin.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(300);
      expect(['provider.exists', 'account.exists']).toContain(r.msgKey);
    }
    const sameAccount = await burst(6, () =>
      app.call(
        insertAccount,
        { userName: 'raceAccount01', nickName: 'x', role: 'SUB_ROLE', passWord: 'Care#Home2026' },
        { token: admin },
      ),
    );
    expect(sameAccount.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of sameAccount.filter((r) => r.status !== 200))
      expect([r.status, r.msgKey]).toEqual([300, 'account.exists']);
    // The losers left nothing behind.
    const list = await app.call(queryProviderList, { keyWord: 'Race', pageSize: 100 }, { token: admin });
    expect(list.data?.total).toBe(3);
  });

  it('needs a session before anything is read: 401 for every call without a token', async () => {
    for (const [call, base] of JSON_CALLS) {
      const res = await app.app.inject({
        method: 'POST',
        url: call.path,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(base),
      });
      expect(res.statusCode, call.path).toBe(401);
    }
    for (const call of QUERY_CALLS) {
      expect((await app.app.inject({ method: 'GET', url: `${call.path}?id=${victim}` })).statusCode).toBe(401);
    }
    expect((await app.call(getProvider, { id: victim }, { token: admin })).data?.enabled).toBe(true);
  });
});
