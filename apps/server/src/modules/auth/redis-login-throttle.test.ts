import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import { freePort } from '../../test/free-port.ts';
import { LoginThrottle } from './login-throttle.ts';
import { RedisLoginThrottle } from './redis-login-throttle.ts';

const url = process.env.REDIS_URL;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('the per-address sign-in limit in Redis', () => {
  const throttles: RedisLoginThrottle[] = [];
  const make = (redisUrl: string, clock: ManualClock, perMinute = 3) => {
    const t = new RedisLoginThrottle(redisUrl, perMinute, clock, new LoginThrottle(perMinute, clock), quiet);
    throttles.push(t);
    return t;
  };
  afterAll(() => Promise.all(throttles.map((t) => t.stop())));

  it.skipIf(!url)(`is shared by every instance${url ? '' : ' — skipped: REDIS_URL is not set'}`, async () => {
    const clock = new ManualClock(new Date());
    const [a, b] = [make(url ?? '', clock), make(url ?? '', clock)];
    const ip = `198.51.100.${Math.floor(Math.random() * 200)}-${randomUUID()}`;
    expect([await a.attempt(ip), await b.attempt(ip), await a.attempt(ip)]).toEqual([0, 0, 0]);
    // The fourth within the minute, on either instance, waits.
    expect(await b.attempt(ip)).toBeGreaterThan(0);
    expect(await a.attempt(ip)).toBeLessThanOrEqual(60);
    expect(await a.attempt(`${ip}-other`)).toBe(0);
    clock.advance(61_000);
    expect(await b.attempt(ip)).toBe(0);
  });

  it('falls back to the instance’s own count when Redis does not answer', async () => {
    const clock = new ManualClock(new Date());
    const down = make(`redis://127.0.0.1:${await freePort()}`, clock, 2);
    expect([await down.attempt('203.0.113.9'), await down.attempt('203.0.113.9')]).toEqual([0, 0]);
    expect(await down.attempt('203.0.113.9')).toBeGreaterThan(0);
  });
});
