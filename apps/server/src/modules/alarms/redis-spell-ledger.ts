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
 * The record is a MessagePack array: lastSeq, lastTs, lastAt, then one array per type
 * {n, since, from, brk, gen, claimAt} (-1: none). The same steps as `mergeSample`,
 * `claimSpell` and `confirmSpell` (engine/shared-spell.ts); shared-spell.test.ts runs one table
 * of cases through both.
 */
const LOAD = `
local function load(key, types)
  local raw = redis.call('GET', key)
  local r = raw and cmsgpack.unpack(raw) or {-1, 0, 0}
  for i = #r - 2, types do r[3 + i] = r[3 + i] or {0, -1, -1, -1, 0, -1} end
  return r
end
`;

/** KEYS[1]: the device's record. ARGV: seq, ts, at, gapMs, ttlMs, reorder window, one verdict letter per type. */
const APPLY = `${LOAD}
local seq, ts, at = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local gapMs, ttl, window, verdicts = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
local types = #verdicts
local r = load(KEYS[1], types)
if r[1] >= 0 and seq < r[1] and (ts > r[2] or seq < r[1] - window) then
  for i = 1, types do
    local s = r[3 + i]
    s[4] = -1
    if s[2] >= 0 then s[3] = -1 end
  end
  r[1] = -1
end
local gap = r[3] > 0 and at - r[3] > gapMs
if seq > r[1] then r[1] = seq; r[2] = ts end
if at > r[3] then r[3] = at end
local out = {r[3]}
for i = 1, types do
  local s = r[3 + i]
  local v = string.sub(verdicts, i, i)
  local released, stale = 0, 0
  if v == 'c' then
    if s[2] >= 0 and seq >= s[3] then
      if s[5] > 0 then released = 1 end
      s[2] = -1; s[5] = 0; s[6] = -1
    elseif s[2] >= 0 then stale = 1 end
    if seq > s[4] then s[4] = seq end
  elseif v == 'p' then
    if s[2] >= 0 and s[5] == 0 and seq >= s[3] then s[2] = -1 end
    if seq > s[4] then s[4] = seq end
  elseif v == 'h' then
    if seq <= s[4] then stale = 1
    elseif s[2] < 0 or (gap and s[5] == 0) then
      s[1] = s[1] + 1; s[2] = at; s[3] = seq; s[5] = 0; s[6] = -1
    elseif seq < s[3] then
      s[3] = seq
      if at < s[2] then s[2] = at end
    end
  end
  for _, x in ipairs({s[1], s[2], s[3], s[4], s[5], s[6], released, stale}) do out[#out + 1] = x end
end
redis.call('SET', KEYS[1], cmsgpack.pack(r), 'PX', ttl)
return out
`;

/** KEYS[1]: the device's record. ARGV: type index (from 1), n, gen, at, lease, ttlMs. */
const CLAIM = `${LOAD}
local index, n, gen = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local at, lease, ttl = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local r = load(KEYS[1], index)
local s = r[3 + index]
local granted = 0
if s[1] == n and s[2] >= 0 then
  if s[5] == gen then
    s[5] = gen + 1; granted = 1
  elseif s[5] == gen + 1 and s[6] >= 0 and at - s[6] >= lease then
    granted = 1
  end
  if granted == 1 then
    s[6] = at
    redis.call('SET', KEYS[1], cmsgpack.pack(r), 'PX', ttl)
  end
end
return {granted, s[1], s[2], s[3], s[4], s[5], s[6]}
`;

/** KEYS[1]: the device's record. ARGV: type index (from 1), n, gen. */
const CONFIRM = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local r = cmsgpack.unpack(raw)
local s = r[3 + tonumber(ARGV[1])]
if s and s[1] == tonumber(ARGV[2]) and s[5] == tonumber(ARGV[3]) + 1 then
  s[6] = -1
  redis.call('SET', KEYS[1], cmsgpack.pack(r), 'KEEPTTL')
end
return 1
`;

type Script = (key: string, ...args: (string | number)[]) => Promise<number[]>;
interface SpellCommands {
  vigilSpellApply: Script;
  vigilSpellClaim: Script;
  vigilSpellConfirm: Script;
}

const spellOf = (row: readonly number[], at: number): SharedSpell => ({
  n: row[at] ?? 0,
  since: row[at + 1] ?? -1,
  from: row[at + 2] ?? -1,
  brk: row[at + 3] ?? -1,
  gen: row[at + 4] ?? 0,
  claimAt: row[at + 5] ?? -1,
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

  async apply(deviceId: string, sample: SpellSample): Promise<MergedSample> {
    const verdicts = sample.verdicts.map((v) => VERDICT_LETTER[v]).join('');
    const row = await this.scripts.vigilSpellApply(
      SPELL_KEY_PREFIX + deviceId,
      sample.seq,
      sample.ts,
      sample.at,
      this.gapMs,
      SPELL_TTL_MS,
      REORDER_WINDOW,
      verdicts,
    );
    const spells: SpellOutcome[] = sample.verdicts.map((_, i) => {
      const at = 1 + i * 8;
      return { ...spellOf(row, at), released: row[at + 6] === 1, stale: row[at + 7] === 1 };
    });
    return { lastAt: row[0] ?? sample.at, spells };
  }

  async claim(claim: LedgerClaim, at: number): Promise<{ granted: boolean; spell: SharedSpell }> {
    const row = await this.scripts.vigilSpellClaim(
      SPELL_KEY_PREFIX + claim.deviceId,
      claim.index + 1,
      claim.n,
      claim.gen,
      at,
      this.leaseMs,
      SPELL_TTL_MS,
    );
    return { granted: row[0] === 1, spell: spellOf(row, 1) };
  }

  async confirm(claim: LedgerClaim): Promise<void> {
    await this.scripts.vigilSpellConfirm(SPELL_KEY_PREFIX + claim.deviceId, claim.index + 1, claim.n, claim.gen);
  }
}
