import { adminLogout, adminSession, Status } from '@vigil/contract';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { SESSION_RETENTION_MS } from './session-purge.ts';

/** Issue 8, point 20: ended sessions stayed in the database for ever. */
describe('the session purge', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('pglite');
  });
  afterAll(() => app.close());

  const rows = async () => (await app.database.db.select({ n: count() }).from(sessions))[0]?.n ?? 0;

  it('deletes revoked and long-idle sessions a day after they ended, and keeps live ones', async () => {
    const before = await rows();
    const loggedOut = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    await app.call(adminLogout, {}, { token: loggedOut });
    const idle = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    expect(await rows()).toBe(before + 2);

    // Within the retention an expired session still answers "expired, log in again".
    app.clock.advance(app.config.sessionIdleMs + 60_000);
    await app.services.sessionPurge.run();
    expect((await app.call(adminSession, {}, { token: idle })).status).toBe(Status.SESSION_EXPIRED);

    app.clock.advance(SESSION_RETENTION_MS);
    const live = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const purged = await app.services.sessionPurge.run();
    expect(purged).toBeGreaterThanOrEqual(2);
    expect((await app.call(adminSession, {}, { token: live })).status).toBe(Status.OK);
    expect(await rows()).toBe(1);
  });
});
