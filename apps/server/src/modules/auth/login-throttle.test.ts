import { createHmac } from 'node:crypto';
import { adminLogin, adminSso, Status } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { LoginThrottle } from './login-throttle.ts';

describe('LoginThrottle', () => {
  const make = (perMinute: number) => {
    const clock = new ManualClock(new Date('2026-05-01T12:00:00Z'));
    return { clock, throttle: new LoginThrottle(perMinute, clock) };
  };

  it('allows perMinute attempts, then answers the seconds until the oldest leaves the window', () => {
    const { clock, throttle } = make(3);
    expect([throttle.attempt('ip'), throttle.attempt('ip'), throttle.attempt('ip')]).toEqual([0, 0, 0]);
    expect(throttle.attempt('ip')).toBe(60);
    clock.advance(20_000);
    expect(throttle.attempt('ip')).toBe(40);
    clock.advance(39_500);
    expect(throttle.attempt('ip')).toBe(1);
  });

  it('allows again once a minute has passed since the oldest attempt', () => {
    const { clock, throttle } = make(2);
    throttle.attempt('ip');
    throttle.attempt('ip');
    clock.advance(59_999);
    expect(throttle.attempt('ip')).toBeGreaterThan(0);
    clock.advance(1);
    expect(throttle.attempt('ip')).toBe(0);
  });

  it('slides: each attempt leaves the window a minute after it was made', () => {
    const { clock, throttle } = make(2);
    expect(throttle.attempt('ip')).toBe(0); // t = 0
    clock.advance(30_000);
    expect(throttle.attempt('ip')).toBe(0); // t = 30 s
    clock.advance(15_000);
    expect(throttle.attempt('ip')).toBe(15); // t = 45 s: the first leaves at 60 s
    clock.advance(16_000);
    expect(throttle.attempt('ip')).toBe(0); // t = 61 s: one slot free
    expect(throttle.attempt('ip')).toBe(29); // the t = 30 s attempt leaves at 90 s
  });

  it('does not count refused attempts', () => {
    const { clock, throttle } = make(1);
    throttle.attempt('ip');
    for (let i = 0; i < 50; i++) throttle.attempt('ip');
    clock.advance(60_000);
    expect(throttle.attempt('ip')).toBe(0);
  });

  it('limits each address on its own', () => {
    const { throttle } = make(1);
    expect(throttle.attempt('10.0.0.1')).toBe(0);
    expect(throttle.attempt('10.0.0.1')).toBeGreaterThan(0);
    expect(throttle.attempt('10.0.0.2')).toBe(0);
    expect(throttle.attempt('::1')).toBe(0);
  });

  it('forgets idle addresses once it tracks many', () => {
    const { clock, throttle } = make(5);
    for (let i = 0; i < 10_001; i++) throttle.attempt(`ip-${i}`);
    const hits = (throttle as unknown as { hits: Map<string, number[]> }).hits;
    expect(hits.size).toBe(10_001);
    clock.advance(61_000);
    throttle.attempt('late');
    expect(hits.size).toBe(1);
    expect(throttle.attempt('ip-0')).toBe(0);
  });
});

describeEachDb('per-address login rate limit (%s)', (target) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(target, { env: { LOGIN_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => app?.close());

  /** Login from a given client address (the app trusts X-Forwarded-For from its proxy). */
  const loginFrom = async (ip: string, passWord: string, lang = 'en-US') => {
    const res = await app.app.inject({
      method: 'POST',
      url: adminLogin.path,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, 'accept-language': lang },
      payload: JSON.stringify({ userName: ADMIN_USER, passWord }),
    });
    return res.json<{ status: number; msgKey?: string; msg: string; data: unknown }>();
  };

  it('reads the limit from LOGIN_RATE_LIMIT_PER_MINUTE', () => {
    expect(app.config.loginRateLimitPerMinute).toBe(3);
  });

  it('refuses the fourth attempt in a minute with login.rateLimited, even with the right password', async () => {
    const ip = '203.0.113.10';
    expect((await loginFrom(ip, 'Wrong#Pass1')).msgKey).toBe('login.wrong');
    expect((await loginFrom(ip, 'Wrong#Pass2')).msgKey).toBe('login.wrong');
    expect((await loginFrom(ip, ADMIN_PASSWORD)).status).toBe(200);
    const fourth = await loginFrom(ip, ADMIN_PASSWORD);
    expect(fourth.status).toBe(Status.FAILED);
    expect(fourth.msgKey).toBe('login.rateLimited');
    expect(fourth.data).toBeNull();
    expect(fourth.msg).toBe('Too many login attempts from this address. Try again in 60 seconds.');
    const zh = await loginFrom(ip, ADMIN_PASSWORD, 'zh-CN');
    expect(zh.msg).toBe('该地址登录尝试过于频繁，请 60 秒后再试。');

    app.clock.advance(61_000);
    const later = await loginFrom(ip, ADMIN_PASSWORD);
    expect(later.status).toBe(200);
  });

  it('does not hold back other addresses', async () => {
    const busy = '203.0.113.20';
    for (let i = 0; i < 3; i++) await loginFrom(busy, 'Wrong#Pass1');
    expect((await loginFrom(busy, ADMIN_PASSWORD)).msgKey).toBe('login.rateLimited');
    expect((await loginFrom('203.0.113.21', ADMIN_PASSWORD)).status).toBe(200);
    app.clock.advance(61_000);
  });

  it('does not count rate-limited attempts towards the account lockout', async () => {
    const ip = '203.0.113.30';
    for (let i = 0; i < 3; i++) await loginFrom(ip, 'Wrong#Pass1');
    for (let i = 0; i < 5; i++) expect((await loginFrom(ip, 'Wrong#Pass1')).msgKey).toBe('login.rateLimited');
    // Three failures only were checked: the account is not locked.
    expect((await loginFrom('203.0.113.31', ADMIN_PASSWORD)).status).toBe(200);
    app.clock.advance(61_000);
  });

  it('counts fast logins against the same limit', async () => {
    const timestamp = String(Math.floor(app.clock.now().getTime() / 1000));
    const secretPassword = createHmac('sha256', 'test-sso-secret-0123456789')
      .update(ADMIN_USER + timestamp)
      .digest('hex');
    const ip = '203.0.113.40';
    for (let i = 0; i < 3; i++) await loginFrom(ip, 'Wrong#Pass1');
    const res = await app.app.inject({
      method: 'POST',
      url: adminSso.path,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
      payload: new URLSearchParams({ userName: ADMIN_USER, secretPassword, timestamp }).toString(),
    });
    expect(res.json<{ msgKey?: string }>().msgKey).toBe('login.rateLimited');
    app.clock.advance(61_000);
  });
});
