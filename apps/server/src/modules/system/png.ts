import { inflateSync } from 'node:zlib';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 as PNG chunks use it (also what the test fixture signs its chunks with). */
export const crc32 = (bytes: Uint8Array): number => {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** Bit depths each colour type allows (PNG spec, table 11.1), and its samples per pixel. */
const COLOUR_TYPES: Record<number, { depths: number[]; samples: number }> = {
  0: { depths: [1, 2, 4, 8, 16], samples: 1 },
  2: { depths: [8, 16], samples: 3 },
  3: { depths: [1, 2, 4, 8], samples: 1 },
  4: { depths: [8, 16], samples: 2 },
  6: { depths: [8, 16], samples: 4 },
};

/** Adam7 passes: x start, y start, x step, y step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** The rows (width, height) of image data: one for a plain image, up to seven for Adam7. */
const passesOf = (width: number, height: number, interlaced: boolean): [number, number][] =>
  interlaced
    ? ADAM7.map(([x0, y0, dx, dy]): [number, number] => [
        Math.ceil(Math.max(0, width - x0) / dx),
        Math.ceil(Math.max(0, height - y0) / dy),
      ]).filter(([w, h]) => w > 0 && h > 0)
    : [[width, height]];

export interface PngImage {
  width: number;
  height: number;
}

/**
 * Decodes a whole PNG, not only its first bytes: signature, every chunk's length and CRC,
 * a valid IHDR, PLTE where the colour type needs it, unknown critical chunks refused, IDAT
 * inflated (never past the size the header implies, so no zip bomb) to exactly the size the
 * header implies with a valid filter on every row, IEND last with nothing after it.
 * Null when any of it fails. `maxPixels` bounds the work before anything is inflated.
 */
export const decodePng = (bytes: Uint8Array, maxPixels = 4096 * 4096): PngImage | null => {
  if (bytes.length < 8 || !SIGNATURE.every((b, i) => bytes[i] === b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let header: { width: number; height: number; depth: number; colour: number; interlaced: boolean } | undefined;
  let palette = false;
  let idatDone = false;
  const idat: Uint8Array[] = [];
  let ended = false;
  while (at < bytes.length) {
    if (ended || at + 12 > bytes.length) return null;
    const length = view.getUint32(at);
    if (length > bytes.length - at - 12) return null;
    const typeBytes = bytes.subarray(at + 4, at + 8);
    const type = String.fromCharCode(...typeBytes);
    if (!/^[A-Za-z]{4}$/.test(type)) return null;
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (view.getUint32(at + 8 + length) !== crc32(bytes.subarray(at + 4, at + 8 + length))) return null;
    at += 12 + length;

    if (!header) {
      if (type !== 'IHDR' || length !== 13) return null;
      const d = new DataView(data.buffer, data.byteOffset, data.byteLength);
      const width = d.getUint32(0);
      const height = d.getUint32(4);
      const [depth, colour, compression, filter, interlace] = [data[8], data[9], data[10], data[11], data[12]];
      const rules = COLOUR_TYPES[colour ?? -1];
      if (!rules || depth === undefined || !rules.depths.includes(depth)) return null;
      if (width === 0 || height === 0 || width * height > maxPixels) return null;
      if (compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) return null;
      header = { width, height, depth, colour: colour ?? 0, interlaced: interlace === 1 };
      continue;
    }
    switch (type) {
      case 'IHDR':
        return null;
      case 'PLTE':
        if (palette || idat.length > 0 || length === 0 || length % 3 !== 0 || length > 256 * 3) return null;
        palette = true;
        break;
      case 'IDAT':
        if (idatDone) return null;
        idat.push(data);
        break;
      case 'IEND':
        if (length !== 0) return null;
        ended = true;
        break;
      default:
        // An unknown critical chunk (upper-case first letter) means we cannot show the image.
        if ((typeBytes[0] ?? 0) < 0x61) return null;
    }
    if (type !== 'IDAT' && idat.length > 0) idatDone = true;
  }
  if (!header || !ended || idat.length === 0) return null;
  if (header.colour === 3 && !palette) return null;

  const bitsPerPixel = header.depth * (COLOUR_TYPES[header.colour]?.samples ?? 1);
  const passes = passesOf(header.width, header.height, header.interlaced);
  const expected = passes.reduce((sum, [w, h]) => sum + h * (1 + Math.ceil((w * bitsPerPixel) / 8)), 0);
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
  } catch {
    return null;
  }
  if (raw.length !== expected) return null;
  let row = 0;
  for (const [w, h] of passes) {
    const stride = 1 + Math.ceil((w * bitsPerPixel) / 8);
    for (let y = 0; y < h; y++, row += stride) if ((raw[row] ?? 5) > 4) return null;
  }
  return { width: header.width, height: header.height };
};
