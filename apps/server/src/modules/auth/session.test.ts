import { adminLogin, adminLogout, adminSession, Status } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';

interface Body {
  status: number;
  msgKey?: string;
  msg: string;
  data: { userName?: string } | null;
}

describeEachDb('session tokens (%s)', (target) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(target);
  });
  afterAll(() => app?.close());

  const getInfo = (headers: Record<string, string>) =>
    app.app.inject({ method: 'GET', url: adminSession.path, headers: { 'accept-language': 'en-US', ...headers } });

  it('accepts the token in X-Token', async () => {
    const token = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const res = await getInfo({ 'x-token': token });
    expect(res.statusCode).toBe(200);
    const body = res.json<Body>();
    expect(body.status).toBe(200);
    expect(body.data?.userName).toBe(ADMIN_USER);
  });

  it('accepts the token as Authorization: Bearer', async () => {
    const token = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    for (const scheme of ['Bearer', 'bearer']) {
      const res = await getInfo({ authorization: `${scheme} ${token}` });
      expect(res.statusCode, scheme).toBe(200);
      const body = res.json<Body>();
      expect(body.status, scheme).toBe(200);
      expect(body.data?.userName).toBe(ADMIN_USER);
    }
  });

  it('does not take other Authorization schemes as a token', async () => {
    const token = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const res = await getInfo({ authorization: `Basic ${token}` });
    expect(res.statusCode).toBe(401);
  });

  it('answers HTTP 401 session.required without a token', async () => {
    const res = await app.call(adminSession, {});
    expect(res.httpStatus).toBe(401);
    expect(res.status).toBe(Status.SESSION_INVALID);
    expect(res.msgKey).toBe('session.required');
    expect(res.data).toBeNull();
  });

  it('answers HTTP 401 for a garbage token, an overlong token and an empty Bearer', async () => {
    for (const token of ['garbage', 'x'.repeat(129), 'a'.repeat(43)]) {
      const res = await app.call(adminSession, {}, { token });
      expect(res.httpStatus, token).toBe(401);
      expect(res.status, token).toBe(Status.SESSION_INVALID);
      expect(res.msgKey, token).toBe('session.required');
    }
    const emptyBearer = await getInfo({ authorization: 'Bearer ' });
    expect(emptyBearer.statusCode).toBe(401);
  });

  it('answers HTTP 401 with the old token after logout, and logout once only', async () => {
    const token = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const other = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const out = await app.call(adminLogout, {}, { token });
    expect(out.status).toBe(200);
    const after = await app.call(adminSession, {}, { token });
    expect(after.httpStatus).toBe(401);
    expect(after.msgKey).toBe('session.required');
    const again = await app.call(adminLogout, {}, { token });
    expect(again.httpStatus).toBe(401);
    // Logging out ends that session only.
    expect((await app.call(adminSession, {}, { token: other })).status).toBe(200);
  });

  it('expires a session idle for longer than sessionIdleMs with 101 session.expired (HTTP 200)', async () => {
    const token = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    app.clock.advance(app.config.sessionIdleMs + 1_000);
    const res = await app.call(adminSession, {}, { token });
    expect(res.httpStatus).toBe(200);
    expect(res.status).toBe(Status.SESSION_EXPIRED);
    expect(res.msgKey).toBe('session.expired');
    expect(res.data).toBeNull();
    const zh = await app.call(adminSession, {}, { token, lang: 'zh-CN' });
    expect(zh.msg).toBe('登录已过期，请重新登录。');
    // Expired stays expired even after more time.
    app.clock.advance(60_000);
    expect((await app.call(adminSession, {}, { token })).status).toBe(Status.SESSION_EXPIRED);
  });

  it('keeps a session in use alive past the idle time', async () => {
    const token = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const step = app.config.sessionIdleMs - 5 * 60_000;
    for (let i = 0; i < 3; i++) {
      app.clock.advance(step);
      const res = await app.call(adminSession, {}, { token });
      expect(res.status, `step ${i}`).toBe(200);
    }
    // Far more than the idle time since login, yet never idle that long.
    app.clock.advance(app.config.sessionIdleMs + 1_000);
    expect((await app.call(adminSession, {}, { token })).status).toBe(Status.SESSION_EXPIRED);
  });

  it('does not expire a session exactly at the idle limit', async () => {
    const token = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    app.clock.advance(app.config.sessionIdleMs);
    expect((await app.call(adminSession, {}, { token })).status).toBe(200);
  });

  it('lets the user log in again after expiry', async () => {
    const token = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    app.clock.advance(app.config.sessionIdleMs + 1);
    expect((await app.call(adminSession, {}, { token })).status).toBe(Status.SESSION_EXPIRED);
    const res = await app.call(adminLogin, { userName: ADMIN_USER, passWord: ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    expect((await app.call(adminSession, {}, { token: res.data?.token ?? '' })).status).toBe(200);
  });
});
