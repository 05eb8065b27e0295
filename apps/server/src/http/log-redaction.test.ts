import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDb } from '../test/harness.ts';
import { redactedError } from './log-redaction.ts';

const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0c2FsdA$notARealHashButSecretEnough';

/** Issue 8, point 27: error logs printed full SQL parameters, password hashes included. */
describe('redactedError', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await openTestDatabase('pglite');
  });
  afterAll(() => db.close());

  it('keeps the statement and the database’s reason of a failed query, never its parameters', async () => {
    const failure = await db.database.db
      .execute(sql`select ${HASH}::integer as n`)
      .then(() => null)
      .catch((error: unknown) => error);
    expect(failure).not.toBeNull();
    // The raw error does carry the value: that is what used to reach the log.
    expect(
      JSON.stringify({ message: (failure as Error).message, params: (failure as { params?: unknown }).params }),
    ).toContain(HASH);
    const logged = JSON.stringify(redactedError(failure));
    expect(logged).not.toContain(HASH);
    expect(logged).not.toContain('notARealHash');
    expect(logged).toContain('select $1::integer');
    expect(logged).toMatch(/invalid input syntax/);
  });

  it('describes anything thrown', () => {
    expect(redactedError('plain')).toEqual({ message: 'plain' });
    expect(redactedError(new TypeError('boom\nparams: secret'))).toMatchObject({ type: 'TypeError', message: 'boom' });
  });
});
