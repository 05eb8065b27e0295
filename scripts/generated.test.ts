import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS_PATH, renderEndpoints } from './endpoints.ts';
import { OPENAPI_PATH, renderOpenApi } from './openapi.ts';
import { PROTOCOL_DOC_PATH, renderProtocolDoc } from './device-protocol-doc.ts';
import { renderSocketDoc, SOCKET_DOC_PATH } from './socket-doc.ts';

const serverDir = new URL('../apps/server/', import.meta.url).pathname;

describe('generated artefacts are committed and current', () => {
  it('docs/openapi.json matches the call catalogue (run `npm run generate`)', () => {
    expect(fs.readFileSync(OPENAPI_PATH, 'utf8')).toBe(renderOpenApi());
  });

  it('the browser endpoints match the call catalogue (run `npm run generate`)', async () => {
    expect(fs.readFileSync(ENDPOINTS_PATH, 'utf8')).toBe(await renderEndpoints());
  });

  it('docs/device-protocol.md tables match the protocol schemas (run `npm run generate`)', async () => {
    const current = fs.readFileSync(PROTOCOL_DOC_PATH, 'utf8');
    expect(current).toBe(await renderProtocolDoc(current));
  });

  it('docs/socket.md frames match the socket schemas (run `npm run generate`)', async () => {
    const current = fs.readFileSync(SOCKET_DOC_PATH, 'utf8');
    expect(current).toBe(await renderSocketDoc(current));
  });

  it('migrations match the table definitions (run `npm run db:generate`)', () => {
    // drizzle-kit reads `out` relative to the working directory: keep the copy inside apps/server.
    const out = fs.mkdtempSync(path.join(serverDir, '.drift-'));
    fs.cpSync(path.join(serverDir, 'drizzle'), out, { recursive: true });
    const config = path.join(out, 'drizzle.config.json');
    fs.writeFileSync(
      config,
      JSON.stringify({ dialect: 'postgresql', schema: './src/db/schema.ts', out: path.relative(serverDir, out) }),
    );
    const before = fs.readdirSync(out).filter((f) => f.endsWith('.sql'));
    execFileSync(process.execPath, [require_('drizzle-kit/bin.cjs'), 'generate', `--config=${config}`], {
      cwd: serverDir,
      stdio: 'pipe',
    });
    const after = fs.readdirSync(out).filter((f) => f.endsWith('.sql'));
    fs.rmSync(out, { recursive: true, force: true });
    expect(after, 'schema.ts changed without a new migration').toEqual(before);
  }, 60_000);
});

function require_(id: string): string {
  return path.join(new URL('../node_modules/', import.meta.url).pathname, id);
}
