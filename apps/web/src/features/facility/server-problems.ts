import { ApiError } from '../../shared/api/client.ts';
import { CONFIRM_MOVE_KEY } from './facility-model.ts';

/** One bad name of a refused batch add (`data.problems` of insertRoom / batchAddBunk). */
export interface NameProblem {
  index: number;
  name: string;
  msgKey: string;
}

/** One thing a bed save would move (`data.conflicts` of the confirm-move refusal). */
export interface MoveConflict {
  kind: 'device' | 'resident' | 'occupant';
  bunkId: number;
  bunkPath: string;
  deviceId: string | null;
  userId: number | null;
  userName: string | null;
}

const dataOf = (error: unknown): Record<string, unknown> | null =>
  error instanceof ApiError && typeof error.data === 'object' && error.data !== null
    ? (error.data as Record<string, unknown>)
    : null;

/** The bad names of a refused batch add, or null when the refusal has none. */
export const nameProblemsOf = (error: unknown): NameProblem[] | null => {
  const problems = dataOf(error)?.problems;
  return Array.isArray(problems) && problems.length ? (problems as NameProblem[]) : null;
};

/** What would move when the server asks to confirm a bed save, or null for any other failure. */
export const moveConflictsOf = (error: unknown): MoveConflict[] | null => {
  if (!(error instanceof ApiError) || error.msgKey !== CONFIRM_MOVE_KEY) return null;
  const conflicts = dataOf(error)?.conflicts;
  return Array.isArray(conflicts) ? (conflicts as MoveConflict[]) : [];
};
