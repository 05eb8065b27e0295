import { z } from 'zod';
import { DeviceRowProblemSchema } from './calls/devices.ts';
import { ConfirmMoveSchema, NameProblemSchema } from './calls/facility.ts';
import type { MessageKey } from './messages/index.ts';

/**
 * What a failure carries in `data`, by its message key. A failure whose key is not listed carries
 * `data: null`; one that is listed carries this shape or null. The test harness checks every
 * failure against this table, so a client can rely on it (typed through `failureData`).
 */

/** One refused spreadsheet row, worded in the request's language. */
export const RowProblemSchema = z.object({
  row: z.number().int().describe('Row number as the spreadsheet shows it'),
  column: z.string().describe('Column title as the template shows it'),
  reason: z.string(),
});
export type RowProblem = z.infer<typeof RowProblemSchema>;

const rowProblems = z.object({ problems: z.array(RowProblemSchema) });
const nameProblems = z.object({ problems: z.array(NameProblemSchema) });

export const FAILURE_DATA = {
  /** Every bad row of a refused import; nothing was imported. */
  'import.rowErrors': rowProblems,
  /** Only same-name residents stand in the way: resend with `confirmField` true to import anyway. */
  'import.sameNameConfirm': rowProblems.extend({
    confirmField: z.string().describe('The request field that confirms when sent as true'),
  }),
  /** Every bad entry of a refused registry load; nothing was added. */
  'deviceStock.rowErrors': z.object({ problems: z.array(DeviceRowProblemSchema) }),
  /** What a bed save or check-in would move; resend with `confirm: true` to move. */
  'bed.confirmMove': ConfirmMoveSchema,
  /** Residents of the same name already there; resend confirmed to save anyway. */
  'resident.sameName': z.object({ existingIds: z.array(z.number().int()) }),
  // A refused list of room or bed names: the first problem's key, every bad name in data.
  'facility.nameTooLong': nameProblems,
  'facility.duplicateInList': nameProblems,
  'room.exists': nameProblems,
  'bed.exists': nameProblems,
} satisfies Partial<Record<MessageKey, z.ZodType>>;

export type FailureKey = keyof typeof FAILURE_DATA;
export type FailureData<K extends FailureKey> = z.output<(typeof FAILURE_DATA)[K]>;

export const isFailureKey = (key: string | undefined): key is FailureKey =>
  key !== undefined && Object.prototype.hasOwnProperty.call(FAILURE_DATA, key);
