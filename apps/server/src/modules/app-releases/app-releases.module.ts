import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Module } from '../../module.ts';
import { appReleaseHandlers } from './app-release.routes.ts';
import { AppReleaseService } from './app-release.service.ts';

export interface AppReleasesDeps {
  db: Db;
  clock: Clock;
}

/** App and H5 releases of the companion app, and the app's version check (docs/app-releases.md). */
export const buildAppReleasesModule = (
  deps: AppReleasesDeps,
): Module<{ releases: AppReleaseService }, ReturnType<typeof appReleaseHandlers>> => {
  const releases = new AppReleaseService(deps.db, deps.clock);
  return { services: { releases }, handlers: appReleaseHandlers(releases), parts: [] };
};
