import { SLEEP_ALARM_TYPES, type AlarmType } from '@vigil/contract';
import { RateLimitedLog, type Log } from '../../core/log.ts';
import type { AlarmMetrics } from './alarm-metrics.ts';
import type { AlarmEngine } from './engine/alarm-engine.ts';
import type { Decision, SpellClaim, Subject, VitalsSample } from './engine/engine-types.ts';
import { CLAIM_LEASE_MS } from './engine/shared-spell.ts';
import type { LedgerClaim, SpellLedger } from './spell-ledger.ts';

/** Samples waiting for the ledger beyond which new ones are judged here at once (Redis too slow). */
const MAX_IN_FLIGHT = 10_000;

type Raise = Extract<Decision, { op: 'raise' }> & { claim: SpellClaim };

export interface SharedSpellsDeps {
  engine: AlarmEngine;
  ledger: SpellLedger;
  metrics: AlarmMetrics;
  log: Log;
  leaseMs?: number;
}

/**
 * The alarm engine on spells shared by several instances (decision 0039). Each vitals sample
 * this instance takes is merged into the device's spells in the ledger first, then judged by
 * the engine on what the ledger answers; a raise on a shared spell is stored only when the
 * ledger grants it, so it is raised once whichever instances count.
 *
 * The ledger answers one connection's calls in the order they were sent, and each answer is
 * handed on in the same step (`then`, never a longer chain), so the decisions of one device
 * reach the writer in the order the ledger took its samples and claims.
 *
 * When the ledger cannot be asked (Redis away or slow), a sample is judged on this instance's
 * own count and a raise is stored without a grant: while Redis is away a break seen only by
 * another instance may be missed, as before shared spells, but no alarm is.
 */
export class SharedSpells {
  private readonly leaseMs: number;
  private readonly warnings: RateLimitedLog;
  private inFlight = 0;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(private readonly deps: SharedSpellsDeps) {
    this.leaseMs = deps.leaseMs ?? CLAIM_LEASE_MS;
    this.warnings = new RateLimitedLog(deps.log);
  }

  /** Judges one vitals sample (`seq`, `ts` in seconds as sent) on the device's shared spells; hands its decisions to `deliver`. */
  vitals(
    subject: Subject,
    sample: VitalsSample & { seq: number; ts: number },
    at: Date,
    deliver: (decisions: readonly Decision[]) => void,
  ): void {
    const { engine, ledger, metrics } = this.deps;
    if (this.inFlight >= MAX_IN_FLIGHT) {
      metrics.countSpellSample('local');
      deliver(engine.vitals(subject, sample, at));
      return;
    }
    const verdicts = engine.sleepVerdicts(subject, sample, at);
    this.inFlight++;
    ledger
      .apply(subject.deviceId, { seq: sample.seq, ts: Math.round(sample.ts * 1000), at: at.getTime(), verdicts })
      .then(
        (merged) => {
          metrics.countSpellSample('shared');
          deliver(engine.sharedVitals(subject, sample, at, verdicts, merged, this.leaseMs));
        },
        (error: unknown) => {
          metrics.countSpellSample('local');
          this.warnings.warn(
            'apply',
            { err: String(error) },
            'shared alarm spells unavailable; judged on this instance',
          );
          deliver(engine.vitals(subject, sample, at));
        },
      )
      .catch((error: unknown) => this.deps.log.error({ err: String(error) }, 'vitals decisions not handed on'))
      .finally(() => this.settle());
  }

  /** Whether a decision is a raise on a shared spell, to be granted before it is stored. */
  needsClaim(d: Decision): d is Raise {
    return d.op === 'raise' && d.claim !== undefined;
  }

  /**
   * Asks the ledger for a raise and hands on what to store: the raise when granted (or when the
   * ledger could not be asked: the database keeps one open alarm per device and type, so a
   * second instance raising the same spell changes nothing). Refused, the engine takes the spell
   * as the ledger has it. Granted after a person released the alarm at the device meanwhile (the
   * engine no longer holds it open), nothing is stored and the grant is confirmed: the spell was
   * raised and released, as on one instance. Handed on in the ledger's answer's own step, so the
   * raise reaches the device's lane before anything the engine decides after it.
   */
  claim(d: Raise, now: Date, deliver: (decisions: readonly Decision[]) => void): void {
    const { engine, ledger, metrics } = this.deps;
    const raiseIfHeld = (): readonly Decision[] => {
      if (engine.openTypes(d.key.deviceId).has(d.key.type)) return [d];
      this.confirm(d);
      return [];
    };
    this.inFlight++;
    ledger
      .claim(this.ledgerClaim(d), now.getTime())
      .then(
        (answer) => {
          metrics.countSpellClaim(answer.granted ? 'granted' : 'refused');
          engine.claimAnswered(d.key, answer.spell, answer.granted, now, this.leaseMs);
          if (answer.granted) deliver(raiseIfHeld());
        },
        (error: unknown) => {
          metrics.countSpellClaim('unasked');
          this.warnings.warn(
            'claim',
            { err: String(error) },
            'shared alarm spells unavailable; raised without a grant',
          );
          deliver(raiseIfHeld());
        },
      )
      .catch((error: unknown) => this.deps.log.error({ err: String(error) }, 'alarm raise not handed on'))
      .finally(() => this.settle());
  }

  /** The granted raise is stored: no other instance takes it over after the lease. */
  confirm(d: Raise): void {
    this.deps.ledger.confirm(this.ledgerClaim(d)).catch((error: unknown) => {
      // Unconfirmed, another instance raises it again after the lease: the open alarm takes it as nothing new.
      this.warnings.warn('confirm', { err: String(error) }, 'stored alarm raise not confirmed to the shared spells');
    });
  }

  /** Resolves once no sample or claim waits for the ledger (tests, flush). */
  idle(): Promise<void> {
    if (!this.inFlight) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private ledgerClaim(d: Raise): LedgerClaim {
    const index = (SLEEP_ALARM_TYPES as readonly AlarmType[]).indexOf(d.key.type);
    return { deviceId: d.key.deviceId, index, n: d.claim.n, gen: d.claim.gen };
  }

  private settle(): void {
    if (--this.inFlight > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
