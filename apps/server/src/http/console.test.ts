import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { CONSOLE_DIST } from './console.ts';

describe('console serving', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('pglite');
  });
  afterAll(() => app?.close());

  // Regression: with files globbed at start, a console built after start (first run) answered 404.
  it('serves console files written after the server started', async () => {
    const dir = path.join(CONSOLE_DIST, 'assets');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `probe-${process.pid}-${Date.now()}.js`);
    fs.writeFileSync(file, 'export const probe = 1;\n');
    try {
      const res = await app.app.inject({ method: 'GET', url: `/assets/${path.basename(file)}` });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('probe');
      expect(res.headers['cache-control']).toContain('immutable');
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('keeps API GET calls answering envelopes', async () => {
    const res = await app.app.inject({ method: 'GET', url: '/system/platformName/get' });
    expect(res.json()).toMatchObject({ status: 200, data: { platformName: 'Vigil' } });
  });
});
