import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Clock } from '../../clock.ts';
import type { Log } from '../../core/log.ts';
import type { LoginThrottle } from './login-throttle.ts';

/** Sign-in attempts a client address may make per minute: what one attempt does, atomically. */
const SLIDING_WINDOW = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', key, 0, now - 60000)
if redis.call('ZCARD', key) >= limit then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return math.max(1, math.ceil((tonumber(oldest[2]) + 60000 - now) / 1000))
end
redis.call('ZADD', key, now, ARGV[3])
redis.call('PEXPIRE', key, 60000)
return 0
`;

/**
 * The per-address sign-in limit shared by every instance (REDIS_URL set): a sliding minute per
 * address in a Redis sorted set, checked and recorded in one script. When Redis does not answer,
 * the instance's own count decides (`fallback`), so sign-in never depends on Redis being up.
 */
export class RedisLoginThrottle {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly perMinute: number,
    private readonly clock: Clock,
    private readonly fallback: LoginThrottle,
    private readonly log: Log,
  ) {
    this.redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, commandTimeout: 500 });
    this.redis.on('error', (error: Error) => this.log.warn({ err: error.message }, 'redis login limit'));
  }

  async attempt(ip: string): Promise<number> {
    try {
      const wait = await this.redis.eval(
        SLIDING_WINDOW,
        1,
        `vigil:login:${ip}`,
        this.clock.now().getTime(),
        this.perMinute,
        randomUUID(),
      );
      return Number(wait);
    } catch {
      return this.fallback.attempt(ip);
    }
  }

  async stop(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
