import { deflateSync } from 'node:zlib';
import { crc32 } from './png.ts';

/** Test helper: a tiny PNG encoder (IHDR, IDAT, IEND) so upload tests send real images. */

export { crc32 };

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One chunk: length, type, data, CRC over type and data. */
export const pngChunk = (type: string, data: Uint8Array = new Uint8Array()): Buffer => {
  if (type.length !== 4) throw new Error(`chunk type must be 4 characters: ${type}`);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
};

export interface PngOptions {
  /** RGBA of one pixel; defaults to a 16-px checkerboard (compresses well). */
  pixel?: (x: number, y: number) => [number, number, number, number];
  /** Extra chunks placed between IDAT and IEND. */
  extraChunks?: Buffer[];
}

/** A truecolour-with-alpha, 8-bit, non-interlaced PNG. */
export const encodePng = (width: number, height: number, options: PngOptions = {}): Buffer => {
  const pixel = options.pixel ?? ((x, y) => (((x >> 4) + (y >> 4)) % 2 ? [32, 96, 200, 255] : [250, 250, 250, 255]));
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter
  ihdr[12] = 0; // interlace
  const stride = width * 4 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    raw[y * stride] = 0; // filter type None
    for (let x = 0; x < width; x++) {
      const [r, g, b, a] = pixel(x, y);
      const at = y * stride + 1 + x * 4;
      raw[at] = r;
      raw[at + 1] = g;
      raw[at + 2] = b;
      raw[at + 3] = a;
    }
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    ...(options.extraChunks ?? []),
    pngChunk('IEND'),
  ]);
};

/** A valid PNG of exactly `totalBytes`, padded with a private ancillary chunk ("vgPd") before IEND. */
export const paddedPng = (width: number, height: number, totalBytes: number): Buffer => {
  const base = encodePng(width, height).length;
  const padding = totalBytes - base - 12;
  if (padding < 0) throw new Error(`a ${width}x${height} PNG is already ${base} bytes`);
  const png = encodePng(width, height, { extraChunks: [pngChunk('vgPd', Buffer.alloc(padding, 0x2a))] });
  if (png.length !== totalBytes) throw new Error(`padded PNG is ${png.length} bytes, wanted ${totalBytes}`);
  return png;
};

/** Reads the chunks back, checking every CRC: lets tests prove the fixture itself is well-formed. */
export const readChunks = (png: Uint8Array): { type: string; data: Buffer }[] => {
  const buf = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (!buf.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('no PNG signature');
  const out: { type: string; data: Buffer }[] = [];
  let at = 8;
  while (at < buf.length) {
    const length = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + length);
    const crc = buf.readUInt32BE(at + 8 + length);
    if (crc !== crc32(buf.subarray(at + 4, at + 8 + length))) throw new Error(`bad CRC in ${type}`);
    out.push({ type, data });
    at += 12 + length;
  }
  return out;
};

/** The start of a JFIF JPEG: SOI, APP0 "JFIF". */
export const JPEG_BYTES = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
  0x00, 0xff, 0xdb, 0x00, 0x43, 0x00, 0x08, 0x06, 0x06, 0x07, 0x06, 0x05, 0x08, 0x07, 0x07, 0x07, 0x09, 0x09, 0xff,
  0xd9,
]);
