import { randomBytes } from 'node:crypto';
import { SLEEP_ALARM_TYPES } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LateLog } from '../../../core/log.ts';
import { RedisSpellLedger } from '../redis-spell-ledger.ts';
import { MemorySpellLedger, type SpellLedger } from '../spell-ledger.ts';
import { VITALS_GAP_MS } from './alarm-engine.ts';
import { CLAIM_LEASE_MS, REORDER_WINDOW, type SpellOutcome, type SpellVerdict } from './shared-spell.ts';

const T0 = Date.UTC(2026, 10, 26, 2);
const BREATH_STOP = SLEEP_ALARM_TYPES.indexOf('BREATH_STOP');

/**
 * One step of a device's story: a sample (its seq; `ts` and receipt default to one second a
 * seq from T0), a claim of the spell's raise, or its confirmation. `expect` is what the ledger
 * must answer for BREATH_STOP (every other type's sample clears).
 */
type Step =
  | { sample: SpellVerdict; seq: number; ts?: number; at?: number; expect: Partial<SpellOutcome> }
  | { claim: { n: number; gen: number }; at: number; expect: { granted: boolean } & Partial<SpellOutcome> }
  | { confirm: { n: number; gen: number } };

const hold = (seq: number, expect: Partial<SpellOutcome> = {}, over: { ts?: number; at?: number } = {}): Step => ({
  sample: 'hold',
  seq,
  ...over,
  expect,
});
const clear = (seq: number, expect: Partial<SpellOutcome> = {}, over: { ts?: number; at?: number } = {}): Step => ({
  sample: 'clear',
  seq,
  ...over,
  expect,
});
const pause = (seq: number, expect: Partial<SpellOutcome> = {}): Step => ({ sample: 'pause', seq, expect });
const sec = (s: number) => T0 + s * 1000;

/** The stories, each on a device of its own. */
const CASES: { name: string; steps: Step[] }[] = [
  {
    name: 'in order: a spell begins at its first sample and a break ends it',
    steps: [
      hold(1, { n: 1, since: sec(1), from: 1, stale: false }),
      hold(2, { n: 1, since: sec(1) }),
      clear(3, { since: -1, released: false, brk: 3 }),
      hold(4, { n: 2, since: sec(4), from: 4 }),
    ],
  },
  {
    name: 'a sample older than a break is stale: it begins no spell',
    steps: [
      clear(5, { since: -1, brk: 5 }),
      hold(4, { since: -1, stale: true }, { at: sec(5.5) }),
      hold(6, { n: 1, since: sec(6), from: 6 }),
    ],
  },
  {
    name: 'a break older than the running spell is stale: the spell goes on',
    steps: [
      clear(1),
      hold(3, { n: 1, since: sec(3), from: 3 }),
      clear(2, { n: 1, since: sec(3), stale: true, released: false }, { at: sec(3.2) }),
      hold(4, { n: 1, since: sec(3) }),
    ],
  },
  {
    name: 'a break arriving after later samples ends the spell: the next sample begins the next (late, never early)',
    steps: [
      hold(1, { n: 1, since: sec(1) }),
      hold(2, { n: 1 }),
      hold(4, { n: 1 }),
      clear(3, { since: -1, brk: 3, stale: false }, { at: sec(4.1) }),
      hold(5, { n: 2, since: sec(5), from: 5 }),
    ],
  },
  {
    name: 'an earlier sample of the spell arriving late dates it from that sample',
    steps: [
      clear(1),
      hold(3, { n: 1, since: sec(3), from: 3 }),
      hold(2, { n: 1, from: 2, since: sec(2.5) }, { at: sec(2.5) }),
    ],
  },
  {
    name: 'one raise per spell: granted once, and the break that ends it releases it once',
    steps: [
      hold(1, { n: 1 }),
      { claim: { n: 1, gen: 0 }, at: sec(31), expect: { granted: true, gen: 1, claimAt: sec(31) } },
      { claim: { n: 1, gen: 0 }, at: sec(31), expect: { granted: false, gen: 1 } },
      { confirm: { n: 1, gen: 0 } },
      hold(2, { n: 1, gen: 1, claimAt: -1 }),
      clear(3, { since: -1, released: true, gen: 0 }),
      clear(4, { since: -1, released: false }),
      { claim: { n: 1, gen: 0 }, at: sec(40), expect: { granted: false } },
    ],
  },
  {
    name: 'a handled spell raised again after its snooze: the second raise is granted once too',
    steps: [
      hold(1),
      { claim: { n: 1, gen: 0 }, at: sec(31), expect: { granted: true, gen: 1 } },
      { confirm: { n: 1, gen: 0 } },
      { claim: { n: 1, gen: 1 }, at: sec(631), expect: { granted: true, gen: 2 } },
      { claim: { n: 1, gen: 1 }, at: sec(631), expect: { granted: false, gen: 2 } },
    ],
  },
  {
    name: 'a raise claimed and never confirmed (its instance died) is granted again after the lease, once',
    steps: [
      hold(1),
      { claim: { n: 1, gen: 0 }, at: sec(31), expect: { granted: true, gen: 1 } },
      { claim: { n: 1, gen: 0 }, at: sec(31) + CLAIM_LEASE_MS - 1, expect: { granted: false } },
      { claim: { n: 1, gen: 0 }, at: sec(31) + CLAIM_LEASE_MS, expect: { granted: true, gen: 1 } },
      { claim: { n: 1, gen: 0 }, at: sec(31) + CLAIM_LEASE_MS, expect: { granted: false } },
      { confirm: { n: 1, gen: 0 } },
      { claim: { n: 1, gen: 0 }, at: sec(31) + 3 * CLAIM_LEASE_MS, expect: { granted: false, claimAt: -1 } },
    ],
  },
  {
    name: 'a claim for a spell that ended, or an older spell, is refused',
    steps: [
      hold(1),
      clear(2),
      { claim: { n: 1, gen: 0 }, at: sec(31), expect: { granted: false, since: -1 } },
      hold(3, { n: 2 }),
      { claim: { n: 1, gen: 0 }, at: sec(33), expect: { granted: false, n: 2 } },
    ],
  },
  {
    name: 'a silence longer than the gap begins the spell again, unless it was raised',
    steps: [
      hold(1, { n: 1, since: sec(1) }),
      hold(2, { n: 2, since: sec(2) + VITALS_GAP_MS + 1 }, { at: sec(2) + VITALS_GAP_MS + 1 }),
      { claim: { n: 2, gen: 0 }, at: sec(70), expect: { granted: true } },
      hold(3, { n: 2, gen: 1 }, { at: sec(70) + VITALS_GAP_MS + 1 }),
    ],
  },
  {
    name: 'a pause ends a spell without a raise and keeps a raised one',
    steps: [
      hold(1, { n: 1 }),
      pause(2, { since: -1, brk: 2 }),
      hold(3, { n: 2, since: sec(3) }),
      { claim: { n: 2, gen: 0 }, at: sec(40), expect: { granted: true } },
      pause(4, { n: 2, since: sec(3), gen: 1 }),
    ],
  },
  {
    name: 'a seq falling back while ts moves on is a device counting again, not a late sample',
    steps: [
      hold(100, { n: 1 }),
      clear(101, { brk: 101 }),
      hold(1, { n: 2, since: sec(102), stale: false }, { ts: sec(102), at: sec(102) }),
      clear(2, { since: -1, stale: false }, { ts: sec(103), at: sec(103) }),
    ],
  },
  {
    name: 'a seq far below the newest is a device counting again, whatever its ts',
    steps: [
      hold(500, { n: 1 }),
      clear(501),
      hold(501 - REORDER_WINDOW - 1, { n: 2, stale: false }, { ts: sec(1), at: sec(502) }),
    ],
  },
];

const runCases = (ledger: () => SpellLedger, prefix: string) => {
  for (const { name, steps } of CASES)
    it(name, async () => {
      const deviceId = `${prefix}-${randomBytes(4).toString('hex')}`;
      for (const [i, step] of steps.entries()) {
        const what = `step ${i + 1}`;
        if ('sample' in step) {
          const verdicts = SLEEP_ALARM_TYPES.map((_, t) => (t === BREATH_STOP ? step.sample : ('clear' as const)));
          const merged = await ledger().apply(deviceId, {
            seq: step.seq,
            ts: step.ts ?? sec(step.seq),
            at: step.at ?? step.ts ?? sec(step.seq),
            verdicts,
          });
          expect(merged.spells[BREATH_STOP], what).toMatchObject(step.expect);
        } else if ('claim' in step) {
          const answer = await ledger().claim({ deviceId, index: BREATH_STOP, ...step.claim }, step.at);
          const { granted, ...spell } = step.expect;
          expect(answer.granted, what).toBe(granted);
          expect(answer.spell, what).toMatchObject(spell);
        } else await ledger().confirm({ deviceId, index: BREATH_STOP, ...step.confirm });
      }
    });
};

describe('shared spells ordered by the device’s seq: the merge (TypeScript)', () => {
  const ledger = new MemorySpellLedger(VITALS_GAP_MS);
  runCases(() => ledger, 'MEM');
});

const REDIS_URL = process.env.REDIS_URL;
describe.skipIf(!REDIS_URL)(
  `shared spells ordered by the device’s seq: the same cases in Redis (Lua)${REDIS_URL ? '' : ' — skipped: REDIS_URL is not set'}`,
  () => {
    let ledger: RedisSpellLedger;
    beforeAll(async () => {
      ledger = new RedisSpellLedger(REDIS_URL ?? '', new LateLog(), VITALS_GAP_MS);
      await ledger.start();
    });
    afterAll(() => ledger?.stop());
    runCases(() => ledger, 'TEST-SPELL');
  },
);
