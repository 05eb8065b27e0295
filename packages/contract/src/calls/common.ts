import { z } from 'zod';
import { CONSTANTS } from '../constants.ts';

/** Numbers may arrive as strings in query strings and forms. Ids are PostgreSQL integers: at most 2^31 - 1. */
export const intId = z.coerce.number<number>().int().min(1).max(2_147_483_647);

export const pageQuery = {
  pageNum: z.coerce.number<number>().int().min(1).default(1),
  pageSize: z.coerce.number<number>().int().min(1).max(1000).default(10),
};

export const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({ rows: z.array(row), total: z.number().int(), pageNum: z.number().int(), pageSize: z.number().int() });

/** New login accounts: 6 to 64 letters or digits. */
export const loginAccount = z
  .string()
  .trim()
  .regex(new RegExp(`^[A-Za-z0-9]{${CONSTANTS.loginAccountMinLength},${CONSTANTS.loginAccountMaxLength}}$`), {
    error: 'validation.loginAccount',
  });

export const remark = z.string().max(CONSTANTS.remarkMaxLength);

/** A boolean that may arrive as "true"/"false"/"1"/"0" from a form. */
export const flag = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'),
]);

export const nothing = z.null();
