import { calls, insertProvider, queryProviderList, Status, type CallDef } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeProvider } from '../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../test/harness.ts';
import { forbiddenTextAt } from './text-guard.ts';

/**
 * Issue 8, point 23: a NUL in a text field or search keyword answered an inner 500 (PostgreSQL
 * refuses it). Control characters and lone surrogates are refused at the edge, naming the field.
 */
describe('forbiddenTextAt', () => {
  it('finds control characters and lone surrogates by their path, and lets tabs, new lines and pairs pass', () => {
    expect(forbiddenTextAt({ name: 'a\u0000b' })).toEqual(['name']);
    expect(forbiddenTextAt({ contacts: [{ name: 'ok' }, { name: 'x\u001by' }] })).toEqual(['contacts', 1, 'name']);
    expect(forbiddenTextAt({ remark: 'x\u007f' })).toEqual(['remark']);
    expect(forbiddenTextAt({ name: 'lone \ud800 high' })).toEqual(['name']);
    expect(forbiddenTextAt({ name: 'lone \udc00 low' })).toEqual(['name']);
    expect(forbiddenTextAt({ ['bad\u0000key']: 1 })).toEqual(['bad\u0000key']);
    expect(forbiddenTextAt({ remark: 'line 1\r\nline 2\tend', name: '王 😀 Zoë' })).toBeNull();
    expect(forbiddenTextAt({ file: { filename: 'a.xlsx', bytes: new Uint8Array([0, 1, 2]) } })).toBeNull();
  });
});

type Poison = { label: string; value: string; jsonOnly?: true };
const POISONS: readonly Poison[] = [
  { label: 'NUL', value: 'a\u0000b' },
  { label: 'ESC', value: 'a\u001bb' },
  { label: 'DEL', value: 'a\u007fb' },
  // Query strings and forms cannot carry a lone surrogate (encoders replace it); JSON can.
  { label: 'lone surrogate', value: 'a\ud800b', jsonOnly: true },
];

/** The request's top-level fields that take text (a string, alone or among other types). */
const textFields = (call: CallDef): string[] => {
  const schema = z.toJSONSchema(call.request, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, { type?: string | string[]; anyOf?: { type?: string }[] }>;
  };
  return Object.entries(schema.properties ?? {})
    .filter(([, node]) => {
      const types = [node.type, ...(node.anyOf ?? []).map((n) => n.type)].flat();
      return types.includes('string');
    })
    .map(([name]) => name);
};

const asInput = (call: CallDef, values: Record<string, string>): Record<string, string> | FormData => {
  if (call.input !== 'multipart') return values;
  const form = new FormData();
  for (const [k, v] of Object.entries(values)) form.append(k, v);
  return form;
};

describe('control characters sent to every call', () => {
  let app: TestApp;
  const tokens: Record<string, string> = {};
  const logins: Record<string, { userName: string; password: string }> = {};
  beforeAll(async () => {
    app = await createTestApp('pglite');
    logins.administrator = { userName: ADMIN_USER, password: ADMIN_PASSWORD };
    tokens.administrator = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    logins.provider = await makeProvider(app, tokens.administrator, 'Fuzz Home');
    tokens.provider = await app.login(logins.provider.userName, logins.provider.password);
  });
  afterAll(() => app.close());

  it('never answers an inner 500, and refuses NUL in a text field with a 400 naming it', async () => {
    const refusedFields: string[] = [];
    for (const [name, call] of Object.entries(calls) as [string, CallDef][]) {
      const fields = textFields(call);
      const targets = fields.length ? fields : ['keyWord'];
      for (const poison of POISONS) {
        if (poison.jsonOnly && call.input !== 'json') continue;
        for (const field of targets) {
          for (const who of Object.keys(logins)) {
            const token = tokens[who] ?? '';
            const res = await app.call(call, asInput(call, { [field]: poison.value }) as never, {
              token,
              lang: 'en-US',
            });
            const where = `${name} ${field} ${poison.label} as ${who}`;
            // A call that ended the session (logout) must not hide the rest behind "log in again".
            if (res.status === Status.SESSION_INVALID || res.status === Status.SESSION_EXPIRED) {
              const login = logins[who];
              if (login) tokens[who] = await app.login(login.userName, login.password);
            }
            expect(res.status, `${where}: ${res.msg}`).not.toBe(Status.SERVER_ERROR);
            if (res.msgKey === 'validation.controlCharacter') refusedFields.push(`${name}.${field}`);
          }
        }
      }
    }
    // Every call that takes text refuses it somewhere (a role refused first still gets no 500).
    expect(refusedFields.length).toBeGreaterThan(100);
  });

  it('names the field in the message of the two calls the probe broke', async () => {
    const search = await app.call(
      queryProviderList,
      { pageNum: 1, pageSize: 10, keyWord: 'a\u0000b' },
      { token: tokens.administrator, lang: 'en-US' },
    );
    expect(search).toMatchObject({ status: Status.INVALID_INPUT, msgKey: 'validation.controlCharacter' });
    expect(search.msg).toContain('invisible control character');
    const insert = await app.call(
      insertProvider,
      { name: 'Evil\u0000Home', userName: 'evilHome', passWord: 'Care#Home2026' },
      { token: tokens.administrator, lang: 'en-US' },
    );
    expect(insert).toMatchObject({ status: Status.INVALID_INPUT, msgKey: 'validation.controlCharacter' });
  });

  it('answers 404, not 500, to a path that climbs out of the console folder', async () => {
    for (const url of ['/assets/..%2f..%2f..%2fpackage.json', '/..%2fpackage.json', '/assets/x%00.js']) {
      const res = await app.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json<{ msgKey: string }>().msgKey, url).toBe('not_found');
    }
  });
});
