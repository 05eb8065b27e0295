import { createInflateRaw } from 'node:zlib';
import { checkZip, fileSource, type ByteSource, type ZipEntry } from './zip-check.ts';

/**
 * How much a package may unpack to: 100 times its own size, and 1 GB at most. Firmware images
 * compress a few times at best; a zip bomb inflates a thousandfold.
 */
export const UNPACK_LIMITS = { ratio: 100, maxBytes: 1024 ** 3 };

export type ContentsCheck =
  | { ok: true; unpacked: number }
  | { ok: false; problem: 'unsafePath'; name: string }
  | { ok: false; problem: 'unpacks'; limit: number };

/** A name that would land outside the folder it is unpacked into: "..", a root, a drive. */
export const unsafeEntryName = (name: string): boolean =>
  name.includes('\0') || /^[/\\]/.test(name) || /^[A-Za-z]:/.test(name) || name.split(/[/\\]/).includes('..');

const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
const ENCRYPTED = 0x1;
const CHUNK = 1024 * 1024;

/**
 * The bytes a deflated entry really inflates to, counted and dropped as they come, stopping
 * once past `budget`: the directory's sizes are the archive's word, and a bomb may lie.
 */
async function inflatedSize(source: ByteSource, entry: ZipEntry, budget: number): Promise<number> {
  const header = await source.read(entry.localAt, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== LOCAL_HEADER) return entry.uncompressed;
  const start = entry.localAt + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const inflate = createInflateRaw();
  let out = 0;
  inflate.on('data', (chunk: Buffer) => {
    out += chunk.length;
    if (out > budget) inflate.destroy();
  });
  // Damaged data ends the count where it breaks: unpacking it fails on the device as here.
  const finished = new Promise<void>((resolve) => {
    inflate.once('end', resolve);
    inflate.once('close', resolve);
    inflate.once('error', () => resolve());
  });
  for (let at = 0; at < entry.compressed && !inflate.destroyed; at += CHUNK) {
    const bytes = await source.read(start + at, Math.min(CHUNK, entry.compressed - at));
    if (!bytes.length) break;
    if (!inflate.write(bytes)) await Promise.race([new Promise((r) => inflate.once('drain', r)), finished]);
  }
  if (!inflate.destroyed) inflate.end();
  await finished;
  return out;
}

/**
 * What a firmware package holds, checked at upload because devices unpack it (issue 28): every
 * entry named inside the folder it is unpacked into, and the whole unpacking to at most
 * `ratio` times the package's size and `maxBytes`. The directory's sizes are checked first
 * (an honest bomb costs nothing), then deflated entries are inflated to see that they do not
 * lie; nothing inflated is kept.
 */
export async function checkPackageContents(
  source: ByteSource,
  files: readonly ZipEntry[],
  limits = UNPACK_LIMITS,
): Promise<ContentsCheck> {
  const unsafe = files.find((f) => unsafeEntryName(f.name));
  if (unsafe) return { ok: false, problem: 'unsafePath', name: unsafe.name };
  const limit = Math.min(limits.ratio * source.size, limits.maxBytes);
  const tooMuch: ContentsCheck = { ok: false, problem: 'unpacks', limit };
  if (files.reduce((sum, f) => sum + f.uncompressed, 0) > limit) return tooMuch;
  let unpacked = 0;
  for (const file of files) {
    unpacked +=
      file.method === DEFLATED && !(file.flags & ENCRYPTED)
        ? await inflatedSize(source, file, limit - unpacked)
        : file.method === STORED
          ? Math.max(file.compressed, file.uncompressed)
          : file.uncompressed;
    if (unpacked > limit) return tooMuch;
  }
  return { ok: true, unpacked };
}

/** An uploaded package on disk: a zip (`zip-check.ts`) whose contents pass, or why not. */
export async function checkPackageFile(path: string): Promise<{ ok: false; problem: 'notZip' } | ContentsCheck> {
  const source = await fileSource(path);
  try {
    const zip = await checkZip(source);
    if (!zip.zip) return { ok: false, problem: 'notZip' };
    return await checkPackageContents(source, zip.files);
  } finally {
    await source.close();
  }
}
