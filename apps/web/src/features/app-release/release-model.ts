import {
  APP_BUILD_PATTERN,
  APP_PACKAGE_EXTENSIONS,
  APP_PACKAGE_MAX_BYTES,
  APP_VERSION_NAME_MAX,
  APP_VERSION_NAME_PATTERN,
  type AppPackageKind,
  type ReleaseState,
} from '@vigil/contract/browser';

/** Tag colour of each release state. */
export const STATE_COLOR: Readonly<Record<ReleaseState, string>> = {
  unpublished: 'default',
  published: 'green',
  offShelf: 'orange',
};

/** "1.5 MB", "320 KB": a file size as a user reads it. */
export const sizeText = (bytes: number): string =>
  bytes >= 1024 * 1024
    ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

export const MAX_PACKAGE_TEXT = sizeText(APP_PACKAGE_MAX_BYTES);

/** The first check the server makes that a picked file fails (its name's ending, its size), as a text key. */
export const packageProblem = (
  file: { name: string; size: number },
  kind: AppPackageKind,
): 'upload.wrongType' | 'upload.tooLarge' | 'upload.empty' | null => {
  if (!file.name.toLowerCase().endsWith(APP_PACKAGE_EXTENSIONS[kind])) return 'upload.wrongType';
  if (file.size === 0) return 'upload.empty';
  if (file.size > APP_PACKAGE_MAX_BYTES) return 'upload.tooLarge';
  return null;
};

/** The server's version name rule: numbers separated by dots, at most 20 characters. */
export const isVersionName = (value: string): boolean =>
  value.length <= APP_VERSION_NAME_MAX && APP_VERSION_NAME_PATTERN.test(value);

export const isBuildNumber = (value: string): boolean => APP_BUILD_PATTERN.test(value);

/** The server's store URL rule: an http or https address. */
export const isStoreUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

/** A text field's value, trimmed; undefined when blank. */
export const blankToUndefined = (value: string | undefined): string | undefined =>
  value?.trim() ? value.trim() : undefined;
