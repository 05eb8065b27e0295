/**
 * Whether an uploaded firmware package is a real zip archive, from its structure rather than
 * its name (issue 12): the end-of-central-directory record where the format puts it, a central
 * directory inside the file whose every entry header is in place and whose count matches the
 * record, and a local file header at the start. Reads only the tail and the directory, never
 * the whole package, and lists the entries (names, sizes) for the contents check
 * (`package-contents.ts`). Zip64 archives (over 4 GB or 65,535 entries) are refused: a firmware
 * package is far smaller (the upload limit is 64 MB by default).
 */
import { open } from 'node:fs/promises';

/** Random access to the bytes of a package, wherever it is kept. */
export interface ByteSource {
  size: number;
  read(position: number, length: number): Promise<Buffer>;
}

/** One entry as the central directory describes it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated (others are passed through as declared). */
  method: number;
  /** General purpose bit flags (bit 0: encrypted). */
  flags: number;
  compressed: number;
  uncompressed: number;
  /** Where its local file header starts. */
  localAt: number;
}

export type ZipCheck = { zip: true; entries: number; files: ZipEntry[] } | { zip: false; why: string };

const EOCD = 0x06054b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const EOCD_SIZE = 22;
const CENTRAL_HEADER_SIZE = 46;
const MAX_COMMENT = 0xffff;
/** A directory larger than this is not a firmware package's. */
const MAX_DIRECTORY = 4 * 1024 * 1024;

const no = (why: string): ZipCheck => ({ zip: false, why });

export async function checkZip(source: ByteSource): Promise<ZipCheck> {
  if (source.size < EOCD_SIZE) return no('too short for a zip archive');
  const tailLength = Math.min(source.size, EOCD_SIZE + MAX_COMMENT);
  const tailStart = source.size - tailLength;
  const tail = await source.read(tailStart, tailLength);
  // The record is the last one whose comment runs exactly to the end of the file.
  let at = -1;
  for (let i = tail.length - EOCD_SIZE; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD && i + EOCD_SIZE + tail.readUInt16LE(i + 20) === tail.length) {
      at = i;
      break;
    }
  }
  if (at < 0) return no('no end-of-central-directory record');
  const entries = tail.readUInt16LE(at + 10);
  const directorySize = tail.readUInt32LE(at + 12);
  const directoryStart = tail.readUInt32LE(at + 16);
  if (entries === 0xffff || directorySize === 0xffffffff || directoryStart === 0xffffffff) return no('a zip64 archive');
  if (tail.readUInt16LE(at + 4) !== 0 || tail.readUInt16LE(at + 6) !== 0 || tail.readUInt16LE(at + 8) !== entries)
    return no('a multi-part archive');
  if (entries === 0) return no('an empty archive');
  const recordAt = tailStart + at;
  if (directoryStart + directorySize > recordAt) return no('the central directory lies outside the file');
  if (directorySize > MAX_DIRECTORY) return no('the central directory is too large');

  const directory = await source.read(directoryStart, directorySize);
  const files: ZipEntry[] = [];
  let offset = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + CENTRAL_HEADER_SIZE > directory.length || directory.readUInt32LE(offset) !== CENTRAL_HEADER)
      return no(`central directory entry ${n + 1} is damaged`);
    const localAt = directory.readUInt32LE(offset + 42);
    if (localAt >= directoryStart) return no(`entry ${n + 1} points outside the archive`);
    const flags = directory.readUInt16LE(offset + 8);
    const nameLength = directory.readUInt16LE(offset + 28);
    const nameBytes = directory.subarray(offset + CENTRAL_HEADER_SIZE, offset + CENTRAL_HEADER_SIZE + nameLength);
    files.push({
      // Bit 11: the name is UTF-8; otherwise code page 437, whose ASCII part ("/", "\\", ".") is the same.
      name: nameBytes.toString(flags & 0x800 ? 'utf8' : 'latin1'),
      method: directory.readUInt16LE(offset + 10),
      flags,
      compressed: directory.readUInt32LE(offset + 20),
      uncompressed: directory.readUInt32LE(offset + 24),
      localAt,
    });
    offset +=
      CENTRAL_HEADER_SIZE + nameLength + directory.readUInt16LE(offset + 30) + directory.readUInt16LE(offset + 32);
  }
  if (offset !== directory.length) return no('the central directory does not match its record');
  const first = await source.read(0, 4);
  if (first.length < 4 || first.readUInt32LE(0) !== LOCAL_HEADER) return no('no local file header at the start');
  return { zip: true, entries, files };
}

/** A file on disk as a byte source; close it when done. */
export async function fileSource(path: string): Promise<ByteSource & { close(): Promise<void> }> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  return {
    size,
    read: async (position, length) => {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      return buffer.subarray(0, bytesRead);
    },
    close: () => handle.close(),
  };
}

/** Checks a zip on disk (an upload's temporary file), closing it afterwards. */
export async function checkZipFile(path: string): Promise<ZipCheck> {
  const source = await fileSource(path);
  try {
    return await checkZip(source);
  } finally {
    await source.close();
  }
}
