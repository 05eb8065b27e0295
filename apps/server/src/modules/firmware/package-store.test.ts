import { zipSync } from 'fflate';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { firmwarePackages } from '../../db/schema.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { digestOf } from './package-digest.ts';
import { CHUNK_BYTES, PackageStore, PackageTooLarge } from './package-store.ts';
import { checkZip } from './zip-check.ts';

/** A zip a little over two and a half chunks, of bytes that do not compress. */
const archive = zipSync(
  {
    'manifest.json': new TextEncoder().encode('{"version":"3.0.1"}'),
    'image.bin': new Uint8Array(Math.round(2.6 * CHUNK_BYTES)).map(
      (_, i) => (Math.imul(i + 1, 2_654_435_761) >>> 13) & 255,
    ),
  },
  { level: 0 },
);
const collect = async (parts: AsyncIterable<Buffer>) => {
  const all: Buffer[] = [];
  for await (const part of parts) all.push(part);
  return Buffer.concat(all);
};

/** As an upload arrives: pieces of any size. */
const uploaded = (bytes: Uint8Array) =>
  Readable.from(
    Array.from({ length: Math.ceil(bytes.length / 300_001) }, (_, i) => bytes.subarray(i * 300_001, (i + 1) * 300_001)),
  );

describeEachDb('firmware package bytes in the database (%s)', (target) => {
  let app: TestApp;
  const store = new PackageStore();
  const newPackage = async () => {
    const [row] = await app.database.db
      .insert(firmwarePackages)
      .values({
        deviceType: 49,
        version: '3.0.1',
        fileName: 'fw.zip',
        sizeBytes: 0,
        md5: '',
        sha256: '',
        uploadedAt: new Date(),
      })
      .returning({ id: firmwarePackages.id });
    if (!row) throw new Error('no package row');
    return row.id;
  };

  beforeAll(async () => {
    app = await createTestApp(target);
  });
  afterAll(() => app?.close());

  it('keeps an upload in 1 MB chunks and gives back every byte, whole, by range and as a zip', async () => {
    const db = app.database.db;
    const id = await newPackage();
    expect(await store.save(db, id, uploaded(archive), 64 * CHUNK_BYTES)).toBe(archive.length);
    expect(await store.chunkCount(db, id)).toBe(Math.ceil(archive.length / CHUNK_BYTES));

    const whole = await digestOf(store.stream(db, id, 0, archive.length));
    expect(whole.size).toBe(archive.length);
    expect(whole.sha256).toBe(createHash('sha256').update(archive).digest('hex'));
    // A resumed download: a range across a chunk boundary, and the last bytes.
    const range = await collect(store.stream(db, id, CHUNK_BYTES - 5, CHUNK_BYTES + 7));
    expect(range).toEqual(Buffer.from(archive.subarray(CHUNK_BYTES - 5, CHUNK_BYTES + 7)));
    const tail = await collect(store.stream(db, id, archive.length - 3, archive.length));
    expect(tail).toEqual(Buffer.from(archive.subarray(archive.length - 3)));
    expect(await checkZip(store.source(db, id, archive.length))).toMatchObject({ zip: true, entries: 2 });
  });

  it('refuses an upload past the limit, and its transaction leaves nothing behind', async () => {
    const db = app.database.db;
    let id = 0;
    await expect(
      db.transaction(async (tx) => {
        const [row] = await tx
          .insert(firmwarePackages)
          .values({
            deviceType: 49,
            version: '9.9',
            fileName: 'big.zip',
            sizeBytes: 0,
            md5: '',
            sha256: '',
            uploadedAt: new Date(),
          })
          .returning({ id: firmwarePackages.id });
        id = row?.id ?? 0;
        await store.save(tx, id, uploaded(archive), 2 * CHUNK_BYTES);
      }),
    ).rejects.toBeInstanceOf(PackageTooLarge);
    expect(id).toBeGreaterThan(0);
    expect(await store.chunkCount(db, id)).toBe(0);
  });
});
