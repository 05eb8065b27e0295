import { SLEEP_ALARM_TYPES } from '@vigil/contract';
import type { SpellClaim } from './engine-types.ts';

/**
 * The spells of a sleep monitor's duration alarms when several instances share its samples
 * (decision 0039). Each instance takes part of the samples; every sample, whichever instance
 * took it, is merged into one record per device, in the order the device sent them (`seq`),
 * so a break seen by one instance ends the spell for all. This file is the merge itself, pure:
 * the Redis ledger runs the same steps in Lua (`redis-spell-ledger.ts`), and one table of cases
 * checks both (`shared-spell.test.ts`).
 */

/**
 * How one sample stands for one alarm type: `hold` counts (the condition, in its time range, in
 * an occupied bed), `clear` ends the spell (and releases its alarm), `pause` stops the count (the
 * condition, but not watched now) and leaves a raised alarm open.
 */
export type SpellVerdict = 'hold' | 'clear' | 'pause';

/** Per type, in SLEEP_ALARM_TYPES order: the ledger's one letter each. */
export const VERDICT_LETTER: Readonly<Record<SpellVerdict, string>> = { hold: 'h', clear: 'c', pause: 'p' };

/** A seq this far below the newest one is a device that counts again, not a late sample. */
export const REORDER_WINDOW = 64;

/** A raise claimed and not confirmed stored this long ago is taken over (its instance died with it in hand). */
export const CLAIM_LEASE_MS = 15_000;

/** One type's spell as every instance sees it. Times are ms since the epoch; -1 is none. */
export interface SharedSpell {
  /** The spells of this type are numbered: a new one when the condition begins again. */
  n: number;
  /** When the spell began: when its first sample was received. -1: no spell runs. */
  since: number;
  /** The seq of the spell's first sample. */
  from: number;
  /** The newest seq that broke or paused the count. */
  brk: number;
  /** Raises claimed on this spell (a handled one raised again after its snooze is the second). */
  gen: number;
  /** When the latest raise was claimed, until its instance confirms it stored; -1 once confirmed. */
  claimAt: number;
}

/** A device's record: its newest sample and every type's spell. */
export interface SpellRecord {
  lastSeq: number;
  /** The newest sample's `ts`, ms. */
  lastTs: number;
  /** The latest time any instance received a sample of the device, ms. */
  lastAt: number;
  spells: SharedSpell[];
}

/** One sample as merged: its order (seq, ts in ms), when it was received, and its verdict per type. */
export interface SpellSample {
  seq: number;
  ts: number;
  at: number;
  verdicts: readonly SpellVerdict[];
}

/** A type's spell after a sample: what the instance that took it adopts and acts on. */
export interface SpellOutcome extends SharedSpell {
  /** This sample ended a spell that had a raise: its alarm is released (told to exactly one instance). */
  released: boolean;
  /** The sample is older than what it would change (a break after it, or a spell begun after it): ignored. */
  stale: boolean;
}

export interface MergedSample {
  /** The latest time any instance received a sample of the device. */
  lastAt: number;
  spells: SpellOutcome[];
}

const noSpell = (): SharedSpell => ({ n: 0, since: -1, from: -1, brk: -1, gen: 0, claimAt: -1 });

/** A copy, field by field: V8's object spread is a hundred times slower on these (their times change representation). */
const copyOf = ({ n, since, from, brk, gen, claimAt }: SharedSpell): SharedSpell => ({
  n,
  since,
  from,
  brk,
  gen,
  claimAt,
});

export const newSpellRecord = (): SpellRecord => ({
  lastSeq: -1,
  lastTs: 0,
  lastAt: 0,
  spells: SLEEP_ALARM_TYPES.map(noSpell),
});

/**
 * Merges one sample into a device's record (changed in place) and answers each type's spell.
 * Samples are ordered by seq: a late sample changes nothing a newer one already decided, so a
 * break ends the spell whatever arrives after it, and a spell is never dated before a break. A
 * break that arrives after later samples of the new spell starts it at the next sample: late
 * by the reordering, never early. A seq that falls back while `ts` moves on, or far below the
 * newest, is a device counting again: everything recorded counts as before it.
 */
export const mergeSample = (record: SpellRecord, sample: SpellSample, gapMs: number): MergedSample => {
  const { seq, ts, at } = sample;
  if (record.lastSeq >= 0 && seq < record.lastSeq && (ts > record.lastTs || seq < record.lastSeq - REORDER_WINDOW)) {
    for (const spell of record.spells) {
      spell.brk = -1;
      if (spell.since >= 0) spell.from = -1;
    }
    record.lastSeq = -1;
  }
  // A silence (no instance received anything for the gap) starts the spells without a raise over.
  const gap = record.lastAt > 0 && at - record.lastAt > gapMs;
  if (seq > record.lastSeq) {
    record.lastSeq = seq;
    record.lastTs = ts;
  }
  record.lastAt = Math.max(record.lastAt, at);
  const spells = record.spells.map((spell, i): SpellOutcome => {
    let released = false;
    let stale = false;
    switch (sample.verdicts[i]) {
      case 'clear':
        if (spell.since >= 0 && seq >= spell.from) {
          released = spell.gen > 0;
          spell.since = -1;
          spell.gen = 0;
          spell.claimAt = -1;
        } else if (spell.since >= 0) stale = true;
        spell.brk = Math.max(spell.brk, seq);
        break;
      case 'pause':
        if (spell.since >= 0 && spell.gen === 0 && seq >= spell.from) spell.since = -1;
        spell.brk = Math.max(spell.brk, seq);
        break;
      case 'hold':
        if (seq <= spell.brk) stale = true;
        else if (spell.since < 0 || (gap && spell.gen === 0)) {
          spell.n++;
          spell.since = at;
          spell.from = seq;
          spell.gen = 0;
          spell.claimAt = -1;
        } else if (seq < spell.from) {
          // An earlier sample of the running spell, arriving late: the spell began no later than it did.
          spell.from = seq;
          spell.since = Math.min(spell.since, at);
        }
        break;
      default:
        break;
    }
    const { n, since, from, brk, gen, claimAt } = spell;
    return { n, since, from, brk, gen, claimAt, released, stale };
  });
  return { lastAt: record.lastAt, spells };
};

/**
 * Claims the raise of spell `n` of type `index` as its (gen + 1)-th: granted to exactly one
 * instance, and only while that spell runs. A claim not confirmed within the lease (its instance
 * died before storing the alarm) is granted again, to whoever asks with the same `gen`.
 */
export const claimSpell = (
  record: SpellRecord,
  index: number,
  claim: SpellClaim,
  at: number,
  leaseMs = CLAIM_LEASE_MS,
): { granted: boolean; spell: SharedSpell } => {
  const spell = record.spells[index];
  if (!spell) throw new Error(`no sleep alarm type ${index}`);
  let granted = false;
  if (spell.n === claim.n && spell.since >= 0) {
    if (spell.gen === claim.gen) {
      spell.gen++;
      granted = true;
    } else granted = spell.gen === claim.gen + 1 && spell.claimAt >= 0 && at - spell.claimAt >= leaseMs;
    if (granted) spell.claimAt = at;
  }
  return { granted, spell: copyOf(spell) };
};

/** The raise granted for this claim is stored: no other instance takes it over. */
export const confirmSpell = (record: SpellRecord, index: number, claim: SpellClaim): void => {
  const spell = record.spells[index];
  if (spell && spell.n === claim.n && spell.gen === claim.gen + 1) spell.claimAt = -1;
};
