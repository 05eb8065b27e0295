import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { adminLogin, calls } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { ManualClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { listenForMetrics } from './metrics-endpoint.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../test/harness.ts';

const METRICS_TOKEN = 'metrics-token-0123456789';

describe('operations endpoints', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('pglite', { env: { METRICS_TOKEN } });
  });
  afterAll(() => app?.close());

  it('reports liveness and readiness', async () => {
    expect((await app.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await app.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', database: 'pglite' });
  });

  it('counts calls by name and inner status in Prometheus format', async () => {
    await app.call(adminLogin, { userName: ADMIN_USER, passWord: 'wrong' });
    await app.call(adminLogin, { userName: ADMIN_USER, passWord: ADMIN_PASSWORD });
    const res = await app.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toMatch(/vigil_api_calls_total\{call="adminLogin",status="102"\} 1/);
    expect(res.body).toMatch(/vigil_api_calls_total\{call="adminLogin",status="200"\} 1/);
    expect(res.body).toContain('vigil_api_call_duration_seconds_bucket');
  });

  it('refuses /metrics without the token, or with a wrong one', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', METRICS_TOKEN, `Basic ${METRICS_TOKEN}`]) {
      const res = await app.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.headers['www-authenticate']).toContain('Bearer');
      expect(res.body).not.toContain('vigil_api_calls_total');
    }
  });

  it('serves the OpenAPI document of every declared call at /docs', async () => {
    const doc = (await app.app.inject({ url: '/docs/json' })).json() as { paths: Record<string, object> };
    for (const call of Object.values(calls)) expect(doc.paths[call.path], call.path).toBeDefined();
    const ui = await app.app.inject({ url: '/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
  });
});

describe('metrics exposure', () => {
  it('is not served on the public port when no token is set', async () => {
    const app = await createTestApp('pglite');
    try {
      const res = await app.app.inject({ url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('vigil_api_calls_total');
    } finally {
      await app.close();
    }
  });

  it('is served without a token on its own listener (METRICS_PORT), and nothing else is', async () => {
    const app = await createTestApp('pglite');
    const listener = await listenForMetrics(app.metrics, { port: 0, host: '127.0.0.1' });
    try {
      await app.call(adminLogin, { userName: ADMIN_USER, passWord: 'wrong' });
      const res = await fetch(`http://127.0.0.1:${listener.port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/vigil_api_calls_total\{call="adminLogin",status="102"\} 1/);
      expect((await fetch(`http://127.0.0.1:${listener.port}/healthz`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${listener.port}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      await listener.close();
      await app.close();
    }
  });

  it('reads METRICS_PORT, METRICS_HOST and METRICS_TOKEN, refusing a short token', () => {
    expect(loadConfig({}).metrics).toEqual({ token: undefined, listen: undefined });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: METRICS_TOKEN }).metrics).toEqual({
      token: METRICS_TOKEN,
      listen: { port: 9464, host: '127.0.0.1' },
    });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).metrics.listen?.host).toBe('0.0.0.0');
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
  });
});

describe('readiness before migrations', () => {
  it('is not ready on an unmigrated database', async () => {
    const database = await openDatabase({ pglite: await PGlite.create() });
    expect(await database.ready()).toBe(false);
    await database.migrate();
    expect(await database.ready()).toBe(true);
    const { app } = await buildApp({
      config: loadConfig({ DATA_DIR: os.tmpdir(), MQTT_PORT: '0' }),
      database,
      clock: new ManualClock(),
    });
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
    await app.close();
    await database.close();
  });
});

describe('graceful shutdown', () => {
  it('answers /healthz early, then stops cleanly on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-stop-'));
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const main = path.join(path.dirname(new URL(import.meta.url).pathname), '../main.ts');
    const tsx = path.resolve(path.dirname(main), '../../../node_modules/tsx/dist/cli.mjs');
    const child = spawn(process.execPath, [tsx, main], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        DATABASE_URL: '',
        MQTT_URL: '',
        MQTT_PORT: '0',
        VIGIL_DEMO: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      let ready = false;
      for (let i = 0; i < 120 && !ready; i++) {
        await new Promise((r) => setTimeout(r, 500));
        ready = await fetch(`http://127.0.0.1:${port}/readyz`)
          .then((r) => r.ok)
          .catch(() => false);
      }
      expect(ready, output).toBe(true);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output).toContain('stopped');
    } finally {
      child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
