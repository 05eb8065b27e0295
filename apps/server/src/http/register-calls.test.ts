import { adminLogin } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';

describe('edge of the API', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('pglite');
  });
  afterAll(() => app?.close());

  it('answers a body over the size limit with a 400 envelope, not a 500', async () => {
    const res = await app.app.inject({
      method: 'POST',
      url: adminLogin.path,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ userName: 'x', passWord: 'y'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json()).toMatchObject({ status: 400, msgKey: 'validation.tooLarge' });
  });

  it('treats a field of spaces as missing', async () => {
    const res = await app.call(adminLogin, { userName: '   ', passWord: 'x' });
    expect(res).toMatchObject({ status: 400, msgKey: 'validation.required' });
  });

  it('answers unknown API paths with a 404 envelope, and browser navigations with the console', async () => {
    const api = await app.app.inject({ method: 'POST', url: '/nope/nothing', payload: {} });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ msgKey: 'not_found' });
    const page = await app.app.inject({
      method: 'GET',
      url: '/permission/accountmanager',
      headers: { accept: 'text/html' },
    });
    expect([200, 503]).toContain(page.statusCode);
    expect(page.headers['content-type']).toContain('text/html');
  });
});
