import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { adminLogin, insertProvider, queryProviderList } from '@vigil/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { systemClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from './database.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-restart-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Starts the server the way `npm start` does: PGlite on disk under DATA_DIR, no admin password configured. */
const start = async () => {
  const config = loadConfig({ DATA_DIR: dataDir, MQTT_PORT: '0' });
  const database = await openDatabase({ url: undefined, dataDir: path.join(config.dataDir, 'pglite') });
  await database.migrate();
  const { app } = await buildApp({ config, database, clock: systemClock });
  return {
    app,
    async stop() {
      await app.close();
      await database.close();
    },
  };
};

const post = async (app: Awaited<ReturnType<typeof start>>['app'], url: string, body: unknown, token?: string) => {
  const res = await app.inject({
    method: 'POST',
    url,
    payload: body as object,
    headers: token ? { 'x-token': token } : {},
  });
  return res.json() as { status: number; data: Record<string, unknown> & { rows?: { name: string }[] } };
};

describe('embedded database on disk', () => {
  it('keeps data and sessions across a restart, and creates the admin only once', async () => {
    const first = await start();
    const passwordFile = path.join(dataDir, 'initial-admin-password');
    const password = fs.readFileSync(passwordFile, 'utf8').trim();
    expect(fs.statSync(passwordFile).mode & 0o777).toBe(0o600);
    expect(password.length).toBeGreaterThanOrEqual(16);
    const login = await post(first.app, adminLogin.path, { userName: 'admin', passWord: password });
    expect(login.status).toBe(200);
    const token = String(login.data.token);
    const created = await post(
      first.app,
      insertProvider.path,
      { name: 'Sunrise Care', userName: 'sunrise01', passWord: 'Sunrise#2026' },
      token,
    );
    expect(created.status).toBe(200);
    await first.stop();

    fs.rmSync(passwordFile);
    const second = await start();
    expect(fs.existsSync(passwordFile)).toBe(false);
    const list = await post(second.app, queryProviderList.path, { pageNum: 1, pageSize: 10 }, token);
    expect(list.status).toBe(200);
    expect(list.data.rows?.map((r) => r.name)).toEqual(['Sunrise Care']);
    const again = await post(second.app, adminLogin.path, { userName: 'sunrise01', passWord: 'Sunrise#2026' });
    expect(again.status).toBe(200);
    await second.stop();
  }, 60_000);
});
