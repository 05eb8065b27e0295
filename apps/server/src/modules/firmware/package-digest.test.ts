import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { declaredMd5, digestOf } from './package-digest.ts';

describe("a package's digests", () => {
  it('are those of all its bytes, however they are cut into chunks', async () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) & 255));
    const chunks = [bytes.subarray(0, 1), bytes.subarray(1, 65_537), bytes.subarray(65_537)];
    const digest = await digestOf(Readable.from(chunks));
    expect(digest).toEqual({
      size: 300_000,
      md5: createHash('md5').update(bytes).digest('hex'),
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    expect(await digestOf(Readable.from([]))).toEqual({
      size: 0,
      md5: 'd41d8cd98f00b204e9800998ecf8427e',
      sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    });
  });

  it('compare with a declared MD5 in either case; anything else is not an MD5', () => {
    expect(declaredMd5(' D41D8CD98F00B204E9800998ECF8427E ')).toBe('d41d8cd98f00b204e9800998ecf8427e');
    for (const bad of [
      '',
      'd41d8cd98f00b204e9800998ecf8427',
      'g41d8cd98f00b204e9800998ecf8427e',
      'd41d8cd9-8f00b204e9800998ecf8427e',
    ])
      expect(declaredMd5(bad), bad).toBeNull();
  });
});
