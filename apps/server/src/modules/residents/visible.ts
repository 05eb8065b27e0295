import type { Caller } from '../../core/caller.ts';
import { assertVisible } from '../../core/tenant.ts';

/** The row when the caller sees its provider; otherwise not_found, exactly like a missing row. */
export const visible = <T extends { providerId: number }>(caller: Caller, row: T | undefined): T => {
  assertVisible(caller, row);
  return row as T;
};
