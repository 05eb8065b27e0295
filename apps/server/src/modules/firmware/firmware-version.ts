/**
 * Firmware versions as devices report them: dotted numbers ("1.4.12"), an optional leading
 * "v" or "V". Compared number by number, so 1.10 is newer than 1.9, and a missing part counts
 * as 0, so 2.1 and 2.1.0 are the same version. At most 20 characters of digits and dots, as the
 * spec allows for version names.
 */
import { FIRMWARE_VERSION_MAX, FIRMWARE_VERSION_PATTERN } from '@vigil/contract';

const VERSION = FIRMWARE_VERSION_PATTERN;

export const MAX_VERSION_LENGTH = FIRMWARE_VERSION_MAX;

/** The version's numbers, or null when it is not a dotted version. */
export function parseFirmwareVersion(text: string): number[] | null {
  const trimmed = text.trim();
  if (trimmed.length > MAX_VERSION_LENGTH || !VERSION.test(trimmed)) return null;
  return trimmed.replace(/^[vV]/, '').split('.').map(Number);
}

/** Negative when a is older than b, 0 when they are the same version, positive when newer. */
export function compareFirmwareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}
