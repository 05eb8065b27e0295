import { absenceTimesProblem, type AbsenceProblem } from '@vigil/contract/browser';

export type { AbsenceProblem };

/**
 * The server's absence time rules (the contract's absenceTimesProblem, decision 0009), checked in
 * the form so a user learns before sending, with the field each problem belongs to. Times are
 * epoch milliseconds; no start means now.
 */
export const absenceProblem = (input: {
  start: number | null;
  end: number | null;
  now: number;
  admittedAt: string | null;
}): { field: 'start' | 'end'; problem: AbsenceProblem } | null => {
  const admitted = input.admittedAt ? new Date(input.admittedAt) : null;
  const problem = absenceTimesProblem(
    new Date(input.start ?? input.now),
    input.end === null ? null : new Date(input.end),
    new Date(input.now),
    admitted && !Number.isNaN(admitted.getTime()) ? admitted : null,
  );
  if (!problem) return null;
  return { field: problem === 'beforeAdmission' || problem === 'startRange' ? 'start' : 'end', problem };
};
