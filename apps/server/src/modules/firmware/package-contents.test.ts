import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { checkPackageContents, unsafeEntryName } from './package-contents.ts';
import { checkZip, type ByteSource } from './zip-check.ts';

const inMemory = (bytes: Uint8Array): ByteSource => {
  const buffer = Buffer.from(bytes);
  return { size: buffer.length, read: async (at, length) => buffer.subarray(at, at + length) };
};
const noise = (size: number) => new Uint8Array(size).map((_, i) => (Math.imul(i + 1, 2_654_435_761) >>> 13) & 255);

/** The contents check of a zip, as the upload runs it after the structure check. */
const contentsOf = async (bytes: Uint8Array, limits?: Parameters<typeof checkPackageContents>[2]) => {
  const source = inMemory(bytes);
  const zip = await checkZip(source);
  if (!zip.zip) throw new Error(zip.why);
  return checkPackageContents(source, zip.files, limits);
};

/** Rewrites every entry's uncompressed size, in its local header and the central directory. */
const lieAboutSizes = (bytes: Uint8Array, size: number): Uint8Array => {
  const out = Buffer.from(bytes);
  for (let i = 0; i + 4 <= out.length; i++) {
    const signature = out.readUInt32LE(i);
    if (signature === 0x04034b50) out.writeUInt32LE(size, i + 22);
    if (signature === 0x02014b50) out.writeUInt32LE(size, i + 24);
  }
  return out;
};

describe('what a firmware package holds (issue 28: devices unpack it)', () => {
  it('takes file names inside the package’s folder, and refuses “..”, absolute and drive paths', () => {
    for (const name of ['firmware.bin', 'images/boot.bin', 'a..b/c..bin', './manifest.json', 'dir/']) {
      expect(unsafeEntryName(name), name).toBe(false);
    }
    for (const name of [
      '../x',
      'a/../../x',
      '..',
      'a/..',
      '/etc/passwd',
      '\\\\server\\x',
      'C:\\x',
      'c:x',
      '..\\x',
      'a\0b',
    ]) {
      expect(unsafeEntryName(name), name).toBe(true);
    }
  });

  it('accepts a firmware package and says how much it unpacks to', async () => {
    const image = noise(50_000);
    const bytes = zipSync({ 'manifest.json': new TextEncoder().encode('{"v":1}'), 'image.bin': image });
    expect(await contentsOf(bytes)).toEqual({ ok: true, unpacked: 50_000 + 7 });
    expect(await contentsOf(zipSync({ 'image.bin': image }, { level: 0 }))).toEqual({ ok: true, unpacked: 50_000 });
  });

  it('refuses an entry whose path leaves the folder, naming it', async () => {
    const bytes = zipSync({ 'ok.bin': noise(100), '../../etc/init.d/evil': noise(100) });
    expect(await contentsOf(bytes)).toEqual({ ok: false, problem: 'unsafePath', name: '../../etc/init.d/evil' });
  });

  it('refuses a package unpacking to more than 100 times its size, from its directory', async () => {
    // 4 MB of zeros deflate to about 4 KB: a thousandfold.
    const bomb = zipSync({ 'firmware.bin': new Uint8Array(4 * 1024 * 1024) });
    expect(await contentsOf(bomb)).toEqual({ ok: false, problem: 'unpacks', limit: 100 * bomb.length });
  });

  it('refuses one that lies about its sizes, by inflating it (nothing kept)', async () => {
    const bomb = zipSync({ 'firmware.bin': new Uint8Array(4 * 1024 * 1024) });
    const liar = lieAboutSizes(bomb, 1000);
    expect(await contentsOf(liar)).toEqual({ ok: false, problem: 'unpacks', limit: 100 * liar.length });
  });

  it('refuses more than the absolute cap, whatever the ratio', async () => {
    const bytes = zipSync({ 'image.bin': noise(50_000) }, { level: 0 });
    expect(await contentsOf(bytes, { ratio: 100, maxBytes: 40_000 })).toEqual({
      ok: false,
      problem: 'unpacks',
      limit: 40_000,
    });
  });
});
