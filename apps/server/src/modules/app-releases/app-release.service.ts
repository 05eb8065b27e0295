import {
  APP_PACKAGE_EXTENSIONS,
  APP_PACKAGE_MAX_BYTES,
  appVersionCalls,
  type AppPackage,
  type AppPackageKind,
  type AppPlatform,
  type AppVersion,
  type CallParsed,
  type H5Version,
  type LastVersion,
  type ReleaseFile,
  type ReleaseState,
  type ReleaseType,
  type UploadedFile,
} from '@vigil/contract';
import { createReadStream } from 'node:fs';
import type { Clock } from '../../clock.ts';
import { fail, fileTooLarge, invalid, notFound, type AppError } from '../../core/app-error.ts';
import type { Caller } from '../../core/caller.ts';
import type { Db, Executor } from '../../db/database.ts';
import { UNIQUE_VIOLATION, violatedConstraint } from '../../db/db-errors.ts';
import type { PackageCache } from '../firmware/package-cache.ts';
import { PackageTooLarge, type PackageStore } from '../firmware/package-store.ts';
import { checkZipFile } from '../firmware/zip-check.ts';
import {
  AppReleaseRepository,
  type AppVersionView,
  type H5VersionView,
  type PackageRow,
} from './app-release.repository.ts';

type AddInput = CallParsed<typeof appVersionCalls.appVersionAdd>;
type AddWithH5Input = CallParsed<typeof appVersionCalls.appVersionAddWithH5>;
type ListInput = CallParsed<typeof appVersionCalls.appVersionList>;
type ReleaseListInput = CallParsed<typeof appVersionCalls.appVersionReleaseList>;
type H5ListInput = CallParsed<typeof appVersionCalls.h5VersionList>;
type H5AddInput = CallParsed<typeof appVersionCalls.h5VersionAdd>;
type H5UpdateInput = CallParsed<typeof appVersionCalls.h5VersionUpdate>;

/** An upload no release took within this long is deleted (at the next upload). */
export const UNUSED_UPLOAD_MS = 24 * 60 * 60 * 1000;

const CONTENT_TYPES: Readonly<Record<AppPackageKind, string>> = {
  apk: 'application/vnd.android.package-archive',
  h5: 'application/zip',
};
const PLATFORM_NAMES: Readonly<Record<AppPlatform, string>> = { ios: 'iOS', android: 'Android' };

/** A file as a stream: the package's bytes, read from the database a chunk at a time. */
export interface PackageDownload {
  contentType: string;
  filename: string;
  size: number;
  stream: AsyncIterable<Uint8Array>;
}

export const downloadUrlOf = (fileId: number): string => `${appVersionCalls.appPackageDownload.path}?id=${fileId}`;

const fileOf = (row: PackageRow): ReleaseFile => ({
  fileId: row.id,
  fileName: row.fileName,
  size: row.sizeBytes,
  sha256: row.sha256,
  downloadUrl: downloadUrlOf(row.id),
});

/** A received file (the contract's `z.custom` takes anything a multipart field holds). */
const isUpload = (file: unknown): file is UploadedFile =>
  typeof file === 'object' &&
  file !== null &&
  typeof (file as UploadedFile).path === 'string' &&
  typeof (file as UploadedFile).filename === 'string' &&
  typeof (file as UploadedFile).stream === 'function';

const iso = (at: Date | null): string | null => (at ? at.toISOString() : null);

const appVersionOf = ({ version: v, file, h5 }: AppVersionView): AppVersion => ({
  id: v.id,
  platform: v.platform as AppPlatform,
  versionName: v.versionName,
  buildNumber: v.buildNumber,
  notes: v.notes,
  storeUrl: v.storeUrl,
  file: file ? fileOf(file) : null,
  force: v.force,
  state: v.state as ReleaseState,
  uploadTime: v.uploadedAt.toISOString(),
  publishTime: iso(v.publishedAt),
  offShelfTime: iso(v.offShelfAt),
  h5: h5 ? { id: h5.id, versionName: h5.versionName, state: h5.state as ReleaseState } : null,
});

const h5VersionOf = ({ version: v, file }: H5VersionView): H5Version => ({
  id: v.id,
  versionName: v.versionName,
  file: fileOf(file),
  state: v.state as ReleaseState,
  uploadTime: v.uploadedAt.toISOString(),
  publishTime: iso(v.publishedAt),
  offShelfTime: iso(v.offShelfAt),
});

const pageOf = <T>(page: { pageNum: number; pageSize: number }, rows: T[], total: number) => ({
  rows,
  total,
  pageNum: page.pageNum,
  pageSize: page.pageSize,
});

const limits = (page: { pageNum: number; pageSize: number }) => ({
  offset: (page.pageNum - 1) * page.pageSize,
  limit: page.pageSize,
});

/** A concurrent request that stored the same build or H5 version name first: the same refusal a check gives. */
const duplicateOf = (
  error: unknown,
  input: { platform?: string; build?: string; h5Name?: string },
): AppError | null => {
  const constraint = violatedConstraint(error, [UNIQUE_VIOLATION]);
  if (constraint === 'app_version_build' && input.platform && input.build) {
    return fail('appRelease.buildExists', {
      build: input.build,
      platform: PLATFORM_NAMES[input.platform as AppPlatform],
    }).on('buildNumber');
  }
  if (constraint === 'h5_version_name' && input.h5Name) {
    return fail('appRelease.h5VersionExists', { version: input.h5Name });
  }
  return null;
};

/**
 * App versions and H5 packages (docs/app-releases.md): uploads checked and stored in the
 * database in 1 MB chunks, the release states, and the app's version check. Platform-wide: the
 * calls are for the platform's super and senior administrators (the contract says so), and no
 * provider owns a release.
 */
export class AppReleaseService {
  private readonly repo = new AppReleaseRepository();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** The packages' bytes in the database (app_package_chunk). */
    private readonly store: PackageStore,
    /** This instance's verified copies, which downloads are served from (decision 0029). */
    private readonly cache: PackageCache,
  ) {}

  // --- Uploads

  /**
   * Checks an uploaded file (the kind's file name ending, a whole zip archive: an APK is one)
   * before anything is written, then stores it as it streams from the upload's temporary file.
   * Uploads no release took within a day are deleted in the same transaction.
   */
  async upload(caller: Caller, file: UploadedFile | undefined, kind: AppPackageKind): Promise<AppPackage> {
    // A `file` sent as a text field is no upload either.
    if (!isUpload(file) || file.size === 0) throw invalid('upload.missing').on('file');
    if (file.size > APP_PACKAGE_MAX_BYTES) throw fileTooLarge(APP_PACKAGE_MAX_BYTES).on('file');
    if (!file.filename.toLowerCase().endsWith(APP_PACKAGE_EXTENSIONS[kind])) {
      throw invalid('appRelease.fileExtension').on('file');
    }
    const zip = await checkZipFile(file.path);
    if (!zip.zip) throw invalid('appRelease.notZip').on('file');
    const now = this.clock.now();
    try {
      const row = await this.db.transaction(async (tx) => {
        const stored = await this.repo.insertPackage(tx, {
          kind,
          fileName: file.filename.slice(0, 255),
          sizeBytes: file.size,
          sha256: file.sha256,
          uploadedBy: caller.accountId,
          uploadedAt: now,
        });
        await this.store.save(tx, stored.id, file.stream(), APP_PACKAGE_MAX_BYTES);
        // Under the release lock, so a release taking an old upload right now keeps it.
        await this.repo.lock(tx);
        await this.repo.deleteUnusedPackages(tx, { staleBefore: new Date(now.getTime() - UNUSED_UPLOAD_MS) });
        return stored;
      });
      return {
        fileId: row.id,
        packageType: kind,
        fileName: row.fileName,
        size: row.sizeBytes,
        sha256: row.sha256,
        uploadTime: row.uploadedAt.toISOString(),
      };
    } catch (error) {
      if (error instanceof PackageTooLarge) throw fileTooLarge(APP_PACKAGE_MAX_BYTES).on('file');
      throw error;
    }
  }

  /** The stored package `fileId`, which must be of `kind`. */
  private async packageOf(tx: Executor, fileId: number, kind: AppPackageKind, field: string): Promise<PackageRow> {
    const row = await this.repo.findPackage(tx, fileId);
    if (!row) throw fail('appRelease.fileNotFound').on(field);
    if (row.kind !== kind) throw fail(kind === 'apk' ? 'appRelease.fileNotApk' : 'appRelease.fileNotH5').on(field);
    return row;
  }

  // --- App versions

  async list(q: ListInput) {
    const { rows, total } = await this.repo.pageVersions(
      this.db,
      { platform: q.platform, state: q.state, ...limits(q) },
      'upload',
    );
    return pageOf(q, rows.map(appVersionOf), total);
  }

  async releaseList(q: ReleaseListInput) {
    const { rows, total } = await this.repo.pageVersions(
      this.db,
      { platform: q.platform, state: 'published', ...limits(q) },
      'build',
    );
    return pageOf(q, rows.map(appVersionOf), total);
  }

  /** Saves an app version, unpublished (with a new H5 package, unpublished too, for addAppH5). */
  async add(caller: Caller, input: AddInput | AddWithH5Input): Promise<AppVersion> {
    if (!input.storeUrl && input.fileId === undefined) throw fail('appRelease.sourceRequired').on('storeUrl');
    if (input.platform === 'ios' && input.fileId !== undefined) throw fail('appRelease.iosPackage').on('fileId');
    const h5 = 'h5FileId' in input ? { versionName: input.h5VersionName, fileId: input.h5FileId } : null;
    const now = this.clock.now();
    try {
      const id = await this.db.transaction(async (tx) => {
        await this.repo.lock(tx);
        if (input.fileId !== undefined) await this.packageOf(tx, input.fileId, 'apk', 'fileId');
        if (await this.repo.findBuild(tx, input.platform, input.buildNumber)) {
          throw fail('appRelease.buildExists', {
            build: input.buildNumber,
            platform: PLATFORM_NAMES[input.platform],
          }).on('buildNumber');
        }
        let h5VersionId: number | null = null;
        if (h5) {
          await this.packageOf(tx, h5.fileId, 'h5', 'h5FileId');
          if (await this.repo.findH5ByName(tx, h5.versionName)) {
            throw fail('appRelease.h5VersionExists', { version: h5.versionName }).on('h5VersionName');
          }
          h5VersionId = (
            await this.repo.insertH5(tx, {
              versionName: h5.versionName,
              packageId: h5.fileId,
              createdBy: caller.accountId,
              uploadedAt: now,
            })
          ).id;
        }
        const row = await this.repo.insertVersion(tx, {
          platform: input.platform,
          versionName: input.versionName,
          buildNumber: input.buildNumber,
          notes: input.notes,
          storeUrl: input.storeUrl ?? null,
          packageId: input.fileId ?? null,
          h5VersionId,
          force: input.force,
          createdBy: caller.accountId,
          uploadedAt: now,
        });
        return row.id;
      });
      return appVersionOf(await this.versionView(id));
    } catch (error) {
      throw (
        duplicateOf(error, { platform: input.platform, build: input.buildNumber, h5Name: h5?.versionName }) ?? error
      );
    }
  }

  private async versionView(id: number): Promise<AppVersionView> {
    const view = await this.repo.findVersionView(this.db, id);
    if (!view) throw notFound();
    return view;
  }

  /**
   * Publishes an unpublished release. An app version needs a store URL or a package, and a build
   * higher than every published version of its platform; its H5 package is published with it.
   */
  async publish(type: ReleaseType, id: number): Promise<void> {
    const now = this.clock.now();
    if (type === 'h5') {
      await this.db.transaction(async (tx) => {
        await this.repo.lock(tx);
        const row = await this.repo.findH5(tx, id, true);
        if (!row) throw notFound();
        this.assertPublishable(row.state);
        await this.repo.setH5State(tx, id, 'published', now);
      });
      return;
    }
    await this.db.transaction(async (tx) => {
      await this.repo.lock(tx);
      const row = await this.repo.findVersion(tx, id, true);
      if (!row) throw notFound();
      this.assertPublishable(row.state);
      if (!row.storeUrl && row.packageId === null) throw fail('appRelease.sourceRequired');
      const newest = await this.repo.newestPublished(tx, row.platform);
      if (newest && BigInt(newest.buildNumber) >= BigInt(row.buildNumber)) {
        throw fail('appRelease.buildNotHigher', {
          build: row.buildNumber,
          current: newest.buildNumber,
          platform: PLATFORM_NAMES[row.platform as AppPlatform],
        });
      }
      await this.repo.setVersionState(tx, id, 'published', now);
      if (row.h5VersionId !== null) {
        const h5 = await this.repo.findH5(tx, row.h5VersionId, true);
        if (h5?.state === 'unpublished') await this.repo.setH5State(tx, h5.id, 'published', now);
      }
    });
  }

  private assertPublishable(state: string): void {
    if (state === 'published') throw fail('appRelease.alreadyPublished');
    if (state === 'offShelf') throw fail('appRelease.isOffShelf');
  }

  /** Takes a published release down: no longer offered, its package no longer served. */
  async offShelf(type: ReleaseType, id: number): Promise<void> {
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      await this.repo.lock(tx);
      const row = type === 'h5' ? await this.repo.findH5(tx, id, true) : await this.repo.findVersion(tx, id, true);
      if (!row) throw notFound();
      if (row.state !== 'published') throw fail('appRelease.notPublished');
      if (type === 'h5') await this.repo.setH5State(tx, id, 'offShelf', now);
      else await this.repo.setVersionState(tx, id, 'offShelf', now);
    });
  }

  /** Deletes an unpublished or taken-down app version, and its package when nothing else uses it. */
  async deleteVersion(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.repo.lock(tx);
      const row = await this.repo.findVersion(tx, id, true);
      if (!row) throw notFound();
      if (row.state === 'published') throw fail('appRelease.published');
      await this.repo.deleteVersion(tx, id);
      if (row.packageId !== null) await this.repo.deleteUnusedPackages(tx, { ids: [row.packageId] });
    });
  }

  // --- H5 packages

  async listH5(q: H5ListInput) {
    const { rows, total } = await this.repo.pageH5(this.db, { state: q.state, ...limits(q) });
    return pageOf(q, rows.map(h5VersionOf), total);
  }

  async addH5(caller: Caller, input: H5AddInput): Promise<H5Version> {
    try {
      const id = await this.db.transaction(async (tx) => {
        await this.repo.lock(tx);
        await this.packageOf(tx, input.fileId, 'h5', 'fileId');
        if (await this.repo.findH5ByName(tx, input.versionName)) {
          throw fail('appRelease.h5VersionExists', { version: input.versionName }).on('versionName');
        }
        const row = await this.repo.insertH5(tx, {
          versionName: input.versionName,
          packageId: input.fileId,
          createdBy: caller.accountId,
          uploadedAt: this.clock.now(),
        });
        return row.id;
      });
      return h5VersionOf(await this.h5View(id));
    } catch (error) {
      throw duplicateOf(error, { h5Name: input.versionName }) ?? error;
    }
  }

  /** Changes an unpublished H5 package's version name or file; a replaced file no release uses is deleted. */
  async updateH5(input: H5UpdateInput): Promise<H5Version> {
    try {
      await this.db.transaction(async (tx) => {
        await this.repo.lock(tx);
        const row = await this.repo.findH5(tx, input.id, true);
        if (!row) throw notFound();
        if (row.state !== 'unpublished') throw fail('appRelease.published');
        if (input.fileId !== undefined) await this.packageOf(tx, input.fileId, 'h5', 'fileId');
        const named = await this.repo.findH5ByName(tx, input.versionName);
        if (named && named.id !== row.id) {
          throw fail('appRelease.h5VersionExists', { version: input.versionName }).on('versionName');
        }
        await this.repo.updateH5(tx, row.id, {
          versionName: input.versionName,
          packageId: input.fileId ?? row.packageId,
        });
        if (input.fileId !== undefined && input.fileId !== row.packageId) {
          await this.repo.deleteUnusedPackages(tx, { ids: [row.packageId] });
        }
      });
    } catch (error) {
      throw duplicateOf(error, { h5Name: input.versionName }) ?? error;
    }
    return h5VersionOf(await this.h5View(input.id));
  }

  /** Deletes an unpublished or taken-down H5 package; app versions released with it keep theirs (none). */
  async deleteH5(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.repo.lock(tx);
      const row = await this.repo.findH5(tx, id, true);
      if (!row) throw notFound();
      if (row.state === 'published') throw fail('appRelease.published');
      await this.repo.deleteH5(tx, id);
      await this.repo.deleteUnusedPackages(tx, { ids: [row.packageId] });
    });
  }

  private async h5View(id: number): Promise<H5VersionView> {
    const view = await this.repo.findH5View(this.db, id);
    if (!view) throw notFound();
    return view;
  }

  // --- The app's side

  /**
   * The version check: the newest published version of the platform with a build above the
   * caller's, or null. Forced when that version or any published version between the caller's
   * build and it is marked force (a user skipping several versions must not skip a forced one).
   */
  async lastVersion(platform: AppPlatform, build: string): Promise<LastVersion | null> {
    const found = await this.repo.newerThan(this.db, platform, build);
    if (!found) return null;
    const { version: v, file, h5 } = found.newest;
    return {
      platform,
      versionName: v.versionName,
      buildNumber: v.buildNumber,
      notes: v.notes,
      storeUrl: v.storeUrl,
      downloadUrl: file ? downloadUrlOf(file.id) : null,
      size: file?.sizeBytes ?? null,
      sha256: file?.sha256 ?? null,
      force: found.forced,
      publishTime: (v.publishedAt ?? v.uploadedAt).toISOString(),
      h5:
        h5 && h5.state === 'published'
          ? {
              versionName: h5.versionName,
              downloadUrl: downloadUrlOf(h5.file.id),
              size: h5.file.sizeBytes,
              sha256: h5.file.sha256,
            }
          : null,
    };
  }

  /**
   * The package of a published release, streamed from this instance's verified copy (made from
   * the database on its first download); not_found for any other.
   */
  async download(fileId: number): Promise<PackageDownload> {
    const row = await this.repo.findServedPackage(this.db, fileId);
    if (!row) throw notFound();
    const file = await this.cache.pathOf(row);
    return {
      contentType: CONTENT_TYPES[row.kind as AppPackageKind],
      filename: row.fileName,
      size: row.sizeBytes,
      stream: createReadStream(file),
    };
  }
}
