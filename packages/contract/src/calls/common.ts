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

/** A logo is only ever a file this server stores (`/system/upload`), never an outside address every console would fetch. */
export const LOGO_URL_PATTERN = /^\/system\/file\?id=[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const logoUrl = z.string().trim().regex(LOGO_URL_PATTERN, { error: 'logoUrl.invalid' });

/** Roles that set a logo: the platform's (senior), a provider's own (class 1 and 2), another provider's (managers). */
export const LOGO_SETTERS = ['SUPER_ROLE', 'SENIOR_ROLE', 'BUSINESS_ROLE', 'ONE_ROLE', 'TWO_ROLE'] as const;
