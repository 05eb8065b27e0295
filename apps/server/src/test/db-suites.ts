import { describe } from 'vitest';
import type { DbTarget } from './harness.ts';

/**
 * A suite on both databases. Without DATABASE_URL the PostgreSQL one is declared and reported as
 * skipped, with the reason in its name, so a bare run never looks more complete than it is.
 */
export const describeEachDb = (title: string, body: (target: DbTarget) => void): void => {
  describe(title.replace('%s', 'pglite'), () => body('pglite'));
  const missing = !process.env.DATABASE_URL;
  describe.skipIf(missing)(
    `${title.replace('%s', 'postgres')}${missing ? ' — skipped: DATABASE_URL is not set' : ''}`,
    () => body('postgres'),
  );
};

/** A suite on one database: PostgreSQL's is reported as skipped, with the reason, without DATABASE_URL. */
export const describeOnDb = (target: DbTarget, title: string, body: () => void): void => {
  const missing = target === 'postgres' && !process.env.DATABASE_URL;
  describe.skipIf(missing)(
    `${title.replace('%s', target)}${missing ? ' — skipped: DATABASE_URL is not set' : ''}`,
    body,
  );
};
