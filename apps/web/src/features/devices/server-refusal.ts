import { ApiError } from '../../shared/api/client.ts';

/** One refused row of a registry import, as the server reports it. */
export interface RowProblem {
  index: number;
  field: string;
  msgKey: string;
  msg: string;
}

export const rowProblemsOf = (error: unknown): RowProblem[] => {
  if (!(error instanceof ApiError) || typeof error.data !== 'object' || error.data === null) return [];
  const problems = (error.data as { problems?: unknown }).problems;
  return Array.isArray(problems) ? (problems as RowProblem[]) : [];
};
