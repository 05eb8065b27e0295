import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { Db } from '../../db/database.ts';
import type { BackgroundPacer } from '../../core/background-pacer.ts';
import { CHUNK_BYTES, type PackageStore } from './package-store.ts';

/** What the cache needs to know of a package. */
export interface CachedPackage {
  id: number;
  sizeBytes: number;
  sha256: string;
}

/**
 * Each instance's copy of the packages devices and phones download (decision 0029): written
 * from the database's chunks on the first download — a chunk a step of the background pacer, so
 * on PGlite a 64 MB package does not take the server's thread from alarms — checked against the
 * package's SHA-256, renamed into place; every download and range request after that streams
 * from the file. A missing or short copy is rebuilt; concurrent first downloads on one instance
 * share one build. Copies are derived data: a package's copy stays until DATA_DIR's folder is
 * cleared, and is made again when needed.
 */
export class PackageCache {
  private readonly building = new Map<string, Promise<string>>();

  constructor(
    private readonly db: Db,
    private readonly store: PackageStore,
    private readonly dir: string,
    private readonly pacer?: BackgroundPacer,
  ) {}

  /** The path of a verified copy of the package, made first when needed. */
  async pathOf(pkg: CachedPackage): Promise<string> {
    const file = path.join(this.dir, `${pkg.sha256}.zip`);
    const info = await stat(file).catch(() => undefined);
    if (info?.isFile() && info.size === pkg.sizeBytes) return file;
    let build = this.building.get(pkg.sha256);
    if (!build) {
      build = this.build(pkg, file).finally(() => this.building.delete(pkg.sha256));
      this.building.set(pkg.sha256, build);
    }
    return build;
  }

  private async readRange(packageId: number, start: number, end: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const part of this.store.stream(this.db, packageId, start, end)) parts.push(part);
    return Buffer.concat(parts);
  }

  private async build(pkg: CachedPackage, file: string): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const partial = `${file}.${randomUUID()}.part`;
    const hash = createHash('sha256');
    const out = createWriteStream(partial, { mode: 0o600 });
    try {
      for (let start = 0; start < pkg.sizeBytes; start += CHUNK_BYTES) {
        const end = Math.min(start + CHUNK_BYTES, pkg.sizeBytes);
        const read = () => this.readRange(pkg.id, start, end);
        const chunk = this.pacer ? await this.pacer.step(read) : await read();
        hash.update(chunk);
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      }
      out.end();
      await finished(out);
      const digest = hash.digest('hex');
      if (digest !== pkg.sha256) {
        throw new Error(`firmware package ${pkg.id}: stored bytes have SHA-256 ${digest}, not ${pkg.sha256}`);
      }
      await rename(partial, file);
      return file;
    } catch (error) {
      out.destroy();
      await rm(partial, { force: true });
      throw error;
    }
  }
}
