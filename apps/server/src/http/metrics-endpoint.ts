import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares digests so neither the token's length nor its prefix leaks through timing. */
export const bearerMatches = (header: string | undefined, token: string): boolean => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token));
};

/**
 * /metrics on the public port exists only with a token (Prometheus `authorization` /
 * `bearer_token_file`); without one the path answers 404 like any unknown path.
 */
export const registerMetricsRoute = (app: FastifyInstance, metrics: Metrics, token: string | undefined): void => {
  if (!token) return;
  app.get('/metrics', async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) {
      return reply.code(401).header('WWW-Authenticate', 'Bearer realm="metrics"').send({ status: 'unauthorized' });
    }
    return reply.header('Content-Type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
};

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/** A listener of its own (METRICS_PORT, loopback by default) that serves only GET /metrics, without a token. */
export const listenForMetrics = (metrics: Metrics, at: { port: number; host: string }): Promise<MetricsListener> => {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    metrics.registry.metrics().then(
      (body) => response.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(body),
      () => response.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics failed'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
};
