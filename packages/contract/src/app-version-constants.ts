/** App and H5 releases: the constants the console shares with the server (docs/app-releases.md). */

/** The companion app's platforms, as the version check names them. */
export const APP_PLATFORMS = ['ios', 'android'] as const;
export type AppPlatform = (typeof APP_PLATFORMS)[number];

/** A release is saved unpublished, then published, then taken down ("removed from the shelf"). */
export const RELEASE_STATES = ['unpublished', 'published', 'offShelf'] as const;
export type ReleaseState = (typeof RELEASE_STATES)[number];

/** What an uploaded file is for: an Android package, or an H5 package (a zip of web pages). */
export const APP_PACKAGE_KINDS = ['apk', 'h5'] as const;
export type AppPackageKind = (typeof APP_PACKAGE_KINDS)[number];
/** The file name ending each kind of package must have. */
export const APP_PACKAGE_EXTENSIONS: Readonly<Record<AppPackageKind, string>> = { apk: '.apk', h5: '.zip' };

/** Which kind of release a status change or take-down is about. */
export const RELEASE_TYPES = ['app', 'h5'] as const;
export type ReleaseType = (typeof RELEASE_TYPES)[number];

/**
 * A version name: numbers separated by dots, starting and ending with a digit, no empty part
 * (2.10.3), at most APP_VERSION_NAME_MAX characters.
 */
export const APP_VERSION_NAME_PATTERN = /^\d+(\.\d+)*$/;
export const APP_VERSION_NAME_MAX = 20;
/** A build number: 1 to 20 digits, compared as a number (0042 is 42). */
export const APP_BUILD_PATTERN = /^\d{1,20}$/;
export const APP_NOTES_MAX = 500;
export const APP_STORE_URL_MAX = 500;
/** The largest package (APK or H5 zip) taken: 200 MB. */
export const APP_PACKAGE_MAX_BYTES = 200 * 1024 * 1024;
