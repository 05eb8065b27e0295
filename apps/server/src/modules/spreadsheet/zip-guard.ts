import { inflateRawSync } from 'node:zlib';

/** Limits for the zip container of an .xlsx file: what a real import ever needs, far below what hurts a server. */
export interface ZipLimits {
  maxEntries: number;
  maxTotalBytes: number;
  maxRatio: number;
}

export const XLSX_ZIP_LIMITS: ZipLimits = { maxEntries: 2_000, maxTotalBytes: 200 * 1024 * 1024, maxRatio: 200 };

export type ZipVerdict = { ok: true; entries: number; totalBytes: number } | { ok: false; reason: string };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * Checks a zip before a spreadsheet parser inflates it: entry count, declared sizes and
 * compression ratio, then inflates every entry with a hard output cap of its declared size,
 * so a bomb that lies about its sizes is stopped too. Zip64 and encrypted entries are refused
 * (no spreadsheet export produces them for our sizes).
 */
export const inspectZip = (bytes: Uint8Array, limits: ZipLimits = XLSX_ZIP_LIMITS): ZipVerdict => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return { ok: false, reason: 'no end of central directory' };
  const count = view.getUint16(eocd + 10, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || cdOffset === 0xffffffff) return { ok: false, reason: 'zip64' };
  if (count > limits.maxEntries) return { ok: false, reason: `${count} entries` };
  let at = cdOffset;
  let total = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL)
      return { ok: false, reason: 'bad central header' };
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const compressed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const localOffset = view.getUint32(at + 42, true);
    if (flags & 0x1) return { ok: false, reason: 'encrypted entry' };
    if (compressed === 0xffffffff || size === 0xffffffff) return { ok: false, reason: 'zip64' };
    total += size;
    if (total > limits.maxTotalBytes) return { ok: false, reason: 'too large when inflated' };
    if (compressed > 0 && size / compressed > limits.maxRatio) return { ok: false, reason: 'compression ratio' };
    const inflated = inflateEntry(bytes, view, localOffset, method, compressed, size);
    if (!inflated) return { ok: false, reason: 'entry does not match its declared size' };
    at += 46 + nameLength + extraLength + commentLength;
  }
  return { ok: true, entries: count, totalBytes: total };
};

const inflateEntry = (
  bytes: Uint8Array,
  view: DataView,
  offset: number,
  method: number,
  compressed: number,
  size: number,
): boolean => {
  if (offset + 30 > bytes.length || view.getUint32(offset, true) !== LOCAL) return false;
  const start = offset + 30 + view.getUint16(offset + 26, true) + view.getUint16(offset + 28, true);
  if (start + compressed > bytes.length) return false;
  const data = bytes.subarray(start, start + compressed);
  if (method === 0) return compressed === size;
  if (method !== 8) return false;
  try {
    // One byte of headroom: more output than declared means the header lied.
    return inflateRawSync(data, { maxOutputLength: size + 1 }).length === size;
  } catch {
    return false;
  }
};

/**
 * The inflated entries of an inspected zip whose names `wanted` accepts (call `inspectZip` first:
 * it has already bounded every entry's inflated size).
 */
export const inflatedEntries = (bytes: Uint8Array, wanted: (name: string) => boolean): Map<string, Buffer> => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Map<string, Buffer>();
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return out;
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  for (let n = 0; n < count && at + 46 <= bytes.length && view.getUint32(at, true) === CENTRAL; n++) {
    const method = view.getUint16(at + 10, true);
    const compressed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const localOffset = view.getUint32(at + 42, true);
    const name = Buffer.from(bytes.subarray(at + 46, at + 46 + nameLength)).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (!wanted(name) || localOffset + 30 > bytes.length || view.getUint32(localOffset, true) !== LOCAL) continue;
    const start = localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
    const data = bytes.subarray(start, start + compressed);
    try {
      out.set(name, method === 0 ? Buffer.from(data) : inflateRawSync(data, { maxOutputLength: size + 1 }));
    } catch {
      // A damaged entry: inspectZip refuses such files; nothing to count here.
    }
  }
  return out;
};
