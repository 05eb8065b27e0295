import { ApiError } from '../../shared/api/client.ts';
import { CONFIRM_MOVE_KEY, SAME_NAME_KEY } from './resident-model.ts';

/** One reason a check-in needs confirmation (the contract's BunkConflictSchema). */
export interface BedConflict {
  kind: 'device' | 'resident' | 'occupant';
  bunkId: number;
  bunkPath: string;
  deviceId: string | null;
  userId: number | null;
  userName: string | null;
}

const isConflict = (value: unknown): value is BedConflict => {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  return (c.kind === 'device' || c.kind === 'resident' || c.kind === 'occupant') && typeof c.bunkPath === 'string';
};

/**
 * The conflicts of a check-in refused with "confirm the move" (inner 300, msgKey bed.confirmMove,
 * decision 0008), or null for any other failure. Nothing was changed; resending with
 * `confirm: true` performs the move.
 */
export const bedConflictsOf = (error: unknown): BedConflict[] | null => {
  if (!(error instanceof ApiError) || error.msgKey !== CONFIRM_MOVE_KEY) return null;
  const conflicts = (error.data as { conflicts?: unknown } | null)?.conflicts;
  return Array.isArray(conflicts) ? conflicts.filter(isConflict) : null;
};

/** A save refused because a resident of the same name exists (decision 0009): ask, then resend confirmed. */
export const isSameNameRefusal = (error: unknown): boolean =>
  error instanceof ApiError && error.msgKey === SAME_NAME_KEY;
