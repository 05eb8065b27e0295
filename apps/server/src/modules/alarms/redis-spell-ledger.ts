import { Redis } from 'ioredis';
import type { Log } from '../../core/log.ts';
import {
  CLAIM_LEASE_MS,
  REORDER_WINDOW,
  VERDICT_LETTER,
  type MergedSample,
  type SharedSpell,
  type SpellOutcome,
  type SpellSample,
} from './engine/shared-spell.ts';
import type { LedgerClaim, SpellLedger } from './spell-ledger.ts';

/** A device's spells: one key each, forgotten an hour after its last sample. */
export const SPELL_KEY_PREFIX = 'vigil:spell:';
const SPELL_TTL_MS = 3_600_000;

/**
 * The record is a string of little-endian doubles (Lua's struct: flat, no tables to build):
 * lastSeq, lastTs, lastAt, then six a type {n, since, from, brk, gen, claimAt} (-1: none). The
 * same steps as `mergeSample`, `claimSpell` and `confirmSpell` (engine/shared-spell.ts);
 * shared-spell.test.ts runs one table of cases through both. Answers are doubles too.
 */
const RECORD = `
local function load(key, types)
  local raw = redis.call('GET', key)
  local r = {-1, 0, 0}
  if raw then
    local count = #raw / 8
    r = {struct.unpack('<' .. string.rep('d', count), raw)}
    r[count + 1] = nil
  end
  for i = #r + 1, 3 + 6 * types, 6 do
    r[i], r[i + 1], r[i + 2], r[i + 3], r[i + 4], r[i + 5] = 0, -1, -1, -1, 0, -1
  end
  return r
end
local function pack(values)
  return struct.pack('<' .. string.rep('d', #values), unpack(values))
end
`;

/** KEYS[1]: the device's record. ARGV: seq, ts, at, gapMs, ttlMs, reorder window, one verdict letter per type. */
const APPLY = `${RECORD}
local seq, ts, at = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local gapMs, ttl, window, verdicts = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
local types = #verdicts
local r = load(KEYS[1], types)
if r[1] >= 0 and seq < r[1] and (ts > r[2] or seq < r[1] - window) then
  for b = 3, 3 + 6 * (types - 1), 6 do
    r[b + 4] = -1
    if r[b + 2] >= 0 then r[b + 3] = -1 end
  end
  r[1] = -1
end
local gap = r[3] > 0 and at - r[3] > gapMs
if seq > r[1] then r[1] = seq; r[2] = ts end
if at > r[3] then r[3] = at end
local out = {r[3]}
for i = 1, types do
  local b = 3 + 6 * (i - 1)
  local v = string.byte(verdicts, i)
  local released, stale = 0, 0
  if v == 99 then -- c
    if r[b + 2] >= 0 and seq >= r[b + 3] then
      if r[b + 5] > 0 then released = 1 end
      r[b + 2] = -1; r[b + 5] = 0; r[b + 6] = -1
    elseif r[b + 2] >= 0 then stale = 1 end
    if seq > r[b + 4] then r[b + 4] = seq end
  elseif v == 112 then -- p
    if r[b + 2] >= 0 and r[b + 5] == 0 and seq >= r[b + 3] then r[b + 2] = -1 end
    if seq > r[b + 4] then r[b + 4] = seq end
  elseif v == 104 then -- h
    if seq <= r[b + 4] then stale = 1
    elseif r[b + 2] < 0 or (gap and r[b + 5] == 0) then
      r[b + 1] = r[b + 1] + 1; r[b + 2] = at; r[b + 3] = seq; r[b + 5] = 0; r[b + 6] = -1
    elseif seq < r[b + 3] then
      r[b + 3] = seq
      if at < r[b + 2] then r[b + 2] = at end
    end
  end
  local o = #out
  for k = 1, 6 do out[o + k] = r[b + k] end
  out[o + 7] = released
  out[o + 8] = stale
end
redis.call('SET', KEYS[1], pack(r), 'PX', ttl)
return pack(out)
`;

/** KEYS[1]: the device's record. ARGV: type index (from 1), n, gen, at, lease, ttlMs. */
const CLAIM = `${RECORD}
local index, n, gen = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local at, lease, ttl = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local r = load(KEYS[1], index)
local b = 3 + 6 * (index - 1)
local granted = 0
if r[b + 1] == n and r[b + 2] >= 0 then
  if r[b + 5] == gen then
    r[b + 5] = gen + 1; granted = 1
  elseif r[b + 5] == gen + 1 and r[b + 6] >= 0 and at - r[b + 6] >= lease then
    granted = 1
  end
  if granted == 1 then
    r[b + 6] = at
    redis.call('SET', KEYS[1], pack(r), 'PX', ttl)
  end
end
return pack({granted, r[b + 1], r[b + 2], r[b + 3], r[b + 4], r[b + 5], r[b + 6]})
`;

/** KEYS[1]: the device's record. ARGV: type index (from 1), n, gen. */
const CONFIRM = `${RECORD}
local index = tonumber(ARGV[1])
local r = load(KEYS[1], index)
local b = 3 + 6 * (index - 1)
if r[b + 1] == tonumber(ARGV[2]) and r[b + 5] == tonumber(ARGV[3]) + 1 and r[b + 6] >= 0 then
  r[b + 6] = -1
  redis.call('SET', KEYS[1], pack(r), 'KEEPTTL')
end
return 1
`;

type Script<T> = (key: string, ...args: (string | number)[]) => Promise<T>;
interface SpellCommands {
  vigilSpellApplyBuffer: Script<Buffer>;
  vigilSpellClaimBuffer: Script<Buffer>;
  vigilSpellConfirm: Script<number>;
}

/** The i-th double of an answer. */
const double = (answer: Buffer, i: number): number => answer.readDoubleLE(i * 8);

const spellOf = (answer: Buffer, i: number): SharedSpell => ({
  n: double(answer, i),
  since: double(answer, i + 1),
  from: double(answer, i + 2),
  brk: double(answer, i + 3),
  gen: double(answer, i + 4),
  claimAt: double(answer, i + 5),
});

/**
 * The shared spells in Redis (REDIS_URL): each call one Lua script, so each sample's merge and
 * each claim is atomic however many instances send them. Commands fail fast instead of queueing
 * while Redis is away (the caller then judges the sample on this instance's own count).
 */
export class RedisSpellLedger implements SpellLedger {
  private readonly redis: Redis;
  private readonly scripts: SpellCommands;

  constructor(
    url: string,
    private readonly log: Log,
    private readonly gapMs: number,
    private readonly leaseMs = CLAIM_LEASE_MS,
  ) {
    this.redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 2_000,
      enableAutoPipelining: true,
    });
    this.redis.on('error', (error: Error) => this.log.warn({ err: error.message }, 'redis spell ledger'));
    this.redis.defineCommand('vigilSpellApply', { numberOfKeys: 1, lua: APPLY });
    this.redis.defineCommand('vigilSpellClaim', { numberOfKeys: 1, lua: CLAIM });
    this.redis.defineCommand('vigilSpellConfirm', { numberOfKeys: 1, lua: CONFIRM });
    this.scripts = this.redis as unknown as SpellCommands;
  }

  /** Connects; an unreachable Redis does not hold the start up (samples are judged here until it answers). */
  async start(): Promise<void> {
    await this.redis.connect().catch((error: unknown) => {
      this.log.warn({ err: String(error) }, 'redis spell ledger not reachable; duration alarms counted per instance');
    });
  }

  async stop(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }

  /** Answering: duration alarms are judged on every instance's samples together (for /readyz). */
  get up(): boolean {
    return this.redis.status === 'ready';
  }

  async apply(deviceId: string, sample: SpellSample): Promise<MergedSample> {
    const verdicts = sample.verdicts.map((v) => VERDICT_LETTER[v]).join('');
    const answer = await this.scripts.vigilSpellApplyBuffer(
      SPELL_KEY_PREFIX + deviceId,
      sample.seq,
      sample.ts,
      sample.at,
      this.gapMs,
      SPELL_TTL_MS,
      REORDER_WINDOW,
      verdicts,
    );
    const spells: SpellOutcome[] = sample.verdicts.map((_, type) => {
      const i = 1 + type * 8;
      const { n, since, from, brk, gen, claimAt } = spellOf(answer, i);
      return {
        n,
        since,
        from,
        brk,
        gen,
        claimAt,
        released: double(answer, i + 6) === 1,
        stale: double(answer, i + 7) === 1,
      };
    });
    return { lastAt: double(answer, 0), spells };
  }

  async claim(claim: LedgerClaim, at: number): Promise<{ granted: boolean; spell: SharedSpell }> {
    const answer = await this.scripts.vigilSpellClaimBuffer(
      SPELL_KEY_PREFIX + claim.deviceId,
      claim.index + 1,
      claim.n,
      claim.gen,
      at,
      this.leaseMs,
      SPELL_TTL_MS,
    );
    return { granted: double(answer, 0) === 1, spell: spellOf(answer, 1) };
  }

  async confirm(claim: LedgerClaim): Promise<void> {
    await this.scripts.vigilSpellConfirm(SPELL_KEY_PREFIX + claim.deviceId, claim.index + 1, claim.n, claim.gen);
  }
}
