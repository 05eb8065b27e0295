import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { Db } from '../../db/database.ts';
import type { PackageStore } from './package-store.ts';

/** What the cache needs to know of a package. */
export interface CachedPackage {
  id: number;
  sizeBytes: number;
  sha256: string;
}

/**
 * Each instance's copy of the packages devices download (decision 0029): written from the
 * database's chunks on the first download, checked against the package's SHA-256, renamed into
 * place, then every download and range request streams from the file. A missing or short copy is
 * rebuilt; concurrent first downloads on one instance share one build.
 */
export class PackageCache {
  private readonly building = new Map<string, Promise<string>>();

  constructor(
    private readonly db: Db,
    private readonly store: PackageStore,
    private readonly dir: string,
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

  /** Deletes this instance's copy (the package was deleted or taken offline). */
  async drop(sha256: string): Promise<void> {
    await rm(path.join(this.dir, `${sha256}.zip`), { force: true });
  }

  private async build(pkg: CachedPackage, file: string): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const partial = `${file}.${randomUUID()}.part`;
    const hash = createHash('sha256');
    const out = createWriteStream(partial, { mode: 0o600 });
    try {
      for await (const chunk of this.store.stream(this.db, pkg.id, 0, pkg.sizeBytes)) {
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
