import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const NOT_BUILT_PAGE = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="5">
<title>Vigil</title></head><body style="font-family:sans-serif;padding:40px">
<h2>Vigil</h2><p>The web console is not built on this server. Build it once with
<code>npm run build:web</code>, or set <code>CONSOLE_DIR</code> to a built console. This page reloads by itself.</p>
<p>此服务器尚未构建控制台。请运行 <code>npm run build:web</code>，或将 <code>CONSOLE_DIR</code> 指向已构建的控制台。本页面会自动刷新。</p>
</body></html>`;

export interface ConsoleOptions {
  /** The built console (index.html, assets/); never built by the server itself. */
  dir: string;
  log: (message: string) => void;
}

/**
 * Serves the built web console at / with history-API fallback: a browser asking for any
 * console path (Accept: text/html) gets index.html; API paths keep their envelopes. The server
 * never builds the console (`npm start` builds it once in a development clone, a deployment
 * ships it): without one, / says how to build it.
 */
export const registerConsole = async (app: FastifyInstance, options: ConsoleOptions) => {
  const dir = options.dir;
  const indexFile = path.join(dir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    options.log(`web console not found in ${dir}: build it with \`npm run build:web\` or set CONSOLE_DIR`);
  }
  // The static plugin needs its root to exist; files are looked up per request, so a console
  // built after start is served without a restart.
  fs.mkdirSync(dir, { recursive: true });
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
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
    if (!fs.existsSync(indexFile)) {
      return reply.code(503).type('text/html; charset=utf-8').header('Retry-After', '5').send(NOT_BUILT_PAGE);
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
