/**
 * A firmware package's bytes in the database (decision 0029): written 1 MB a row as the upload
 * streams in, read back as a stream or by range, never whole in memory. Reads come back as
 * base64 text: on PGlite a `bytea` is decoded from hex on the server's thread, about three
 * times the cost.
 */
import { and, count, eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/database.ts';
import { firmwarePackageChunks } from '../../db/schema.ts';
import type { ByteSource } from './zip-check.ts';

/**
 * A table of 1 MB chunks by owner and order, shaped like `firmware_package_chunk`
 * (`package_id`, `seq`, `bytes`): firmware packages', and any other large stored file's.
 */
export type ChunkTable = PgTable & { packageId: PgColumn; seq: PgColumn; bytes: PgColumn };

export const CHUNK_BYTES = 1024 * 1024;

/** The upload passed the size limit; nothing of it is kept once its transaction rolls back. */
export class PackageTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`the package is larger than ${limitBytes} bytes`);
  }
}

/** Cuts a stream into chunks of exactly `size` bytes (the last one shorter). */
async function* rechunk(bytes: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let held = 0;
  for await (const piece of bytes) {
    let rest = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    while (rest.length) {
      const take = Math.min(size - held, rest.length);
      parts.push(rest.subarray(0, take));
      held += take;
      rest = rest.subarray(take);
      if (held === size) {
        yield Buffer.concat(parts, held);
        parts = [];
        held = 0;
      }
    }
  }
  if (held) yield Buffer.concat(parts, held);
}

export class PackageStore {
  /** `chunks`: the table the bytes live in — the firmware's by default; app packages have one of the same shape. */
  constructor(private readonly chunks: ChunkTable = firmwarePackageChunks) {}

  /**
   * Writes a package's bytes under its id, in order, refusing them past `maxBytes`. Run it in
   * the transaction that records the package, so a refused or broken upload leaves nothing.
   */
  async save(db: Executor, packageId: number, bytes: AsyncIterable<Uint8Array>, maxBytes: number): Promise<number> {
    let size = 0;
    let seq = 0;
    for await (const chunk of rechunk(bytes, CHUNK_BYTES)) {
      size += chunk.length;
      if (size > maxBytes) throw new PackageTooLarge(maxBytes);
      await db.insert(this.chunks).values({ packageId, seq: seq++, bytes: chunk });
    }
    return size;
  }

  /** The bytes `[start, end)` of a stored package, a chunk at a time. */
  async *stream(db: Executor, packageId: number, start: number, end: number): AsyncGenerator<Buffer> {
    for (let seq = Math.floor(start / CHUNK_BYTES); seq * CHUNK_BYTES < end; seq++) {
      const from = Math.max(start - seq * CHUNK_BYTES, 0);
      const to = Math.min(end - seq * CHUNK_BYTES, CHUNK_BYTES);
      const part = await this.part(db, packageId, seq, from, to - from);
      if (part === null) throw new Error(`firmware package ${packageId} is missing its chunk ${seq}`);
      yield part;
    }
  }

  /** Random access to a stored package of `size` bytes (for the zip check). */
  source(db: Executor, packageId: number, size: number): ByteSource {
    return {
      size,
      read: async (position, length) => {
        const parts: Buffer[] = [];
        for await (const part of this.stream(db, packageId, position, Math.min(size, position + length)))
          parts.push(part);
        return Buffer.concat(parts);
      },
    };
  }

  /** How many chunks a package has (0 when none is stored). */
  async chunkCount(db: Executor, packageId: number): Promise<number> {
    const [row] = await db.select({ n: count() }).from(this.chunks).where(eq(this.chunks.packageId, packageId));
    return row?.n ?? 0;
  }

  private async part(db: Executor, packageId: number, seq: number, from: number, length: number) {
    const c = this.chunks;
    const [row] = await db
      .select({ base64: sql<string>`encode(substring(${c.bytes} from ${from + 1}::int for ${length}::int), 'base64')` })
      .from(c)
      .where(and(eq(c.packageId, packageId), eq(c.seq, seq)));
    return row ? Buffer.from(row.base64, 'base64') : null;
  }
}
