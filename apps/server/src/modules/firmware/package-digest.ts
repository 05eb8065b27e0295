/**
 * A firmware package's size and digests, taken as its bytes stream by (from the upload, or from
 * storage), so a package is never held whole in memory. The MD5 is what the uploader declares
 * and the spec checks; the SHA-256 goes to devices with the download address (issue 12).
 */
import { createHash } from 'node:crypto';

export interface PackageDigest {
  size: number;
  /** Lower-case hex. */
  md5: string;
  /** Lower-case hex. */
  sha256: string;
}

export async function digestOf(bytes: AsyncIterable<Uint8Array>): Promise<PackageDigest> {
  const md5 = createHash('md5');
  const sha256 = createHash('sha256');
  let size = 0;
  for await (const chunk of bytes) {
    md5.update(chunk);
    sha256.update(chunk);
    size += chunk.length;
  }
  return { size, md5: md5.digest('hex'), sha256: sha256.digest('hex') };
}

const MD5_HEX = /^[0-9a-fA-F]{32}$/;

/** A declared MD5 as it is compared: 32 hex digits in either case, blanks around ignored; else null. */
export const declaredMd5 = (text: string): string | null => {
  const trimmed = text.trim();
  return MD5_HEX.test(trimmed) ? trimmed.toLowerCase() : null;
};
