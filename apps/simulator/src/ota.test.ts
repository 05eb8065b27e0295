import { createHash } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes } from 'aedes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet } from './fleet.ts';
import { downloadPackage, type OtaReport } from './ota.ts';

const image = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7 + (i >> 9)) & 255));
const md5 = createHash('md5').update(image).digest('hex');
const sha256 = createHash('sha256').update(image).digest('hex');

/** What a download server sees and answers: the whole file, or one byte range. */
const startFiles = async () => {
  const requests: { url: string; range: string | undefined }[] = [];
  const server: HttpServer = createHttpServer((req, res) => {
    requests.push({ url: req.url ?? '', range: req.headers.range });
    if (!req.url?.startsWith('/hardSoft/download?token=good')) {
      res.writeHead(404).end();
      return;
    }
    const match = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (match) {
      const from = Number(match[1]);
      res.writeHead(206, { 'content-range': `bytes ${from}-${image.length - 1}/${image.length}` });
      res.end(image.subarray(from));
      return;
    }
    res.writeHead(200, { 'content-length': String(image.length) });
    res.end(image);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, requests, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

describe('a firmware download', () => {
  let files: Awaited<ReturnType<typeof startFiles>>;
  beforeAll(async () => {
    files = await startFiles();
  });
  afterAll(() => files.stop());

  const order = { version: '9.1.0', url: '/hardSoft/download?token=good', size: image.length, md5, sha256 };

  it('resumes from the last byte kept when the connection breaks, and checks the bytes', async () => {
    files.requests.length = 0;
    const reports: OtaReport[] = [];
    const bytes = await downloadPackage(order, {
      base: files.base,
      report: (r) => reports.push(r),
      breakAfterBytes: 20_000,
    });
    expect(Buffer.from(bytes).equals(image)).toBe(true);
    expect(files.requests.map((r) => r.range)).toEqual([undefined, 'bytes=20000-', 'bytes=40000-']);
    expect(reports.at(-1)).toEqual({ state: 'verifying' });
    expect(reports.filter((r) => r.state === 'downloading').length).toBeGreaterThanOrEqual(3);
  });

  it('refuses bytes whose MD5 is not the one announced', async () => {
    await expect(
      downloadPackage({ ...order, md5: '0'.repeat(32) }, { base: files.base, report: () => undefined }),
    ).rejects.toThrow('md5 mismatch');
  });

  it('reports an expired address', async () => {
    await expect(
      downloadPackage({ ...order, url: '/hardSoft/download?token=old' }, { base: files.base, report: () => undefined }),
    ).rejects.toThrow('expired');
  });
});

describe('a simulated device upgraded over the air', () => {
  it('acknowledges, reports progress, restarts on the new version; a failing one keeps its old version', async () => {
    const files = await startFiles();
    const broker = await Aedes.createBroker();
    const statuses: { deviceId: string; body: Record<string, unknown> }[] = [];
    const acks: Record<string, unknown>[] = [];
    broker.on('publish', (packet) => {
      const [, , deviceId, kind] = packet.topic.split('/');
      if (kind === 'status') statuses.push({ deviceId: deviceId ?? '', body: JSON.parse(packet.payload.toString()) });
      if (kind === 'ack') acks.push(JSON.parse(packet.payload.toString()));
    });
    const server: Server = createServer(broker.handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const good = await startFleet({
      url,
      devices: 'sleep=1',
      prefix: 'OTA',
      seed: 'ota',
      eventRate: 0,
      tickMs: 100,
      restartDelayMs: 100,
      httpUrl: files.base,
    });
    const bad = await startFleet({
      url,
      devices: 'sleep=1',
      prefix: 'OTB',
      seed: 'ota',
      eventRate: 0,
      tickMs: 100,
      restartDelayMs: 100,
      httpUrl: files.base,
      otaFailureRate: 1,
    });
    const until = async (check: () => boolean) => {
      const end = Date.now() + 10_000;
      while (!check()) {
        if (Date.now() > end) throw new Error('timed out');
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const send = (deviceId: string, id: number) =>
      broker.publish(
        {
          cmd: 'publish',
          topic: `vigil/v1/${deviceId}/cmd`,
          payload: Buffer.from(
            JSON.stringify({
              id,
              command: 'ota',
              params: {
                version: '9.1.0',
                url: '/hardSoft/download?token=good',
                size: image.length,
                md5,
                sha256,
                expires: 9_999_999_999,
              },
            }),
          ),
          qos: 1,
          retain: false,
          dup: false,
        },
        () => undefined,
      );
    try {
      send('OTA-SLP-0001', 41);
      send('OTB-SLP-0001', 42);
      await until(() => statuses.some((s) => s.deviceId === 'OTA-SLP-0001' && s.body.fw === '9.1.0'));
      await until(() =>
        statuses.some((s) => s.deviceId === 'OTB-SLP-0001' && (s.body.ota as { state?: string })?.state === 'failed'),
      );
      expect(acks).toEqual(
        expect.arrayContaining([{ ts: expect.any(Number), seq: expect.any(Number), id: 41, ok: true }]),
      );
      const steps = statuses
        .filter((s) => s.deviceId === 'OTA-SLP-0001' && s.body.ota)
        .map((s) => (s.body.ota as { state: string }).state);
      expect(steps[0]).toBe('downloading');
      expect(steps.slice(-2)).toEqual(['verifying', 'installing']);
      expect(good.devices.get('OTA-SLP-0001')?.firmwareVersion).toBe('9.1.0');
      const failure = statuses.find(
        (s) => s.deviceId === 'OTB-SLP-0001' && (s.body.ota as { state?: string })?.state === 'failed',
      );
      expect(failure?.body.ota).toEqual({ id: 42, state: 'failed', error: 'flash write error' });
      expect(bad.devices.get('OTB-SLP-0001')?.firmwareVersion).not.toBe('9.1.0');
    } finally {
      await good.stop('abrupt');
      await bad.stop('abrupt');
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await files.stop();
    }
  }, 30_000);
});
