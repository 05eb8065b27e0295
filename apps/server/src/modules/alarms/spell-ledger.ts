import type { SpellClaim } from './engine/engine-types.ts';
import {
  CLAIM_LEASE_MS,
  claimSpell,
  confirmSpell,
  mergeSample,
  newSpellRecord,
  type MergedSample,
  type SharedSpell,
  type SpellRecord,
  type SpellSample,
} from './engine/shared-spell.ts';

/** A raise asked of a device's shared spell: the type's index in SLEEP_ALARM_TYPES and the spell's claim. */
export interface LedgerClaim extends SpellClaim {
  deviceId: string;
  index: number;
}

/**
 * Where the instances keep the sleep monitors' spells they share (decision 0039): every sample
 * merged atomically in the device's order, and each raise granted to one instance. In Redis
 * (`RedisSpellLedger`) across instances; in memory (`MemorySpellLedger`) for one process's tests.
 */
export interface SpellLedger {
  /** Merges a sample into the device's spells and answers every type's spell after it. */
  apply(deviceId: string, sample: SpellSample): Promise<MergedSample>;
  /** Asks for a raise; granted to one instance per raise of a spell (again after the lease if never confirmed). */
  claim(claim: LedgerClaim, at: number): Promise<{ granted: boolean; spell: SharedSpell }>;
  /** The granted raise is stored. */
  confirm(claim: LedgerClaim): Promise<void>;
}

/** The ledger in one process: the instances of a test sharing one map, each call one step as in Redis. */
export class MemorySpellLedger implements SpellLedger {
  private readonly records = new Map<string, SpellRecord>();

  constructor(
    private readonly gapMs: number,
    private readonly leaseMs = CLAIM_LEASE_MS,
  ) {}

  async apply(deviceId: string, sample: SpellSample): Promise<MergedSample> {
    return mergeSample(this.recordOf(deviceId), sample, this.gapMs);
  }

  async claim(claim: LedgerClaim, at: number): Promise<{ granted: boolean; spell: SharedSpell }> {
    return claimSpell(this.recordOf(claim.deviceId), claim.index, claim, at, this.leaseMs);
  }

  async confirm(claim: LedgerClaim): Promise<void> {
    confirmSpell(this.recordOf(claim.deviceId), claim.index, claim);
  }

  private recordOf(deviceId: string): SpellRecord {
    let record = this.records.get(deviceId);
    if (!record) this.records.set(deviceId, (record = newSpellRecord()));
    return record;
  }
}
