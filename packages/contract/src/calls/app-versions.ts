import { z } from 'zod';
import { defineCall, type BinaryBody, type StreamedBody, type UploadedFile } from '../call.ts';
import type { MessageKey } from '../messages/index.ts';
import {
  APP_BUILD_PATTERN,
  APP_NOTES_MAX,
  APP_PACKAGE_KINDS,
  APP_PACKAGE_MAX_BYTES,
  APP_PLATFORMS,
  APP_STORE_URL_MAX,
  APP_VERSION_NAME_MAX,
  APP_VERSION_NAME_PATTERN,
  RELEASE_STATES,
  RELEASE_TYPES,
} from '../app-version-constants.ts';
import { intId, nothing, pageOf, pageQuery } from './common.ts';

/**
 * App and H5 releases (issue 12; docs/app-releases.md): versions of the companion app for iOS
 * and Android, and H5 packages (zips of the pages the app shows), managed by the platform's
 * super and senior administrators. A release is saved unpublished, then published, then taken
 * down; only an unpublished or taken-down one can be deleted. The app asks
 * `/fireWare/getLastVersion` (spec spelling) whether a newer published version exists, and
 * downloads packages from `/version/apph5version/download`.
 */

/** The console routes /appReleaseManage/* are for super and senior administrators only. */
const ADMINS = ['SUPER_ROLE', 'SENIOR_ROLE'] as const;

/** Missing: "… is required"; present but wrong: the field's own message. */
const requiredOr = (key: MessageKey) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? 'validation.required' : key;

export const appVersionNameSchema = z
  .string({ error: requiredOr('appRelease.versionNameFormat') })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(APP_VERSION_NAME_MAX, { error: 'appRelease.versionNameFormat' })
  .regex(APP_VERSION_NAME_PATTERN, { error: 'appRelease.versionNameFormat' })
  .describe('Numbers separated by dots, such as 2.10.3: at most 20 characters');

/** Leading zeros dropped, so 0042 and 42 are one build. */
export const appBuildSchema = z
  .string({ error: requiredOr('appRelease.buildFormat') })
  .trim()
  .min(1, { error: 'validation.required' })
  .regex(APP_BUILD_PATTERN, { error: 'appRelease.buildFormat' })
  .transform((digits) => digits.replace(/^0+(?=\d)/, ''))
  .describe('The build number: 1 to 20 digits, compared as a number');

const platformSchema = z
  .enum(APP_PLATFORMS, { error: requiredOr('appRelease.platformInvalid') })
  .describe('ios or android');

const notesSchema = z
  .string({ error: requiredOr('appRelease.notesTooLong') })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(APP_NOTES_MAX, { error: 'appRelease.notesTooLong' })
  .describe('What the version brings, shown to the user: at most 500 characters');

const storeUrlSchema = z
  .url({ protocol: /^https?$/, error: 'appRelease.storeUrlFormat' })
  .max(APP_STORE_URL_MAX, { error: 'appRelease.storeUrlFormat' })
  .describe('Where the version is installed from (App Store, an app market): an http or https address');

const releaseType = z
  .enum(RELEASE_TYPES, { error: 'appRelease.typeInvalid' })
  .default('app')
  .describe('app: an app version (default); h5: an H5 package');

const time = z.string().describe('ISO 8601');

/** A stored package as a release shows it. */
export const ReleaseFileSchema = z.object({
  fileId: z.number().int(),
  fileName: z.string(),
  size: z.number().int().describe('Bytes'),
  sha256: z.string().describe('SHA-256 of the file, lowercase hex'),
  downloadUrl: z
    .string()
    .describe('Where the file is downloaded once its release is published (a path on this server)'),
});
export type ReleaseFile = z.infer<typeof ReleaseFileSchema>;

/** An upload, before a release uses it. */
export const AppPackageSchema = z.object({
  fileId: z.number().int().describe('What add, addH5 and addAppH5 take as fileId / h5FileId'),
  packageType: z.enum(APP_PACKAGE_KINDS),
  fileName: z.string(),
  size: z.number().int().describe('Bytes'),
  sha256: z.string(),
  uploadTime: time,
});
export type AppPackage = z.infer<typeof AppPackageSchema>;

export const AppVersionSchema = z.object({
  id: z.number().int(),
  platform: z.enum(APP_PLATFORMS),
  versionName: z.string(),
  buildNumber: z.string().describe('Digits, without leading zeros'),
  notes: z.string(),
  storeUrl: z.string().nullable(),
  file: ReleaseFileSchema.nullable().describe('The uploaded Android package; null: installed from storeUrl only'),
  force: z.boolean().describe('Users must upgrade to this version before going on'),
  state: z.enum(RELEASE_STATES),
  uploadTime: time,
  publishTime: time.nullable(),
  offShelfTime: time.nullable(),
  h5: z
    .object({ id: z.number().int(), versionName: z.string(), state: z.enum(RELEASE_STATES) })
    .nullable()
    .describe('The H5 package released with this version (addAppH5); null: none'),
});
export type AppVersion = z.infer<typeof AppVersionSchema>;

export const H5VersionSchema = z.object({
  id: z.number().int(),
  versionName: z.string(),
  file: ReleaseFileSchema,
  state: z.enum(RELEASE_STATES),
  uploadTime: time,
  publishTime: time.nullable(),
  offShelfTime: time.nullable(),
});
export type H5Version = z.infer<typeof H5VersionSchema>;

export const LastVersionSchema = z.object({
  platform: z.enum(APP_PLATFORMS),
  versionName: z.string(),
  buildNumber: z.string(),
  notes: z.string(),
  storeUrl: z.string().nullable(),
  downloadUrl: z.string().nullable().describe('The Android package on this server; null: none was uploaded'),
  size: z.number().int().nullable().describe('Bytes of the package'),
  sha256: z.string().nullable().describe('SHA-256 of the package, to check the download'),
  force: z
    .boolean()
    .describe(
      'The upgrade is forced: this version, or any published version between the caller’s build and it, is marked force',
    ),
  publishTime: time,
  h5: z
    .object({ versionName: z.string(), downloadUrl: z.string(), size: z.number().int(), sha256: z.string() })
    .nullable()
    .describe('The published H5 package released with this version; null: none'),
});
export type LastVersion = z.infer<typeof LastVersionSchema>;

const appVersionFields = {
  platform: platformSchema,
  versionName: appVersionNameSchema,
  buildNumber: appBuildSchema,
  notes: notesSchema,
  storeUrl: storeUrlSchema.optional(),
  fileId: intId.optional().describe('An uploaded Android package (uploaded with packageType apk); Android only'),
  force: z.boolean().default(false).describe('Users must upgrade to this version before going on'),
};

const byId = z.object({ id: intId });

export const appVersionCalls = {
  appVersionList: defineCall({
    method: 'POST',
    path: '/version/apph5version/list',
    auth: ADMINS,
    input: 'json',
    request: z.object({
      ...pageQuery,
      platform: platformSchema.optional(),
      state: z.enum(RELEASE_STATES, { error: 'appRelease.stateInvalid' }).optional(),
    }),
    result: pageOf(AppVersionSchema),
    summary: 'App versions, newest upload first, narrowed by platform and state',
    tag: 'appVersion',
  }),
  appPackageUpload: defineCall({
    method: 'POST',
    path: '/version/apph5version/upload',
    auth: ADMINS,
    input: 'multipart',
    maxUploadBytes: APP_PACKAGE_MAX_BYTES,
    creates: true,
    request: z.object({
      file: z.custom<UploadedFile>().optional(),
      packageType: z
        .enum(APP_PACKAGE_KINDS, { error: requiredOr('appRelease.kindInvalid') })
        .describe('apk: an Android package (.apk); h5: an H5 package (.zip)'),
    }),
    result: AppPackageSchema,
    summary:
      'Upload an Android package (.apk) or an H5 package (.zip), at most 200 MB; refused unless it is a whole zip ' +
      'archive (an APK is one). Answers the fileId a release takes; an upload no release uses is deleted after a day',
    tag: 'appVersion',
  }),
  appVersionAdd: defineCall({
    method: 'POST',
    path: '/version/apph5version/add',
    auth: ADMINS,
    input: 'json',
    creates: true,
    request: z.object(appVersionFields),
    result: AppVersionSchema,
    summary:
      'Save an app version, unpublished: platform, version name, build number (unique per platform), update notes, ' +
      'and a store URL or (Android) an uploaded package, or both',
    tag: 'appVersion',
  }),
  appVersionAddWithH5: defineCall({
    method: 'POST',
    path: '/version/apph5version/addAppH5',
    auth: ADMINS,
    input: 'json',
    creates: true,
    request: z.object({
      ...appVersionFields,
      h5VersionName: appVersionNameSchema,
      h5FileId: intId.describe('An uploaded H5 package (uploaded with packageType h5)'),
    }),
    result: AppVersionSchema,
    summary:
      'Save an app version together with a new H5 package, both unpublished; publishing the version publishes the H5 ' +
      'package with it',
    tag: 'appVersion',
  }),
  appVersionUpdateStatus: defineCall({
    method: 'POST',
    path: '/version/apph5version/updateStatus',
    auth: ADMINS,
    input: 'json',
    request: z.object({
      id: intId,
      type: releaseType,
      state: z
        .enum(['published'], { error: requiredOr('appRelease.statePublishOnly') })
        .describe('published: the only change made here (take a release down with offShelf)'),
    }),
    result: nothing,
    summary:
      'Publish an unpublished app version or H5 package. An app version needs a store URL or a package and a build ' +
      'higher than every published one of its platform; its H5 package is published with it',
    tag: 'appVersion',
  }),
  appVersionReleaseList: defineCall({
    method: 'GET',
    path: '/version/apph5version/releaseList',
    auth: ADMINS,
    input: 'query',
    request: z.object({ ...pageQuery, platform: platformSchema.optional() }),
    result: pageOf(AppVersionSchema),
    summary: 'Published app versions (what the app is offered), highest build first',
    tag: 'appVersion',
  }),
  appVersionOffShelf: defineCall({
    method: 'POST',
    path: '/version/apph5version/offShelf',
    auth: ADMINS,
    input: 'json',
    request: z.object({ id: intId, type: releaseType }),
    result: nothing,
    summary:
      'Take a published app version or H5 package down ("remove from shelf"): the app is no longer offered it and ' +
      'its package is no longer served. It cannot be published again',
    tag: 'appVersion',
  }),
  appVersionDelete: defineCall({
    method: 'DELETE',
    path: '/version/apph5version/delete',
    auth: ADMINS,
    input: 'query',
    request: byId,
    result: nothing,
    summary: 'Delete an unpublished or taken-down app version, with its package when nothing else uses it',
    tag: 'appVersion',
  }),
  h5VersionList: defineCall({
    method: 'POST',
    path: '/version/apph5version/h5List',
    auth: ADMINS,
    input: 'json',
    request: z.object({
      ...pageQuery,
      state: z.enum(RELEASE_STATES, { error: 'appRelease.stateInvalid' }).optional(),
    }),
    result: pageOf(H5VersionSchema),
    summary: 'H5 packages, newest upload first',
    tag: 'h5Version',
  }),
  h5VersionAdd: defineCall({
    method: 'POST',
    path: '/version/apph5version/addH5',
    auth: ADMINS,
    input: 'json',
    creates: true,
    request: z.object({
      versionName: appVersionNameSchema,
      fileId: intId.describe('An uploaded H5 package (uploaded with packageType h5)'),
    }),
    result: H5VersionSchema,
    summary: 'Save an H5 package, unpublished: its version name (unique) and an uploaded zip',
    tag: 'h5Version',
  }),
  h5VersionUpdate: defineCall({
    method: 'POST',
    path: '/version/apph5version/updateH5',
    auth: ADMINS,
    input: 'json',
    request: z.object({
      id: intId,
      versionName: appVersionNameSchema,
      fileId: intId.optional().describe('Another uploaded H5 package; omitted: the file is kept'),
    }),
    result: H5VersionSchema,
    summary: 'Change an unpublished H5 package’s version name or file (a published one cannot be edited)',
    tag: 'h5Version',
  }),
  h5VersionDelete: defineCall({
    method: 'DELETE',
    path: '/version/apph5version/deleteH5',
    auth: ADMINS,
    input: 'query',
    request: byId,
    result: nothing,
    summary: 'Delete an unpublished or taken-down H5 package (app versions released with it keep theirs)',
    tag: 'h5Version',
  }),
  appLastVersion: defineCall({
    method: 'GET',
    path: '/fireWare/getLastVersion',
    auth: 'public',
    input: 'query',
    request: z.object({
      platform: platformSchema,
      build: appBuildSchema.describe('The build number of the app asking'),
    }),
    result: LastVersionSchema.nullable().describe('null: the caller is up to date'),
    summary:
      'The companion app’s version check (also before login): the newest published version of the platform with a ' +
      'higher build than the caller’s, forced when it or any published version between the caller’s build and it ' +
      'is marked force',
    tag: 'appVersion',
  }),
  appPackageDownload: defineCall({
    method: 'GET',
    path: '/version/apph5version/download',
    auth: 'public',
    input: 'query',
    request: z.object({ id: intId.describe('The fileId of a published release’s package') }),
    result: z.custom<BinaryBody | StreamedBody>(),
    produces: 'binary',
    summary:
      'The package of a published app version or H5 package, streamed from the database; not_found for any other',
    tag: 'appVersion',
  }),
};
