import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';

describe('console serving', () => {
  let app: TestApp;
  let dir: string;
  beforeAll(async () => {
    // An empty console folder: the server never builds one itself.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-console-'));
    app = await createTestApp('pglite', { env: { CONSOLE_DIR: dir } });
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const page = (url: string) => app.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

  it('says how to build the console when there is none, and builds nothing', async () => {
    for (const url of ['/', '/BunkManage/index']) {
      const res = await page(url);
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('npm run build:web');
      expect(res.body).toContain('CONSOLE_DIR');
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  // Regression: with files globbed at start, a console built after start answered 404.
  it('serves a console built after the server started, with the history fallback', async () => {
    fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>console</title>');
    fs.writeFileSync(path.join(dir, 'assets', 'main-abc123.js'), 'export const probe = 1;\n');
    const asset = await app.app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toContain('probe');
    expect(asset.headers['cache-control']).toContain('immutable');
    for (const url of ['/', '/people-manage/userManage']) {
      const res = await page(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title>console</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('keeps API GET calls answering envelopes', async () => {
    const res = await app.app.inject({ method: 'GET', url: '/system/platformName/get' });
    expect(res.json()).toMatchObject({ status: 200, data: { platformName: 'Vigil' } });
  });
});
