import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small operator IoT platform for tests (node:http on a random port), speaking the protocol of
 * HttpTelecomPlatform: devices registered by IMEI under `/api/devices`, bearer-key auth. Tests can
 * script the next answers (operator errors, broken bodies, delays longer than the client's timeout).
 */

export interface FakeDevice {
  id: string;
  deviceName: string;
  imei: string;
  iccid: string | null;
  status: 'ONLINE' | 'OFFLINE' | 'SUSPENDED';
}

export interface ScriptedAnswer {
  status?: number;
  /** JSON body; a string is sent as is (to send unreadable bodies). */
  body?: unknown;
  /** Wait before answering. */
  delayMs?: number;
}

export interface FakeOperator {
  /** API root to put in TELECOM_API_URL. */
  url: string;
  appKey: string;
  devices: Map<string, FakeDevice>;
  /** Every request seen: method, path, whether its key was right. */
  requests: { method: string; path: string; authorised: boolean; body: unknown }[];
  /** Answers for the next requests, in order, instead of the normal behaviour. */
  script(...answers: ScriptedAnswer[]): void;
  /** Registrations of these IMEIs are refused (422) with the given message. */
  refusedImeis: Map<string, string>;
  setStatus(id: string, status: FakeDevice['status']): void;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<unknown> =>
  new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text ? JSON.parse(text) : null);
      } catch {
        resolve(undefined);
      }
    });
  });

const send = (res: ServerResponse, status: number, body?: unknown) => {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json' }).end(text);
};

export const startFakeOperator = async (appKey = 'operator-test-key-0001'): Promise<FakeOperator> => {
  const devices = new Map<string, FakeDevice>();
  const requests: FakeOperator['requests'] = [];
  const queue: ScriptedAnswer[] = [];
  const refusedImeis = new Map<string, string>();
  let next = 1;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const authorised = req.headers.authorization === `Bearer ${appKey}`;
    requests.push({ method: req.method ?? 'GET', path, authorised, body });
    const scripted = queue.shift();
    if (scripted) {
      if (scripted.delayMs) await new Promise((r) => setTimeout(r, scripted.delayMs));
      if (!res.destroyed) send(res, scripted.status ?? 200, scripted.body);
      return;
    }
    if (!authorised) return send(res, 401, { code: 'UNAUTHORIZED', message: 'bad app key' });
    if (path === '/api/devices' && req.method === 'POST') {
      const input = body as { deviceName?: unknown; imei?: unknown; iccid?: unknown } | undefined;
      if (typeof input?.imei !== 'string' || !/^\d{15}$/.test(input.imei) || typeof input.deviceName !== 'string') {
        return send(res, 400, { code: 'BAD_REQUEST', message: 'imei and deviceName are required' });
      }
      const refusal = refusedImeis.get(input.imei);
      if (refusal) return send(res, 422, { code: 'REFUSED', message: refusal });
      const existing = [...devices.values()].find((d) => d.imei === input.imei);
      if (existing) return send(res, 409, { code: 'EXISTS', message: 'imei registered', deviceId: existing.id });
      const id = `CT${String(next++).padStart(6, '0')}`;
      devices.set(id, {
        id,
        deviceName: input.deviceName,
        imei: input.imei,
        iccid: typeof input.iccid === 'string' ? input.iccid : null,
        status: 'OFFLINE',
      });
      return send(res, 201, { deviceId: id });
    }
    const match = /^\/api\/devices\/([^/]+)$/.exec(path);
    if (match?.[1]) {
      const id = decodeURIComponent(match[1]);
      const device = devices.get(id);
      if (!device) return send(res, 404, { code: 'NOT_FOUND', message: 'device not found' });
      if (req.method === 'GET') return send(res, 200, { deviceId: id, imei: device.imei, status: device.status });
      if (req.method === 'DELETE') {
        devices.delete(id);
        return send(res, 204);
      }
    }
    return send(res, 404, { code: 'NOT_FOUND', message: 'no such path' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { code: 'INTERNAL' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api`,
    appKey,
    devices,
    requests,
    script: (...answers) => queue.push(...answers),
    refusedImeis,
    setStatus(id, status) {
      const device = devices.get(id);
      if (!device) throw new Error(`fake operator: no device ${id}`);
      device.status = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
