import http from 'node:http';
import { StartupError } from '../core/startup-error.ts';

/**
 * Answers while the embedded database opens (its first start runs initdb, seconds on a
 * busy machine): liveness is true at once, readiness and every call say "starting".
 * Closed just before the real server listens on the same port.
 */
export const startBootResponder = async (port: number, host: string): Promise<{ close(): Promise<void> }> => {
  const server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    if (url === '/healthz' || url.startsWith('/healthz?')) {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok","phase":"starting"}');
      return;
    }
    response
      .writeHead(503, { 'content-type': 'application/json', 'retry-after': '2' })
      .end('{"status":500,"msg":"Vigil is starting, try again in a few seconds.","data":null}');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new StartupError(`PORT ${port} is already in use: stop what listens there or set PORT to a free port`)
          : error,
      ),
    );
    server.listen(port, host, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
