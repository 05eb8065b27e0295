import { zipSync } from 'fflate';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkZip, fileSource, type ByteSource } from './zip-check.ts';

const inMemory = (bytes: Uint8Array): ByteSource => {
  const buffer = Buffer.from(bytes);
  return { size: buffer.length, read: async (at, length) => buffer.subarray(at, at + length) };
};

const firmware = () =>
  zipSync({
    'manifest.json': new TextEncoder().encode('{"type":49,"version":"2.1.0"}'),
    // Bytes that do not compress, as a firmware image.
    'image.bin': new Uint8Array(50_000).map((_, i) => (Math.imul(i + 1, 2_654_435_761) >>> 13) & 255),
  });

describe('whether a package is a zip archive', () => {
  it('accepts a real archive, with or without a comment, and counts its entries', async () => {
    expect(await checkZip(inMemory(firmware()))).toMatchObject({ zip: true, entries: 2 });
    const commented = zipSync({ 'a.txt': new Uint8Array([1]) }, { comment: 'build 42 PK\u0005\u0006 in a comment' });
    expect(await checkZip(inMemory(commented))).toMatchObject({ zip: true, entries: 1 });
  });

  it('lists the entries with their names, methods and sizes from the central directory', async () => {
    const stored = zipSync({ 'boot/image.bin': new Uint8Array(300), 'führer.txt': new Uint8Array(5) }, { level: 0 });
    const check = await checkZip(inMemory(stored));
    expect(check.zip && check.files).toEqual([
      { name: 'boot/image.bin', method: 0, flags: expect.any(Number), compressed: 300, uncompressed: 300, localAt: 0 },
      expect.objectContaining({ name: 'führer.txt', method: 0, compressed: 5, uncompressed: 5 }),
    ]);
    const deflated = await checkZip(inMemory(zipSync({ 'zeros.bin': new Uint8Array(100_000) })));
    expect(deflated.zip && deflated.files[0]).toMatchObject({ method: 8, uncompressed: 100_000 });
  });

  it('refuses what only looks like one: a renamed file, a truncated or damaged archive, an empty one', async () => {
    const good = firmware();
    const refused = async (bytes: Uint8Array) => {
      const check = await checkZip(inMemory(bytes));
      expect(check.zip).toBe(false);
      return check.zip ? '' : check.why;
    };
    expect(await refused(new TextEncoder().encode('#!/bin/sh\necho not a zip\n'))).toMatch(/too short|no end/);
    expect(await refused(new Uint8Array(0))).toMatch(/too short/);
    expect(await refused(good.subarray(0, good.length - 10))).toMatch(/no end-of-central-directory/);
    expect(await refused(good.subarray(1000))).toMatch(/outside|damaged|local/);
    const damaged = good.slice();
    const directoryStart = Buffer.from(damaged).readUInt32LE(damaged.length - 6);
    damaged[directoryStart] = 0;
    expect(await refused(damaged)).toMatch(/entry 1 is damaged/);
    const noStart = good.slice();
    noStart[0] = 0x50 ^ 0xff;
    expect(await refused(noStart)).toMatch(/no local file header/);
    expect(await refused(zipSync({}))).toMatch(/empty/);
  });

  describe('from a file', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'vigil-zip-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('reads only what it needs of a file on disk', async () => {
      const file = path.join(dir, 'fw.zip');
      await writeFile(file, firmware());
      const source = await fileSource(file);
      try {
        expect(await checkZip(source)).toMatchObject({ zip: true, entries: 2 });
      } finally {
        await source.close();
      }
    });
  });
});
