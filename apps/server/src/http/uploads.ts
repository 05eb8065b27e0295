import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { UploadedFile } from '@vigil/contract';
import type { FastifyRequest } from 'fastify';
import { AppError, fileTooLarge, invalid } from '../core/app-error.ts';
import { redactedError } from './log-redaction.ts';

/**
 * Multipart uploads, streamed: a file part goes to a temporary file as it arrives (counted and
 * hashed on the way, refused once over the call's limit), never into memory whole. Each request's
 * files live in a directory of their own, readable by this process only, deleted when the request
 * is answered or fails (register-calls), client aborts included.
 */

const DIR_PREFIX = 'vigil-upload-';

/** An upload directory this old is a crash's leftover: no request lives this long. */
export const STALE_UPLOAD_MS = 6 * 60 * 60 * 1000;

/**
 * Deletes upload directories a killed process left behind (every answered request deletes its
 * own). Run at start; only directories untouched for STALE_UPLOAD_MS, so another instance
 * sharing the temporary directory keeps its uploads in progress. Returns how many it removed.
 */
export const sweepStaleUploads = async (root: string = os.tmpdir(), now = Date.now()): Promise<number> => {
  let removed = 0;
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(DIR_PREFIX)) continue;
    const dir = path.join(root, name);
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory() || now - info.mtimeMs < STALE_UPLOAD_MS) continue;
    await rm(dir, { recursive: true, force: true });
    removed++;
  }
  return removed;
};

/** Upload directories on disk now, in this process: none once every request is answered (tests, diagnostics). */
const live = new Set<string>();
export const uploadDirsOnDisk = (): readonly string[] => [...live];

/**
 * A received file. Its own enumerable fields describe the content only (name, type, size, digest):
 * the idempotency hash and the text guard read those, so the per-request temporary path, a getter,
 * never makes two uploads of the same file differ.
 */
class StoredFile implements UploadedFile {
  readonly #path: string;

  constructor(
    readonly filename: string,
    readonly mimetype: string,
    readonly size: number,
    readonly sha256: string,
    filePath: string,
  ) {
    this.#path = filePath;
  }

  get path(): string {
    return this.#path;
  }

  read(): Promise<Uint8Array> {
    return readFile(this.#path);
  }

  stream(): Readable {
    return createReadStream(this.#path);
  }
}

/** Resolves once the stream can take more, or has failed (its error is kept by the caller's listener). */
const drained = (out: WriteStream): Promise<void> =>
  out.destroyed
    ? Promise.resolve()
    : new Promise((resolve) => {
        const done = () => {
          out.off('drain', done);
          out.off('close', done);
          resolve();
        };
        out.on('drain', done);
        out.on('close', done);
      });

/** The uploads of one request: received into one temporary directory, all deleted by `discard`. */
export class UploadScope {
  #dir: Promise<string> | undefined;
  #discarded: Promise<void> | undefined;

  constructor(
    private readonly request: FastifyRequest,
    /** Where the request's directory is made; the system's temporary directory unless a test says otherwise. */
    private readonly root: string = os.tmpdir(),
  ) {}

  #directory(): Promise<string> {
    // mkdtemp makes the directory 0700: other local users cannot list or read the uploads.
    this.#dir ??= mkdtemp(path.join(this.root, DIR_PREFIX)).then((dir) => {
      live.add(dir);
      return dir;
    });
    return this.#dir;
  }

  /**
   * Streams a file part to disk while counting and hashing it. Above `limit` bytes nothing more is
   * written, the partial file is deleted and the call is refused with `upload.tooLarge`; the rest
   * of the part is skipped by the multipart parser (which truncates at the same limit), so the
   * answer goes out once the client has finished sending rather than leaving it hanging.
   */
  async receive(part: MultipartFile, limit: number): Promise<UploadedFile> {
    if (this.#discarded) throw new Error('upload received after its request was answered');
    const target = path.join(await this.#directory(), randomUUID());
    const out = createWriteStream(target, { flags: 'wx', mode: 0o600 });
    let writeError: unknown;
    out.on('error', (error) => {
      writeError ??= error;
    });
    const hash = createHash('sha256');
    let size = 0;
    let storing = true;
    try {
      // Never leave this loop early: the parser only finishes the request once the part is consumed.
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (!storing) continue;
        if (size > limit || part.file.truncated || writeError !== undefined) {
          storing = false;
          out.destroy();
          continue;
        }
        hash.update(chunk);
        if (!out.write(chunk)) await drained(out);
      }
      if (size > limit || part.file.truncated) throw fileTooLarge(limit);
      if (writeError !== undefined) throw writeError;
      out.end();
      await finished(out);
      return new StoredFile(part.filename, part.mimetype, size, hash.digest('hex'), target);
    } catch (error) {
      out.destroy();
      await rm(target, { force: true });
      // The client went away mid-upload: nobody reads the answer, and it is not the server's failure.
      if (this.request.raw.destroyed && !(error instanceof AppError)) {
        throw invalid('validation.body');
      }
      throw error;
    }
  }

  /** Deletes every file of the request; later calls wait for the first. Never throws. */
  discard(): Promise<void> {
    this.#discarded ??= (async () => {
      if (!this.#dir) return;
      const dir = await this.#dir.catch(() => undefined);
      if (dir === undefined) return;
      try {
        await rm(dir, { recursive: true, force: true });
        live.delete(dir);
      } catch (error) {
        this.request.log.error({ err: redactedError(error), dir }, 'upload not deleted');
      }
    })();
    return this.#discarded;
  }
}

const scopes = new WeakMap<FastifyRequest, UploadScope>();

/** The upload scope of a request, made on first use. */
export const uploadsOf = (request: FastifyRequest): UploadScope => {
  let scope = scopes.get(request);
  if (!scope) {
    scope = new UploadScope(request);
    scopes.set(request, scope);
  }
  return scope;
};

/** Deletes a request's uploads, if it had any. */
export const discardUploads = (request: FastifyRequest): Promise<void> =>
  scopes.get(request)?.discard() ?? Promise.resolve();

/**
 * A multipart request's fields, its file (one at most) as an UploadedFile streamed to disk.
 * Above `limit` the file is refused with `upload.tooLarge` naming the limit.
 */
export const readMultipart = async (
  request: FastifyRequest,
  limit: number,
  uploads: UploadScope = uploadsOf(request),
): Promise<Record<string, unknown>> => {
  const out: Record<string, unknown> = {};
  for await (const part of request.parts({ limits: { fileSize: limit, files: 1, fields: 20 } })) {
    out[part.fieldname] = part.type === 'file' ? await uploads.receive(part, limit) : part.value;
  }
  return out;
};
