import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { PGlite } from '@electric-sql/pglite';
import {
  assertDeclaredAnswer,
  assertDeclaredFailure,
  createClient,
  Status,
  type CallDef,
  type CallRequest,
  type CallResult,
  type DownloadedFile,
  type EndpointRequest,
  type Envelope,
} from '@vigil/contract';
import pg from 'pg';
import { buildApp, type VigilApp } from '../app.ts';
import { ManualClock } from '../clock.ts';
import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type Database } from '../db/database.ts';

export type DbTarget = 'pglite' | 'postgres';

/** The text a downloaded file shows its reader: every cell of a spreadsheet; other files by size. */
const readableText = (contentType: string, bytes: Uint8Array): string => {
  if (!contentType.includes('spreadsheetml')) return `${contentType} (${bytes.length} bytes)`;
  const book = XLSX.read(bytes, { type: 'buffer' });
  return book.SheetNames.map((name) => XLSX.utils.sheet_to_csv(book.Sheets[name] ?? {})).join('\n');
};

/** PGlite always; the PostgreSQL server too when DATABASE_URL is set (CI). */
export const dbTargets = (): DbTarget[] => (process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']);

export const ADMIN_USER = 'admin';
export const ADMIN_PASSWORD = 'Vigil-Admin#2026';

/**
 * `VIGIL_TEST_PGLITE=worker`: each test database is PGlite in its own worker thread, reached
 * over the wire protocol, as the server runs it (decision 0047); otherwise a PGlite on the test's
 * thread (faster to start).
 */
const inWorker = process.env.VIGIL_TEST_PGLITE === 'worker';

let template: Promise<PGlite> | undefined;
let templateDump: Promise<Blob> | undefined;
/** One migrated PGlite per worker; each test app gets a clone (much faster than migrating again). */
const migratedTemplate = (): Promise<PGlite> =>
  (template ??= (async () => {
    const pglite = await PGlite.create();
    const database = await openDatabase({ pglite });
    await database.migrate();
    return pglite;
  })());

/** A fresh database on the PostgreSQL server, dropped by the returned cleanup. */
export const freshPostgres = async (): Promise<{ url: string; drop: () => Promise<void> }> => {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('DATABASE_URL is not set');
  const name = `vigil_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
};

export interface TestDb {
  database: Database;
  close: () => Promise<void>;
}

export const openTestDatabase = async (target: DbTarget): Promise<TestDb> => {
  if (target === 'pglite' && inWorker) {
    const load = await (templateDump ??= migratedTemplate().then((pglite) => pglite.dumpDataDir('none')));
    const database = await openDatabase({ load });
    return { database, close: () => database.close() };
  }
  if (target === 'pglite') {
    const clone = (await (await migratedTemplate()).clone()) as PGlite;
    const database = await openDatabase({ pglite: clone });
    return { database, close: () => database.close() };
  }
  const { url, drop } = await freshPostgres();
  const database = await openDatabase({ url });
  await database.migrate();
  return {
    database,
    close: async () => {
      await database.close();
      await drop();
    },
  };
};

export interface TestApp extends VigilApp {
  target: DbTarget;
  clock: ManualClock;
  config: Config;
  database: Database;
  /** Typed client over app.inject: the same client the console uses. */
  client: ReturnType<typeof createClient>;
  /** Calls with an optional token and language; resolves with the raw envelope. */
  call<C extends CallDef>(
    call: C,
    input: CallRequest<C> | FormData,
    options?: { token?: string | null; lang?: string },
  ): Promise<Envelope<CallResult<C>> & { httpStatus: number }>;
  /** A binary call's file (export, template), as the console downloads it; a refusal rejects with ApiError. */
  download<C extends CallDef>(
    call: C,
    input: CallRequest<C>,
    options?: { token?: string | null; lang?: string },
  ): Promise<DownloadedFile>;
  /** Logs in and returns the token; fails the test when login fails. */
  login(userName: string, password: string): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: ManualClock;
  testDb?: TestDb;
}

export const createTestApp = async (target: DbTarget, options: TestAppOptions = {}): Promise<TestApp> => {
  const testDb = options.testDb ?? (await openTestDatabase(target));
  const config = loadConfig({
    DATA_DIR: path.join(os.tmpdir(), `vigil-test-${randomBytes(4).toString('hex')}`),
    VIGIL_ADMIN_USER: ADMIN_USER,
    VIGIL_ADMIN_PASSWORD: ADMIN_PASSWORD,
    VIGIL_SSO_SECRET: 'test-sso-secret-0123456789',
    LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
    // Tests play the proxy: X-Forwarded-For names the client.
    TRUST_PROXY: 'true',
    // Each test server's embedded MQTT broker on a free port of its own.
    MQTT_PORT: '0',
    // Reports are made when a test asks (scheduler.tick()), not by the timer mid-test.
    REPORT_CHECK_SECONDS: '900',
    ...options.env,
  });
  const clock = options.clock ?? new ManualClock(new Date());
  const vigil = await buildApp({ config, database: testDb.database, clock });
  await vigil.app.ready();

  const injectFetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    let payload: string | Buffer | undefined;
    const headers: Record<string, string> = { ...(init?.headers as Record<string, string> | undefined) };
    if (init?.body instanceof FormData) {
      const request = new Request('http://local/', { method: 'POST', body: init.body });
      payload = Buffer.from(await request.arrayBuffer());
      headers['content-type'] = request.headers.get('content-type') ?? '';
    } else if (typeof init?.body === 'string') payload = init.body;
    const res = await vigil.app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
    return new Response(res.rawPayload, { status: res.statusCode, headers: res.headers as Record<string, string> });
  }) as typeof fetch;

  const clientFor = (token: string | null | undefined, lang: string | undefined) =>
    createClient({ baseUrl: '', fetch: injectFetch, getToken: () => token, getLanguage: () => lang ?? 'en-US' });

  const call: TestApp['call'] = async (def, input, opts = {}) => {
    const headers: Record<string, string> = { 'accept-language': opts.lang ?? 'en-US' };
    if (opts.token) headers['x-token'] = opts.token;
    let url = def.path;
    let body: string | FormData | undefined;
    if (input instanceof FormData) body = input;
    else if (def.input === 'query') {
      const q = new URLSearchParams(
        Object.entries((input ?? {}) as Record<string, unknown>).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
      if (q) url += `?${q}`;
    } else if (def.input === 'form') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(
        Object.entries((input ?? {}) as Record<string, unknown>).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
    } else {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(input ?? {});
    }
    const res = await injectFetch(url, { method: def.method, headers, ...(body === undefined ? {} : { body }) });
    if (def.produces === 'binary' && !(res.headers.get('content-type') ?? '').startsWith('application/json')) {
      // A file: its readable text stands in for `data`, so checks over the answer (leaks) see its content.
      const bytes = new Uint8Array(await res.arrayBuffer());
      const data = readableText(res.headers.get('content-type') ?? '', bytes) as CallResult<typeof def>;
      return { status: Status.OK, msg: 'file', data, httpStatus: res.status };
    }
    const text = await res.text();
    const parsed = JSON.parse(text) as Envelope<CallResult<typeof def>>;
    if (parsed.status === Status.OK) assertDeclaredAnswer(def, parsed.data);
    else assertDeclaredFailure(def, parsed.msgKey, parsed.data);
    return { ...parsed, httpStatus: res.status };
  };

  const app: TestApp = {
    ...vigil,
    target,
    clock,
    config,
    database: testDb.database,
    client: clientFor(null, 'en-US'),
    call,
    download: (def, input, opts = {}) =>
      clientFor(opts.token, opts.lang).download(def, input as EndpointRequest<typeof def>),
    async login(userName, password) {
      const { adminLogin } = await import('@vigil/contract');
      const res = await call(adminLogin, { userName, passWord: password });
      if (res.status !== 200 || !res.data) throw new Error(`login ${userName} failed: ${res.status} ${res.msg}`);
      return res.data.token;
    },
    async close() {
      await vigil.app.close();
      if (!options.testDb) await testDb.close();
    },
  };
  return app;
};
