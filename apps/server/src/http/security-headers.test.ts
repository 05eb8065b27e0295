import { adminLogin, getPlatformName } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../test/harness.ts';

/** The policy as a map of directive → sources. */
const directives = (header: string | string[] | number | undefined): Map<string, string[]> =>
  new Map(
    String(header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words): words is [string, ...string[]] => words[0] !== undefined && words[0] !== '')
      .map(([name, ...sources]) => [name, sources]),
  );

describe('security headers', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('pglite');
  });
  afterAll(() => app?.close());

  const answers = () =>
    Promise.all(
      [
        { url: '/', headers: { accept: 'text/html' } },
        { url: '/people-manage/userManage', headers: { accept: 'text/html' } },
        { url: getPlatformName.path },
        { method: 'POST' as const, url: adminLogin.path, payload: { userName: ADMIN_USER, passWord: 'x' } },
        { url: '/no/such/path' },
        { url: '/healthz' },
      ].map(async (request) => ({ where: request.url, res: await app.app.inject(request) })),
    );

  it('puts a strict policy on the console, the API, errors and health answers', async () => {
    for (const { where, res } of await answers()) {
      expect(res.headers['x-frame-options'], where).toBe('DENY');
      expect(res.headers['x-content-type-options'], where).toBe('nosniff');
      expect(res.headers['referrer-policy'], where).toBe('no-referrer');
      const csp = directives(res.headers['content-security-policy']);
      // Injected script has nowhere to run: own-origin files only, no inline, no eval, no plugins, no framing.
      expect(csp.get('script-src'), where).toEqual(["'self'"]);
      expect(csp.get('default-src'), where).toEqual(["'self'"]);
      expect(csp.get('object-src'), where).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), where).toEqual(["'none'"]);
      expect(csp.get('base-uri'), where).toEqual(["'self'"]);
      expect(csp.get('form-action'), where).toEqual(["'self'"]);
      for (const sources of csp.values()) {
        expect(sources, where).not.toContain("'unsafe-eval'");
        expect(sources, where).not.toContain('*');
      }
    }
  });

  it('keeps them on a signed-in answer', async () => {
    const token = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const res = await app.app.inject({ url: getPlatformName.path, headers: { authorization: token } });
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('lets Swagger UI run its own hashed scripts, still unframeable and without an https upgrade', async () => {
    const res = await app.app.inject({ url: '/docs/' });
    const csp = directives(res.headers['content-security-policy']);
    expect(csp.get('script-src')?.[0]).toBe("'self'");
    expect(
      csp
        .get('script-src')
        ?.slice(1)
        .every((source) => source.startsWith("'sha256-")),
    ).toBe(true);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
