import { createHash, randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import multipart from '@fastify/multipart';
import {
  deviceStockExcelModel,
  deviceStockImportSheet,
  uploadLogo,
  type Envelope,
  type UploadedFile,
} from '@vigil/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../core/app-error.ts';
import { paddedPng } from '../modules/system/png-fixture.ts';
import { sheetRows, uploadForm, workbook } from '../modules/spreadsheet/sheet-test-support.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../test/harness.ts';
import { requestHash } from './idempotency.ts';
import { envelopeOf } from './register-calls.ts';
import { readMultipart, STALE_UPLOAD_MS, sweepStaleUploads, uploadDirsOnDisk, UploadScope } from './uploads.ts';

const MB = 1024 * 1024;

const waitFor = async (check: () => boolean | Promise<boolean>, what: string, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** What the kernel's socket buffers and the parser may hold between the sender and the disk. */
const IN_FLIGHT = 6 * MB;

/** Bytes of every file under `dir`, however deep. */
const bytesOnDisk = async (dir: string): Promise<number> => {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile())
      total += statSync(path.join(entry.parentPath, entry.name), { throwIfNoEntry: false })?.size ?? 0;
  return total;
};

interface Sent {
  status: number;
  body: Envelope<unknown>;
}

/**
 * Posts a multipart file of `size` bytes over a real socket, generated as it is sent (the test
 * never holds it whole); `abortAfter` destroys the request once that many file bytes are out and
 * the server has started storing them.
 */
const sendFile = (
  url: string,
  size: number,
  options: {
    headers?: Record<string, string>;
    abortAfter?: number;
    started?: () => boolean | Promise<boolean>;
    /** Stops sending once this many file bytes are out, until `resumeWhen` holds. */
    holdAfter?: number;
    resumeWhen?: () => boolean | Promise<boolean>;
  } = {},
): { sha256: string; answer: Promise<Sent> } => {
  const boundary = `vigil-${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(MB, 0);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31 + 7) % 251;
  const hash = createHash('sha256');
  for (let sent = 0; sent < size; sent += chunk.length)
    hash.update(chunk.subarray(0, Math.min(chunk.length, size - sent)));

  const answer = new Promise<Sent>((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + size + tail.length),
        'accept-language': 'en-US',
        ...options.headers,
      },
    });
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: JSON.parse(Buffer.concat(parts).toString()) as Envelope<unknown>,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', (error) =>
      options.abortAfter === undefined ? reject(error) : resolve({ status: 0, body: {} as Envelope<unknown> }),
    );
    void (async () => {
      const write = (data: Buffer) =>
        new Promise<void>((done) => {
          if (req.write(data)) done();
          else req.once('drain', done);
        });
      await write(head);
      for (let sent = 0; sent < size; sent += chunk.length) {
        if (req.destroyed) return;
        if (options.abortAfter !== undefined && sent >= options.abortAfter) {
          if (options.started) await waitFor(options.started, 'the server to store the upload');
          req.destroy();
          return;
        }
        if (sent === options.holdAfter && options.resumeWhen)
          await waitFor(options.resumeWhen, 'the server to store what was sent so far');
        await write(chunk.subarray(0, Math.min(chunk.length, size - sent)));
      }
      req.end(tail);
    })().catch(reject);
  });
  return { sha256: hash.digest('hex'), answer };
};

describe('streamed uploads', () => {
  const LIMIT = 40 * MB;
  let app: FastifyInstance;
  let root: string;
  let url: string;
  /** What the handler saw of the file while it ran. */
  let seen: {
    size: number;
    sha256: string;
    streamedSha256: string;
    mode: number;
    inRoot: boolean;
  }[];
  /** What the handler refused, by message key. */
  let refused: string[];
  let handled: Promise<void>;
  let markHandled: () => void;
  const expectHandled = () => {
    seen = [];
    refused = [];
    handled = new Promise((resolve) => (markHandled = resolve));
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'vigil-uploads-test-'));
    app = Fastify();
    await app.register(multipart);
    // The handling registerCalls gives a multipart call, reduced to the upload: streamed, then discarded.
    app.post('/upload', async (request, reply) => {
      const scope = new UploadScope(request, root);
      try {
        const input = await readMultipart(request, LIMIT, scope);
        const file = input.file as UploadedFile;
        const streamed = createHash('sha256');
        for await (const c of file.stream()) streamed.update(c as Buffer);
        seen.push({
          size: file.size,
          sha256: file.sha256,
          streamedSha256: streamed.digest('hex'),
          mode: statSync(file.path).mode & 0o777,
          inRoot: path.dirname(path.dirname(file.path)) === root,
        });
        return { status: 200, msg: 'ok', data: { size: file.size } };
      } catch (error) {
        refused.push(error instanceof AppError ? error.key : String(error));
        if (error instanceof AppError) return reply.send(envelopeOf(error, 'en-US'));
        throw error;
      } finally {
        await scope.discard();
        markHandled();
      }
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/upload`;
  });
  afterAll(async () => {
    await app?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('streams a 30 MB file to a private temporary file, counted and hashed, never held in memory', async () => {
    expectHandled();
    const size = 30 * MB + 123;
    // Halfway, the sender waits until most of what it sent is on disk: a server that buffered
    // the upload would store nothing before the last byte, and the sender would wait in vain.
    // (Measuring the process's memory instead proved noisy: the sender shares this process.)
    const half = 15 * MB;
    const { sha256, answer } = sendFile(url, size, {
      holdAfter: half,
      resumeWhen: async () => (await bytesOnDisk(root)) >= half - IN_FLIGHT,
    });
    const res = await answer;
    await handled;
    expect(res.body).toMatchObject({ status: 200, data: { size } });
    const [file] = seen;
    expect(file).toMatchObject({ size, sha256, streamedSha256: sha256, mode: 0o600, inRoot: true });
    expect(await readdir(root)).toEqual([]);
  });

  it('refuses a file over the limit with the localised upload.tooLarge, promptly, keeping nothing', async () => {
    expectHandled();
    const { answer } = sendFile(url, LIMIT + 5 * MB);
    const res = await answer;
    await handled;
    expect(res.body).toMatchObject({
      status: 400,
      msgKey: 'upload.tooLarge',
      msg: 'The file is too large: at most 40 MB.',
    });
    expect(refused).toEqual(['upload.tooLarge']);
    expect(seen).toEqual([]);
    expect(await readdir(root)).toEqual([]);
  });

  it('deletes what it stored of an upload the client abandons', async () => {
    expectHandled();
    const { answer } = sendFile(url, 30 * MB, {
      abortAfter: 5 * MB,
      // Aborted only once some of it is on disk.
      started: async () => (await readdir(root)).length > 0,
    });
    await answer;
    await handled;
    // Not a server failure: the client went away.
    expect(refused).toEqual(['validation.body']);
    expect(seen).toEqual([]);
    expect(await readdir(root)).toEqual([]);
  });

  it('identifies a file by its content: two uploads of the same bytes hash alike for idempotency', async () => {
    const files: UploadedFile[] = [];
    const second = Fastify();
    await second.register(multipart);
    const scopes: UploadScope[] = [];
    second.post('/keep', async (request) => {
      const scope = new UploadScope(request, root);
      scopes.push(scope);
      files.push((await readMultipart(request, MB, scope)).file as UploadedFile);
      return { ok: true };
    });
    const post = (bytes: Uint8Array) => {
      const form = uploadForm(bytes, 'same.xlsx');
      const request = new Request('http://local/', { method: 'POST', body: form });
      return request.arrayBuffer().then((body) =>
        second.inject({
          method: 'POST',
          url: '/keep',
          headers: { 'content-type': request.headers.get('content-type') ?? '' },
          payload: Buffer.from(body),
        }),
      );
    };
    await post(new Uint8Array([1, 2, 3]));
    await post(new Uint8Array([1, 2, 3]));
    await post(new Uint8Array([1, 2, 4]));
    const [a, b, c] = files;
    expect(a?.path).not.toBe(b?.path);
    expect(requestHash({ file: a })).toBe(requestHash({ file: b }));
    expect(requestHash({ file: a })).not.toBe(requestHash({ file: c }));
    expect(Array.from(await (a as UploadedFile).read())).toEqual([1, 2, 3]);
    await Promise.all(scopes.map((s) => s.discard()));
    await second.close();
    expect(await readdir(root)).toEqual([]);
  });
});

describe('uploads of declared calls', () => {
  let app: TestApp;
  let admin: string;

  beforeAll(async () => {
    app = await createTestApp('pglite');
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
  });
  afterAll(() => app?.close());

  it('hands the handler a file on disk, deleted once the call is answered', async () => {
    const png = paddedPng(200, 200, 50 * 1024);
    let during: { path: string; exists: boolean; size: number; sha256: string } | undefined;
    const upload = app.services.system.uploadLogo.bind(app.services.system);
    const spy = vi.spyOn(app.services.system, 'uploadLogo').mockImplementation(async (caller, file) => {
      if (file) during = { path: file.path, exists: existsSync(file.path), size: file.size, sha256: file.sha256 };
      return upload(caller, file);
    });
    try {
      const form = new FormData();
      form.append('file', new Blob([png], { type: 'image/png' }), 'logo.png');
      const res = await app.call(uploadLogo, form, { token: admin });
      expect(res.status, res.msg).toBe(200);
      expect(during).toEqual({
        path: expect.any(String),
        exists: true,
        size: png.length,
        sha256: createHash('sha256').update(png).digest('hex'),
      });
      expect(existsSync(during?.path ?? '')).toBe(false);
      expect(uploadDirsOnDisk()).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });

  it("refuses a file over the call's limit in the caller's language, leaving no temporary file", async () => {
    const big = paddedPng(200, 200, 3 * MB);
    const form = new FormData();
    form.append('file', new Blob([big], { type: 'image/png' }), 'logo.png');
    const zh = await app.call(uploadLogo, form, { token: admin, lang: 'zh-CN' });
    expect(zh).toMatchObject({ status: 400, msgKey: 'upload.tooLarge' });
    expect(zh.msg).toContain('100 KB');
    expect(zh.msg).not.toBe('The file is too large: at most 100 KB.');
    expect(uploadDirsOnDisk()).toEqual([]);
  });

  it('leaves no temporary file when the client abandons an upload to a call', async () => {
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.app.server.address() as AddressInfo).port;
    // Under the multipart limit of a sheet import (10 MB) but sent only in part.
    const { answer } = sendFile(`http://127.0.0.1:${port}${deviceStockImportSheet.path}`, 8 * MB, {
      headers: { 'x-token': admin },
      abortAfter: 2 * MB,
      started: () => uploadDirsOnDisk().length > 0,
    });
    await answer;
    await waitFor(() => uploadDirsOnDisk().length === 0, 'the upload to be deleted');
  });

  it('imports a sheet through the streamed file, and replays a repeated Idempotency-Key', async () => {
    const header = sheetRows(await app.download(deviceStockExcelModel, {}, { token: admin }))[0] ?? [];
    const form = uploadForm(workbook([header, ['UP-1', 'BM8701-2'], ['UP-2', 'BM8701-2']]));
    const request = new Request('http://local/', { method: 'POST', body: form });
    const payload = Buffer.from(await request.arrayBuffer());
    const post = () =>
      app.app.inject({
        method: 'POST',
        url: deviceStockImportSheet.path,
        headers: {
          'x-token': admin,
          'accept-language': 'en-US',
          'content-type': request.headers.get('content-type') ?? '',
          'idempotency-key': 'upload-replay-1',
        },
        payload,
      });
    const first = (await post()).json();
    expect(first).toMatchObject({ status: 200, data: { imported: 2 } });
    expect((await post()).json()).toEqual(first);
    expect(uploadDirsOnDisk()).toEqual([]);
  });
});

describe('upload folders left by a crash', () => {
  it('are removed at start once stale; fresh ones (another instance at work) and other folders stay', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'vigil-sweep-test-'));
    try {
      const now = Date.now();
      const made = async (name: string, ageMs: number) => {
        const dir = path.join(root, name);
        await mkdir(dir);
        await writeFile(path.join(dir, 'part'), 'x');
        const at = (now - ageMs) / 1000;
        await utimes(dir, at, at);
      };
      await made('vigil-upload-crashed', STALE_UPLOAD_MS + 60_000);
      await made('vigil-upload-in-progress', 60_000);
      await made('someone-else', STALE_UPLOAD_MS * 4);
      expect(await sweepStaleUploads(root, now)).toBe(1);
      expect((await readdir(root)).sort()).toEqual(['someone-else', 'vigil-upload-in-progress']);
      expect(await sweepStaleUploads(path.join(root, 'missing'), now)).toBe(0);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
