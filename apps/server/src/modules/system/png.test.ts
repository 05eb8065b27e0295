import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pngSize } from './png.ts';
import { crc32, encodePng, JPEG_BYTES, paddedPng, pngChunk, PNG_SIGNATURE, readChunks } from './png-fixture.ts';

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

describe('pngSize', () => {
  it('reads width and height from IHDR', () => {
    expect(pngSize(encodePng(200, 200))).toEqual({ width: 200, height: 200 });
    expect(pngSize(encodePng(201, 200))).toEqual({ width: 201, height: 200 });
    expect(pngSize(encodePng(1, 7))).toEqual({ width: 1, height: 7 });
  });

  it('reads large dimensions as unsigned 32-bit values', () => {
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(0x80000001, 0);
    ihdr.writeUInt32BE(65536, 4);
    const bytes = Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr)]);
    expect(pngSize(bytes)).toEqual({ width: 0x80000001, height: 65536 });
  });

  it('works on a view into a larger buffer (non-zero byteOffset)', () => {
    const png = encodePng(200, 120);
    const backing = new Uint8Array(png.length + 37);
    backing.set(png, 37);
    expect(pngSize(backing.subarray(37))).toEqual({ width: 200, height: 120 });
  });

  it('refuses bytes that are not a PNG', () => {
    expect(pngSize(new Uint8Array())).toBeNull();
    expect(pngSize(JPEG_BYTES)).toBeNull();
    expect(pngSize(Buffer.from('just some text that is long enough to pass the length check'))).toBeNull();
    // Signature only, too short for an IHDR.
    expect(pngSize(PNG_SIGNATURE)).toBeNull();
    expect(pngSize(encodePng(200, 200).subarray(0, 23))).toBeNull();
  });

  it('refuses a PNG whose first chunk is not IHDR', () => {
    const bytes = Buffer.concat([PNG_SIGNATURE, pngChunk('tEXt', Buffer.alloc(13, 0x41)), pngChunk('IEND')]);
    expect(pngSize(bytes)).toBeNull();
  });

  it('refuses a corrupted signature', () => {
    const png = encodePng(200, 200);
    png[1] = 0x51;
    expect(pngSize(png)).toBeNull();
  });
});
