import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { adminLogin, createClient, insertProvider, queryProviderList, type ApiClient } from '@vigil/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/free-port.ts';
import { spawnServer, type SpawnedServer } from '../../test/spawned-server.ts';

const ADMIN_PASSWORD = 'Worker#Admin2026';

/**
 * The server as `npm start` runs it with DATABASE_WORKER=1, its database in a worker thread (decision 0047): /readyz
 * names the worker; SIGTERM closes the database and the process exits 0 at once; a restart on
 * the same data finds everything. (kill -9 during ingest: gateway/crash.slow.test.ts and
 * alarms/alarm-crash.slow.test.ts run the same server.)
 */
describe('the embedded database worker in the real server', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-worker-'));
  let server: SpawnedServer | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is up on /readyz, closes cleanly on SIGTERM and opens the same data again', async () => {
    const port = await freePort();
    const env = {
      PORT: String(port),
      MQTT_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      CONSOLE_DIR: dataDir,
      VIGIL_ADMIN_PASSWORD: ADMIN_PASSWORD,
      DATABASE_WORKER: '1',
      LOG_LEVEL: 'info',
    };
    const base = `http://127.0.0.1:${port}`;
    const readyz = async () => (await fetch(`${base}/readyz`)).json() as Promise<Record<string, unknown>>;
    const signedIn = async (): Promise<ApiClient> => {
      let token: string | null = null;
      const client = createClient({ baseUrl: base, getToken: () => token, getLanguage: () => 'en-US' });
      token = (await client.call(adminLogin, { userName: 'admin', passWord: ADMIN_PASSWORD, from: 'PC', rsa: false }))
        .token;
      return client;
    };

    server = await spawnServer(env, { readyWithinMs: 120_000 });
    expect(await readyz()).toMatchObject({ status: 'ready', database: 'pglite', worker: 'up' });
    await (
      await signedIn()
    ).call(insertProvider, { name: 'Kept Home', userName: 'kepthome', passWord: 'Kept#Home2026' });

    const exited = new Promise<number | null>((resolve) => server?.child.once('exit', (code) => resolve(code)));
    const stoppedAt = Date.now();
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    expect(server.output()).toMatch(/"msg":"stopped"/);

    server = await spawnServer(env, { readyWithinMs: 120_000 });
    expect(await readyz()).toMatchObject({ status: 'ready', worker: 'up' });
    const list = await (await signedIn()).call(queryProviderList, { pageNum: 1, pageSize: 50 });
    expect(list.rows.map((row) => row.name)).toContain('Kept Home');
  });
});
