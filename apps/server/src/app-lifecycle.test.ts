import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceLiveState } from './db/schema.ts';
import { createTestApp, type TestApp } from './test/harness.ts';

describe('server lifecycle', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('pglite');
  });
  afterAll(() => app?.close());

  it('writes the live device state it holds when the server closes (SIGTERM)', async () => {
    const seenAt = new Date(Date.UTC(2026, 10, 25, 2, 30));
    app.services.gateway.live.store.apply('SLP-CLOSE-1', { online: true, battery: 64 }, seenAt);
    await app.app.close();
    const rows = await app.database.db
      .select()
      .from(deviceLiveState)
      .where(eq(deviceLiveState.deviceId, 'SLP-CLOSE-1'));
    expect(rows).toEqual([expect.objectContaining({ online: true, battery: 64, lastSeenAt: seenAt })]);
  });
});
