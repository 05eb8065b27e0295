import { inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** An ILIKE pattern matching `text` anywhere, its own % _ and \ taken literally. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Rows of the given providers (a caller's scope, `scopeIds`): null means every provider, an
 * empty list none.
 */
export const inProviders = (column: PgColumn, ids: readonly number[] | null): SQL | undefined =>
  ids === null ? undefined : ids.length ? inArray(column, [...ids]) : sql`false`;
