import path from 'node:path';
import type { Clock } from '../../clock.ts';
import type { BackgroundPacer } from '../../core/background-pacer.ts';
import { appPackageChunks } from '../../db/schema.ts';
import { PackageCache } from '../firmware/package-cache.ts';
import { PackageStore } from '../firmware/package-store.ts';
import type { Db } from '../../db/database.ts';
import type { Module } from '../../module.ts';
import { appReleaseHandlers } from './app-release.routes.ts';
import { AppReleaseService } from './app-release.service.ts';

export interface AppReleasesDeps {
  db: Db;
  clock: Clock;
  /** Where each instance keeps its verified copies of the packages phones download. */
  dataDir: string;
  /** The process's one pacer of background database work (decision 0028). */
  pacer: BackgroundPacer;
}

/** App and H5 releases of the companion app, and the app's version check (docs/app-releases.md). */
export const buildAppReleasesModule = (
  deps: AppReleasesDeps,
): Module<{ releases: AppReleaseService }, ReturnType<typeof appReleaseHandlers>> => {
  const store = new PackageStore(appPackageChunks);
  const cache = new PackageCache(deps.db, store, path.join(deps.dataDir, 'app-packages'), deps.pacer);
  const releases = new AppReleaseService(deps.db, deps.clock, store, cache);
  return { services: { releases }, handlers: appReleaseHandlers(releases), parts: [] };
};
