import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web');
export const CONSOLE_DIST = path.join(WEB_DIR, 'dist');

const BUILDING_PAGE = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="3">
<title>Vigil</title></head><body style="font-family:sans-serif;padding:40px">
<h2>Vigil</h2><p>The console is being built for its first start. This page reloads by itself.</p>
<p>控制台正在首次构建，本页面会自动刷新。</p></body></html>`;

export interface ConsoleOptions {
  /** Build the console when its files are missing (npm start on a fresh clone). */
  buildWhenMissing: boolean;
  log: (message: string) => void;
}

/**
 * Serves the built web console at / with history-API fallback: a browser asking for any
 * console path (Accept: text/html) gets index.html; API paths keep their envelopes.
 */
export const registerConsole = async (app: FastifyInstance, options: ConsoleOptions) => {
  const indexFile = path.join(CONSOLE_DIST, 'index.html');
  let building = false;
  if (!fs.existsSync(indexFile) && options.buildWhenMissing && fs.existsSync(path.join(WEB_DIR, 'package.json'))) {
    building = true;
    options.log('web console not built yet: building it in the background (about a minute)');
    const vite = path.resolve(WEB_DIR, '../../node_modules/vite/bin/vite.js');
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: WEB_DIR, stdio: 'inherit' });
    child.on('exit', (code) => {
      building = false;
      options.log(code === 0 ? 'web console built' : `web console build failed (exit ${code})`);
    });
    app.addHook('onClose', async () => {
      if (building) child.kill();
    });
  }
  fs.mkdirSync(CONSOLE_DIST, { recursive: true });
  await app.register(fastifyStatic, {
    root: CONSOLE_DIST,
    prefix: '/',
    // Files are looked up per request: a console built after start (first run) is served too.
    wildcard: true,
    index: false,
    cacheControl: false,
    // Hashed assets never change; index.html must always be fresh so new builds are seen.
    setHeaders: (res, file) => {
      res.setHeader(
        'Cache-Control',
        file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });

  const sendIndex = (reply: FastifyReply) => {
    if (building || !fs.existsSync(indexFile)) {
      return reply.code(503).type('text/html; charset=utf-8').header('Retry-After', '3').send(BUILDING_PAGE);
    }
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').sendFile('index.html');
  };
  app.get('/', (_request, reply) => sendIndex(reply));

  /** True for a browser navigation to a console route (not an API call, not an asset). */
  return (request: FastifyRequest): ((reply: FastifyReply) => FastifyReply) | null => {
    if (request.method !== 'GET') return null;
    const accept = request.headers.accept ?? '';
    if (!accept.includes('text/html')) return null;
    if (path.extname(request.url.split('?')[0] ?? '')) return null;
    return sendIndex;
  };
};
