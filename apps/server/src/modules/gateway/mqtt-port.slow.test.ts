import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

describe('the embedded broker’s port taken', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-mqtt-port-'));
  let blocker: Server | undefined;
  afterAll(() => {
    blocker?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops the server with one clear line naming MQTT_PORT, not a stack trace', async () => {
    blocker = createServer();
    const port = await new Promise<number>((resolve) =>
      blocker?.listen(0, '127.0.0.1', () => resolve((blocker?.address() as { port: number }).port)),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'apps/server/src/main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: '',
        MQTT_URL: '',
        PORT: '0',
        HOST: '127.0.0.1',
        MQTT_PORT: String(port),
        DATA_DIR: dataDir,
        VIGIL_DEMO: '0',
        LOG_LEVEL: 'warn',
        CONSOLE_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^MQTT_PORT ${port} is already in use`));
    expect(stderr).not.toMatch(/\s+at\s/);
  }, 90_000);
});
