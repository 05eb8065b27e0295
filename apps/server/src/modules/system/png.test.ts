import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, decodePng } from './png.ts';
import { encodePng, JPEG_BYTES, paddedPng, pngChunk, PNG_SIGNATURE, readChunks } from './png-fixture.ts';

describe('png fixture', () => {
  it('computes the standard CRC-32', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.from('IEND'))).toBe(0xae426082);
  });

  it('encodes a well-formed PNG whose pixels inflate back', () => {
    const png = encodePng(3, 2, { pixel: (x, y) => [x, y, 7, 255] });
    const chunks = readChunks(png);
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    const raw = inflateSync(chunks[1]?.data ?? Buffer.alloc(0));
    expect(raw.length).toBe(2 * (3 * 4 + 1));
    expect([...raw.subarray(1 + 4 * 2, 1 + 4 * 3)]).toEqual([2, 0, 7, 255]);
    expect([...raw.subarray(13 + 1 + 4, 13 + 1 + 8)]).toEqual([1, 1, 7, 255]);
  });

  it('pads to an exact size with an ancillary chunk', () => {
    const png = paddedPng(200, 200, 100 * 1024);
    expect(png.length).toBe(100 * 1024);
    expect(readChunks(png).map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'vgPd', 'IEND']);
  });
});

/** Replaces one chunk's data (CRC recomputed), so only the property under test is wrong. */
const withChunk = (png: Buffer, type: string, data: Buffer): Buffer =>
  Buffer.concat([
    PNG_SIGNATURE,
    ...readChunks(png).map((chunk) => pngChunk(chunk.type, chunk.type === type ? data : chunk.data)),
  ]);

const chunksOf = (...chunks: Buffer[]) => Buffer.concat([PNG_SIGNATURE, ...chunks]);

describe('decodePng', () => {
  it('computes the CRC-32 that PNG chunks carry (known vector: IEND)', () => {
    expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082);
  });

  it('reads width and height of a whole, valid image', () => {
    expect(decodePng(encodePng(200, 200))).toEqual({ width: 200, height: 200 });
    expect(decodePng(encodePng(201, 200))).toEqual({ width: 201, height: 200 });
    expect(decodePng(encodePng(1, 7))).toEqual({ width: 1, height: 7 });
    // Ancillary chunks (lower-case first letter) are allowed.
    expect(decodePng(paddedPng(200, 200, 50_000))).toEqual({ width: 200, height: 200 });
  });

  it('works on a view into a larger buffer (non-zero byteOffset)', () => {
    const png = encodePng(200, 120);
    const backing = new Uint8Array(png.length + 37);
    backing.set(png, 37);
    expect(decodePng(backing.subarray(37))).toEqual({ width: 200, height: 120 });
  });

  it('decodes a paletted and an interlaced image', () => {
    const raw = Buffer.alloc(4 * (1 + 4)); // 4×4, 8-bit indices, filter None
    const ihdr = Buffer.from([0, 0, 0, 4, 0, 0, 0, 4, 8, 3, 0, 0, 0]);
    const paletted = chunksOf(
      pngChunk('IHDR', ihdr),
      pngChunk('PLTE', Buffer.from([0, 0, 0, 255, 255, 255])),
      pngChunk('IDAT', deflateSync(raw)),
      pngChunk('IEND'),
    );
    expect(decodePng(paletted)).toEqual({ width: 4, height: 4 });
    // Without its palette the same image cannot be shown.
    expect(
      decodePng(chunksOf(pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND'))),
    ).toBeNull();
    // Adam7 on 3×3 RGBA: passes 1 (1×1), 2 (1×1)…: rows of 1 + 4·w bytes each.
    const interlacedIhdr = Buffer.from([0, 0, 0, 3, 0, 0, 0, 3, 8, 6, 0, 0, 1]);
    const passRows = [
      [1, 1],
      [1, 1],
      [2, 1],
      [1, 2],
      [3, 1],
    ];
    const interlacedRaw = Buffer.alloc(passRows.reduce((sum, [w = 0, h = 0]) => sum + h * (1 + 4 * w), 0));
    const interlaced = chunksOf(
      pngChunk('IHDR', interlacedIhdr),
      pngChunk('IDAT', deflateSync(interlacedRaw)),
      pngChunk('IEND'),
    );
    expect(decodePng(interlaced)).toEqual({ width: 3, height: 3 });
  });

  it('refuses bytes that only start like a PNG (the old first-bytes check let them through)', () => {
    const png = encodePng(200, 200);
    const random = Buffer.concat([
      png.subarray(0, 33),
      Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 97) & 255)),
    ]);
    expect(decodePng(random)).toBeNull();
    // Header only, or cut anywhere.
    expect(decodePng(png.subarray(0, 33))).toBeNull();
    expect(decodePng(png.subarray(0, png.length - 1))).toBeNull();
    expect(decodePng(png.subarray(0, Math.floor(png.length / 2)))).toBeNull();
    // Bytes after IEND.
    expect(decodePng(Buffer.concat([png, Buffer.from('trailing payload')]))).toBeNull();
  });

  it('refuses a chunk whose CRC is wrong', () => {
    const png = encodePng(200, 200);
    const idatDataStart = 8 + 25 + 8;
    png[idatDataStart + 3] = (png[idatDataStart + 3] ?? 0) ^ 0xff;
    expect(decodePng(png)).toBeNull();
  });

  it('refuses image data that does not inflate to the size the header gives', () => {
    const png = encodePng(20, 20);
    const rowBytes = 1 + 20 * 4;
    expect(decodePng(withChunk(png, 'IDAT', deflateSync(Buffer.alloc(rowBytes * 19))))).toBeNull();
    expect(decodePng(withChunk(png, 'IDAT', deflateSync(Buffer.alloc(rowBytes * 21))))).toBeNull();
    expect(decodePng(withChunk(png, 'IDAT', Buffer.from('not zlib data at all')))).toBeNull();
    // A bomb: inflation stops right past the expected size.
    expect(decodePng(withChunk(png, 'IDAT', deflateSync(Buffer.alloc(64 * 1024 * 1024))))).toBeNull();
    // A row with filter type 5 (only 0–4 exist).
    const raw = Buffer.alloc(rowBytes * 20);
    raw[rowBytes * 7] = 5;
    expect(decodePng(withChunk(png, 'IDAT', deflateSync(raw)))).toBeNull();
  });

  it('refuses a bad header: not first, wrong size, bad depth, colour, compression or interlace, zero or huge size', () => {
    const png = encodePng(4, 4);
    const ihdr = readChunks(png)[0]?.data ?? Buffer.alloc(13);
    const variant = (at: number, value: number) => {
      const copy = Buffer.from(ihdr);
      copy[at] = value;
      return withChunk(png, 'IHDR', copy);
    };
    expect(decodePng(variant(8, 7))).toBeNull(); // depth 7
    expect(decodePng(variant(9, 5))).toBeNull(); // colour type 5
    expect(decodePng(variant(10, 1))).toBeNull(); // compression
    expect(decodePng(variant(11, 1))).toBeNull(); // filter method
    expect(decodePng(variant(12, 2))).toBeNull(); // interlace
    expect(decodePng(variant(3, 0))).toBeNull(); // width 0
    const huge = Buffer.from(ihdr);
    huge.writeUInt32BE(0x80000001, 0);
    huge.writeUInt32BE(65536, 4);
    expect(decodePng(withChunk(png, 'IHDR', huge))).toBeNull();
    expect(decodePng(withChunk(png, 'IHDR', Buffer.concat([ihdr, Buffer.from([0])])))).toBeNull();
    expect(
      decodePng(
        chunksOf(pngChunk('tEXt', Buffer.alloc(13, 0x41)), ...readChunks(png).map((c) => pngChunk(c.type, c.data))),
      ),
    ).toBeNull();
  });

  it('refuses unknown critical chunks, a second IHDR, split IDAT runs and a missing IEND', () => {
    const png = encodePng(8, 8);
    const [ihdr, idat] = readChunks(png);
    if (!ihdr || !idat) throw new Error('fixture');
    const IHDR = pngChunk('IHDR', ihdr.data);
    const half = Math.floor(idat.data.length / 2);
    const [first, second] = [pngChunk('IDAT', idat.data.subarray(0, half)), pngChunk('IDAT', idat.data.subarray(half))];
    // Split over two consecutive IDAT chunks is fine…
    expect(decodePng(chunksOf(IHDR, first, second, pngChunk('IEND')))).toEqual({ width: 8, height: 8 });
    // …with another chunk between them it is not.
    expect(decodePng(chunksOf(IHDR, first, pngChunk('tEXt', Buffer.from('a')), second, pngChunk('IEND')))).toBeNull();
    expect(
      decodePng(chunksOf(IHDR, pngChunk('IDAT', idat.data), pngChunk('XXXX', Buffer.from('x')), pngChunk('IEND'))),
    ).toBeNull();
    expect(decodePng(chunksOf(IHDR, IHDR, pngChunk('IDAT', idat.data), pngChunk('IEND')))).toBeNull();
    expect(decodePng(chunksOf(IHDR, pngChunk('IDAT', idat.data)))).toBeNull();
    expect(decodePng(chunksOf(IHDR, pngChunk('IEND')))).toBeNull();
  });

  it('refuses bytes that are not a PNG', () => {
    expect(decodePng(new Uint8Array())).toBeNull();
    expect(decodePng(JPEG_BYTES)).toBeNull();
    expect(decodePng(Buffer.from('just some text that is long enough to pass the length check'))).toBeNull();
    expect(decodePng(PNG_SIGNATURE)).toBeNull();
    const png = encodePng(200, 200);
    png[1] = 0x51;
    expect(decodePng(png)).toBeNull();
  });
});
