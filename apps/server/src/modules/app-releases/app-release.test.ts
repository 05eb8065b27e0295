import {
  appVersionCalls,
  LANGUAGES,
  translate,
  type AppPackageKind,
  type CallRequest,
  type MessageKey,
  type MessageParams,
} from '@vigil/contract';
import { count, eq } from 'drizzle-orm';
import { zipSync } from 'fflate';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appPackageChunks, appPackages } from '../../db/schema.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { makeAccount, makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { CHUNK_BYTES } from '../firmware/package-store.ts';
import { UNUSED_UPLOAD_MS } from './app-release.service.ts';

const {
  appVersionList,
  appPackageUpload,
  appVersionAdd,
  appVersionAddWithH5,
  appVersionUpdateStatus,
  appVersionReleaseList,
  appVersionOffShelf,
  appVersionDelete,
  h5VersionList,
  h5VersionAdd,
  h5VersionUpdate,
  h5VersionDelete,
  appLastVersion,
  appPackageDownload,
} = appVersionCalls;

const text = (s: string) => new TextEncoder().encode(s);
/** Bytes that do not compress, so a stored zip spans several 1 MB chunks. */
const noise = (length: number) => new Uint8Array(length).map((_, i) => (Math.imul(i + 7, 2_654_435_761) >>> 11) & 255);
const APK = zipSync({ 'AndroidManifest.xml': text('<manifest/>'), 'classes.dex': noise(2000) });
const H5_ZIP = zipSync({ 'index.html': text('<html></html>'), 'app.js': text('console.log(1)') });
/** A zip of about 2.6 chunks. */
const BIG_APK = zipSync(
  { 'AndroidManifest.xml': text('<m/>'), 'lib.so': noise(Math.round(2.6 * CHUNK_BYTES)) },
  { level: 0 },
);

const form = (bytes: Uint8Array | null, filename: string, packageType?: string) => {
  const f = new FormData();
  if (packageType !== undefined) f.append('packageType', packageType);
  if (bytes) f.append('file', new Blob([new Uint8Array(bytes)]), filename);
  return f;
};
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

type AddInput = CallRequest<typeof appVersionAdd>;

describeEachDb('app and H5 releases (%s)', (target) => {
  let app: TestApp;
  let admin: string;
  let senior: string;
  let seniorLogin: { userName: string; password: string };
  let builds = 1000;
  /** A fresh build number, higher than every earlier one. */
  const nextBuild = () => String((builds += 10));

  const upload = async (bytes: Uint8Array, kind: AppPackageKind, token = senior) => {
    const res = await app.call(appPackageUpload, form(bytes, kind === 'apk' ? 'app.apk' : 'h5.zip', kind), { token });
    if (res.status !== 200 || !res.data) throw new Error(`upload: ${res.status} ${res.msg}`);
    return res.data;
  };
  const add = async (input: Partial<AddInput> = {}) => {
    const res = await app.call(
      appVersionAdd,
      {
        platform: 'android',
        versionName: '1.0.0',
        buildNumber: nextBuild(),
        notes: 'Fixes and improvements',
        storeUrl: 'https://market.example.com/vigil',
        ...input,
      },
      { token: senior },
    );
    if (res.status !== 200 || !res.data) throw new Error(`add: ${res.status} ${res.msg}`);
    return res.data;
  };
  const publish = (id: number, type: 'app' | 'h5' = 'app') =>
    app.call(appVersionUpdateStatus, { id, type, state: 'published' }, { token: senior });
  const takeDown = (id: number, type: 'app' | 'h5' = 'app') =>
    app.call(appVersionOffShelf, { id, type }, { token: senior });
  const check = (platform: 'ios' | 'android', build: string) => app.call(appLastVersion, { platform, build });
  const refusal = (res: { status: number; msgKey?: string | undefined; field?: string | undefined }) => ({
    status: res.status,
    msgKey: res.msgKey,
    field: res.field,
  });

  beforeAll(async () => {
    app = await createTestApp(target);
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    seniorLogin = await makeAccount(app, admin, 'releaseSenior', 'SENIOR_ROLE');
    senior = await app.login(seniorLogin.userName, seniorLogin.password);
  });
  afterAll(() => app?.close());

  describe('who may manage releases', () => {
    it('super and senior administrators only; others no_permission, anonymous callers 401', async () => {
      expect((await app.call(appVersionList, {}, { token: admin })).status).toBe(200);
      expect((await app.call(appVersionList, {}, { token: senior })).status).toBe(200);
      const business = await makeAccount(app, admin, 'releaseBusiness', 'BUSINESS_ROLE');
      const provider = await makeProvider(app, admin, 'Release Care Home');
      for (const token of [
        await app.login(business.userName, business.password),
        await app.login(provider.userName, provider.password),
      ]) {
        expect((await app.call(appVersionList, {}, { token })).msgKey).toBe('no_permission');
        expect((await app.call(h5VersionList, {}, { token })).msgKey).toBe('no_permission');
        expect((await app.call(appPackageUpload, form(APK, 'app.apk', 'apk'), { token })).msgKey).toBe('no_permission');
      }
      const anonymous = await app.call(appVersionList, {});
      expect(anonymous.httpStatus).toBe(401);
    });
  });

  describe('validation', () => {
    const refusedAdd = async (input: Partial<Record<keyof AddInput, unknown>>, lang = 'en-US') =>
      app.call(
        appVersionAdd,
        {
          platform: 'android',
          versionName: '1.0.0',
          buildNumber: nextBuild(),
          notes: 'Notes',
          storeUrl: 'https://market.example.com/vigil',
          ...input,
        } as AddInput,
        { token: senior, lang },
      );

    it('takes version names of digits and dots, starting and ending with a digit, at most 20 characters', async () => {
      for (const versionName of ['2.10.3', '1', '0.0.1', '12345678901234567890']) {
        expect((await refusedAdd({ versionName })).status, versionName).toBe(200);
      }
      for (const versionName of ['2.10.', '.2', '2..3', 'v2.1', '2.1-beta', '1.2.3.4.5.6.7.8.9.10.1', 'abc', '2,1']) {
        const res = await refusedAdd({ versionName });
        expect(refusal(res), versionName).toEqual({
          status: 400,
          msgKey: 'appRelease.versionNameFormat',
          field: 'versionName',
        });
        expect(res.msg).toBe(
          'The version name must be numbers separated by dots, such as 2.10.3: at most 20 characters.',
        );
      }
      for (const versionName of ['', '  ']) {
        const res = await refusedAdd({ versionName });
        expect(refusal(res)).toEqual({ status: 400, msgKey: 'validation.required', field: 'versionName' });
        expect(res.msg).toBe('Version name is required.');
      }
    });

    it('takes build numbers of 1 to 20 digits', async () => {
      expect((await refusedAdd({ buildNumber: '9'.repeat(20) })).status).toBe(200);
      for (const buildNumber of ['9'.repeat(21), '12a', '-3', '1.5', ' ', 42]) {
        const res = await refusedAdd({ buildNumber });
        const key = buildNumber === ' ' ? 'validation.required' : 'appRelease.buildFormat';
        expect(refusal(res), String(buildNumber)).toEqual({ status: 400, msgKey: key, field: 'buildNumber' });
      }
      expect((await refusedAdd({ buildNumber: 'x' })).msg).toBe('The build number must be 1 to 20 digits.');
    });

    it('requires update notes of at most 500 characters', async () => {
      expect((await refusedAdd({ notes: '新'.repeat(500) })).status).toBe(200);
      const long = await refusedAdd({ notes: 'x'.repeat(501) });
      expect(refusal(long)).toEqual({ status: 400, msgKey: 'appRelease.notesTooLong', field: 'notes' });
      expect(long.msg).toBe('The update notes may be at most 500 characters.');
      const missing = await refusedAdd({ notes: undefined });
      expect(refusal(missing)).toEqual({ status: 400, msgKey: 'validation.required', field: 'notes' });
      expect(missing.msg).toBe('Update notes is required.');
      expect((await refusedAdd({ notes: '   ' })).msgKey).toBe('validation.required');
    });

    it('requires a store URL (http or https) or a package; an iOS version takes no package', async () => {
      for (const storeUrl of [
        'ftp://example.com/app',
        'not a url',
        'javascript:alert(1)',
        `https://e.com/${'a'.repeat(500)}`,
      ]) {
        const res = await refusedAdd({ storeUrl });
        expect(refusal(res), storeUrl).toEqual({ status: 400, msgKey: 'appRelease.storeUrlFormat', field: 'storeUrl' });
      }
      expect((await refusedAdd({ storeUrl: 'http://apps.example.com/vigil' })).status).toBe(200);
      const neither = await refusedAdd({ storeUrl: undefined });
      expect(refusal(neither)).toEqual({ status: 300, msgKey: 'appRelease.sourceRequired', field: 'storeUrl' });
      expect(neither.msg).toBe('Give the store URL or upload the package.');
      const apk = await upload(APK, 'apk');
      const ios = await refusedAdd({ platform: 'ios', fileId: apk.fileId });
      expect(refusal(ios)).toEqual({ status: 300, msgKey: 'appRelease.iosPackage', field: 'fileId' });
      const platform = await refusedAdd({ platform: 'windows' });
      expect(refusal(platform)).toEqual({ status: 400, msgKey: 'appRelease.platformInvalid', field: 'platform' });
    });

    it('takes only a stored package of the right kind', async () => {
      const h5 = await upload(H5_ZIP, 'h5');
      const apk = await upload(APK, 'apk');
      expect(refusal(await refusedAdd({ fileId: h5.fileId, storeUrl: undefined }))).toEqual({
        status: 300,
        msgKey: 'appRelease.fileNotApk',
        field: 'fileId',
      });
      expect(refusal(await refusedAdd({ fileId: 2_000_000, storeUrl: undefined }))).toEqual({
        status: 300,
        msgKey: 'appRelease.fileNotFound',
        field: 'fileId',
      });
      const asH5 = await app.call(h5VersionAdd, { versionName: '9.9.1', fileId: apk.fileId }, { token: senior });
      expect(refusal(asH5)).toEqual({ status: 300, msgKey: 'appRelease.fileNotH5', field: 'fileId' });
      // An APK alone (no store URL) is enough for Android.
      expect((await refusedAdd({ fileId: apk.fileId, storeUrl: undefined })).status).toBe(200);
    });

    it('says every refusal in the caller’s language, all eight of them', async () => {
      const expectations: [Partial<Record<keyof AddInput, unknown>>, MessageKey, MessageParams][] = [
        [{ versionName: '1..2' }, 'appRelease.versionNameFormat', {}],
        [{ buildNumber: 'abc' }, 'appRelease.buildFormat', {}],
        [{ notes: 'x'.repeat(501) }, 'appRelease.notesTooLong', {}],
        [{ storeUrl: 'ftp://x.example.com' }, 'appRelease.storeUrlFormat', {}],
        [{ storeUrl: undefined }, 'appRelease.sourceRequired', {}],
        [{ platform: 'web' }, 'appRelease.platformInvalid', {}],
      ];
      for (const lang of LANGUAGES) {
        for (const [input, key, params] of expectations) {
          const res = await refusedAdd(input, lang);
          expect(res.msgKey, `${lang} ${key}`).toBe(key);
          expect(res.msg, `${lang} ${key}`).toBe(translate(lang, key, params));
        }
      }
      // The catalogues really differ: no language falls back to another's words.
      const texts = new Set(LANGUAGES.map((lang) => translate(lang, 'appRelease.buildNotHigher', {})));
      expect(texts.size).toBe(LANGUAGES.length);
      const existing = await add({ platform: 'ios', storeUrl: 'https://apps.apple.com/app/id1' });
      const duplicate = await app.call(
        appVersionAdd,
        {
          platform: 'ios',
          versionName: '1.0',
          buildNumber: existing.buildNumber,
          notes: 'n',
          storeUrl: 'https://a.example.com',
        },
        { token: senior, lang: 'zh-CN' },
      );
      expect(duplicate.msg).toBe(`iOS 已存在构建号 ${existing.buildNumber}。`);
    });
  });

  describe('build numbers', () => {
    it('are unique per platform, compared as numbers (leading zeros dropped)', async () => {
      const first = await add({ buildNumber: '0077' });
      expect(first.buildNumber).toBe('77');
      for (const buildNumber of ['77', '00077']) {
        const res = await app.call(
          appVersionAdd,
          { platform: 'android', versionName: '1.0', buildNumber, notes: 'n', storeUrl: 'https://a.example.com' },
          { token: senior },
        );
        expect(refusal(res)).toEqual({ status: 300, msgKey: 'appRelease.buildExists', field: 'buildNumber' });
        expect(res.msg).toBe('Build 77 already exists for Android.');
      }
      // The other platform has its own numbers.
      expect((await add({ platform: 'ios', buildNumber: '77' })).buildNumber).toBe('77');
    });
  });

  describe('states: saved unpublished → published → taken down', () => {
    it('publishes, refuses to edit or delete while published, takes down, then deletes', async () => {
      const v = await add();
      expect(v).toMatchObject({ state: 'unpublished', publishTime: null, offShelfTime: null, force: false });
      expect((await publish(v.id)).status).toBe(200);
      const listed = await app.call(appVersionList, { platform: 'android', state: 'published' }, { token: senior });
      expect(listed.data?.rows.find((r) => r.id === v.id)).toMatchObject({
        state: 'published',
        publishTime: expect.any(String),
      });
      expect(refusal(await publish(v.id))).toMatchObject({ msgKey: 'appRelease.alreadyPublished' });
      const deleting = await app.call(appVersionDelete, { id: v.id }, { token: senior });
      expect(refusal(deleting)).toMatchObject({ status: 300, msgKey: 'appRelease.published' });
      expect(deleting.msg).toBe('A published release cannot be edited or deleted: take it down first.');

      expect((await takeDown(v.id)).status).toBe(200);
      expect(refusal(await takeDown(v.id))).toMatchObject({ msgKey: 'appRelease.notPublished' });
      // Taken down is final: a new version is saved instead.
      expect(refusal(await publish(v.id))).toMatchObject({ msgKey: 'appRelease.isOffShelf' });
      const gone = await app.call(appVersionList, { state: 'offShelf' }, { token: senior });
      expect(gone.data?.rows.find((r) => r.id === v.id)).toMatchObject({
        state: 'offShelf',
        offShelfTime: expect.any(String),
      });
      expect((await app.call(appVersionDelete, { id: v.id }, { token: senior })).status).toBe(200);
      expect((await app.call(appVersionDelete, { id: v.id }, { token: senior })).msgKey).toBe('not_found');
    });

    it('deletes an unpublished version; taking down an unpublished one is refused', async () => {
      const v = await add();
      expect(refusal(await takeDown(v.id))).toMatchObject({ msgKey: 'appRelease.notPublished' });
      expect((await app.call(appVersionDelete, { id: v.id }, { token: senior })).status).toBe(200);
      for (const res of [await publish(v.id), await takeDown(v.id), await publish(2_000_000, 'h5')]) {
        expect(res.msgKey).toBe('not_found');
      }
    });

    it('refuses publishing a build not higher than every published one of the platform', async () => {
      const low = await add({ buildNumber: '900000' });
      const high = await add({ buildNumber: '900100' });
      expect((await publish(high.id)).status).toBe(200);
      const res = await publish(low.id);
      expect(refusal(res)).toMatchObject({ status: 300, msgKey: 'appRelease.buildNotHigher' });
      expect(res.msg).toBe(
        'Build 900000 is not higher than build 900100, the newest published for Android: a newer version needs a higher build number.',
      );
      // Versions taken down do not count.
      expect((await takeDown(high.id)).status).toBe(200);
      expect((await publish(low.id)).status).toBe(200);
      await takeDown(low.id);
    });

    it('rejects a state other than published, and an unknown type, with their own messages', async () => {
      const v = await add();
      const state = await app.call(
        appVersionUpdateStatus,
        { id: v.id, state: 'offShelf' } as unknown as CallRequest<typeof appVersionUpdateStatus>,
        { token: senior },
      );
      expect(refusal(state)).toEqual({ status: 400, msgKey: 'appRelease.statePublishOnly', field: 'state' });
      const type = await app.call(
        appVersionOffShelf,
        { id: v.id, type: 'firmware' } as unknown as CallRequest<typeof appVersionOffShelf>,
        { token: senior },
      );
      expect(refusal(type)).toEqual({ status: 400, msgKey: 'appRelease.typeInvalid', field: 'type' });
      const filter = await app.call(
        appVersionList,
        { state: 'gone' } as unknown as CallRequest<typeof appVersionList>,
        { token: senior },
      );
      expect(refusal(filter)).toEqual({ status: 400, msgKey: 'appRelease.stateInvalid', field: 'state' });
      expect((await app.call(appVersionDelete, { id: 0 }, { token: senior })).status).toBe(400);
    });
  });

  describe('the version check (GET /fireWare/getLastVersion)', () => {
    it('offers the newest published higher build, forced when any published version on the way is', async () => {
      // iOS only in this test: no other test publishes iOS versions.
      const ios = (buildNumber: string, force = false) =>
        add({ platform: 'ios', buildNumber, force, storeUrl: 'https://apps.apple.com/app/id42' });
      expect((await check('ios', '1')).data).toBeNull();
      const v9 = await ios('9');
      const v10 = await ios('10', true);
      const v11 = await ios('11');
      const v12 = await ios('12');
      for (const v of [v9, v10, v11]) expect((await publish(v.id)).status).toBe(200);
      // 12 is saved but never published: never offered.
      const from1 = await check('ios', '1');
      expect(from1.data).toMatchObject({
        platform: 'ios',
        versionName: v11.versionName,
        buildNumber: '11',
        notes: v11.notes,
        storeUrl: 'https://apps.apple.com/app/id42',
        downloadUrl: null,
        force: true,
      });
      // Compared as numbers: 9 < 10 < 11, though "9" sorts after "10".
      expect((await check('ios', '9')).data).toMatchObject({ buildNumber: '11', force: true });
      expect((await check('ios', '10')).data).toMatchObject({ buildNumber: '11', force: false });
      expect((await check('ios', '0010')).data).toMatchObject({ buildNumber: '11', force: false });
      expect((await check('ios', '11')).data).toBeNull();
      expect((await check('ios', '99999999999999999999')).data).toBeNull();
      // Taking the newest down: the one before it is offered, forced by itself.
      expect((await takeDown(v11.id)).status).toBe(200);
      expect((await check('ios', '9')).data).toMatchObject({ buildNumber: '10', force: true });
      expect((await check('ios', '10')).data).toBeNull();
      // iOS versions are never offered to Android (none of Android's is published now).
      expect((await check('android', '1')).data).toBeNull();
      expect(v12.state).toBe('unpublished');
    });

    it('needs no session and refuses a bad platform or build with a clear message', async () => {
      const res = await check('ios', '1');
      expect(res.httpStatus).toBe(200);
      const platform = await app.call(appLastVersion, { platform: 'windows', build: '1' } as never);
      expect(refusal(platform)).toEqual({ status: 400, msgKey: 'appRelease.platformInvalid', field: 'platform' });
      const build = await app.call(appLastVersion, { platform: 'ios', build: '1.2' });
      expect(refusal(build)).toEqual({ status: 400, msgKey: 'appRelease.buildFormat', field: 'build' });
      const missing = await app.call(appLastVersion, { platform: 'ios' } as never);
      expect(refusal(missing)).toEqual({ status: 400, msgKey: 'validation.required', field: 'build' });
    });
  });

  describe('packages', () => {
    it('refuses a file that is not a zip, a truncated zip, a wrong file name and a missing file', async () => {
      for (const kind of ['apk', 'h5'] as const) {
        const name = kind === 'apk' ? 'app.apk' : 'site.zip';
        const notZip = await app.call(appPackageUpload, form(text('MZ this is not a zip'), name, kind), {
          token: senior,
        });
        expect(refusal(notZip)).toEqual({ status: 400, msgKey: 'appRelease.notZip', field: 'file' });
        expect(notZip.msg).toBe(
          'The file is not a valid package: an APK or an H5 package must be a whole zip archive.',
        );
        const truncated = await app.call(appPackageUpload, form(APK.subarray(0, APK.length - 30), name, kind), {
          token: senior,
        });
        expect(truncated.msgKey).toBe('appRelease.notZip');
      }
      const wrongName = await app.call(appPackageUpload, form(H5_ZIP, 'site.zip', 'apk'), { token: senior });
      expect(refusal(wrongName)).toEqual({ status: 400, msgKey: 'appRelease.fileExtension', field: 'file' });
      const missing = await app.call(appPackageUpload, form(null, '', 'h5'), { token: senior });
      expect(refusal(missing)).toEqual({ status: 400, msgKey: 'upload.missing', field: 'file' });
      const asText = form(null, '', 'h5');
      asText.append('file', 'not a file');
      expect(refusal(await app.call(appPackageUpload, asText, { token: senior }))).toEqual({
        status: 400,
        msgKey: 'upload.missing',
        field: 'file',
      });
      const empty = await app.call(appPackageUpload, form(new Uint8Array(0), 'h5.zip', 'h5'), { token: senior });
      expect(empty.msgKey).toBe('upload.missing');
      const kind = await app.call(appPackageUpload, form(APK, 'app.apk'), { token: senior });
      expect(refusal(kind)).toEqual({ status: 400, msgKey: 'validation.required', field: 'packageType' });
      const badKind = await app.call(appPackageUpload, form(APK, 'app.apk', 'ipa'), { token: senior });
      expect(refusal(badKind)).toEqual({ status: 400, msgKey: 'appRelease.kindInvalid', field: 'packageType' });
      const [stored] = await app.database.db
        .select({ n: count() })
        .from(appPackages)
        .where(eq(appPackages.fileName, 'site.zip'));
      expect(stored?.n).toBe(0);
    });

    it('keeps a package in 1 MB chunks and serves the same bytes, only while its version is published', async () => {
      const pkg = await upload(BIG_APK, 'apk');
      expect(pkg).toMatchObject({
        packageType: 'apk',
        fileName: 'app.apk',
        size: BIG_APK.length,
        sha256: sha256(BIG_APK),
      });
      const [chunks] = await app.database.db
        .select({ n: count() })
        .from(appPackageChunks)
        .where(eq(appPackageChunks.packageId, pkg.fileId));
      expect(chunks?.n).toBe(Math.ceil(BIG_APK.length / CHUNK_BYTES));
      const v = await add({ fileId: pkg.fileId, storeUrl: undefined, buildNumber: '5000000' });
      expect(v.file).toEqual({
        fileId: pkg.fileId,
        fileName: 'app.apk',
        size: BIG_APK.length,
        sha256: sha256(BIG_APK),
        downloadUrl: `/version/apph5version/download?id=${pkg.fileId}`,
      });
      // Unpublished: not served.
      await expect(app.download(appPackageDownload, { id: pkg.fileId })).rejects.toMatchObject({ msgKey: 'not_found' });
      expect((await publish(v.id)).status).toBe(200);
      const file = await app.download(appPackageDownload, { id: pkg.fileId });
      expect(file.contentType).toBe('application/vnd.android.package-archive');
      expect(file.filename).toBe('app.apk');
      expect(file.bytes.length).toBe(BIG_APK.length);
      expect(sha256(file.bytes)).toBe(sha256(BIG_APK));
      // The version check points at it.
      const offered = await check('android', '4999999');
      expect(offered.data).toMatchObject({
        buildNumber: '5000000',
        downloadUrl: `/version/apph5version/download?id=${pkg.fileId}`,
        size: BIG_APK.length,
        sha256: sha256(BIG_APK),
      });
      // Taken down: no longer served; deleted: its bytes go too.
      expect((await takeDown(v.id)).status).toBe(200);
      await expect(app.download(appPackageDownload, { id: pkg.fileId })).rejects.toMatchObject({ msgKey: 'not_found' });
      expect((await app.call(appVersionDelete, { id: v.id }, { token: senior })).status).toBe(200);
      const [left] = await app.database.db
        .select({ n: count() })
        .from(appPackageChunks)
        .where(eq(appPackageChunks.packageId, pkg.fileId));
      expect(left?.n).toBe(0);
      await expect(app.download(appPackageDownload, { id: 2_000_000 })).rejects.toMatchObject({ msgKey: 'not_found' });
    });

    it('keeps a package two versions share until the last of them is deleted', async () => {
      const pkg = await upload(APK, 'apk');
      const a = await add({ fileId: pkg.fileId });
      const b = await add({ fileId: pkg.fileId });
      const stored = async () =>
        (await app.database.db.select({ n: count() }).from(appPackages).where(eq(appPackages.id, pkg.fileId)))[0]?.n;
      await app.call(appVersionDelete, { id: a.id }, { token: senior });
      expect(await stored()).toBe(1);
      await app.call(appVersionDelete, { id: b.id }, { token: senior });
      expect(await stored()).toBe(0);
    });

    it('deletes an upload no release took within a day, at the next upload', async () => {
      const unused = await upload(APK, 'apk');
      const used = await upload(APK, 'apk');
      await add({ fileId: used.fileId });
      app.clock.advance(UNUSED_UPLOAD_MS + 60_000);
      // A day idle ends the session too.
      senior = await app.login(seniorLogin.userName, seniorLogin.password);
      await upload(H5_ZIP, 'h5');
      const ids = (await app.database.db.select({ id: appPackages.id }).from(appPackages)).map((r) => r.id);
      expect(ids).not.toContain(unused.fileId);
      expect(ids).toContain(used.fileId);
      const late = await app.call(
        appVersionAdd,
        { platform: 'android', versionName: '1.0', buildNumber: nextBuild(), notes: 'n', fileId: unused.fileId },
        { token: senior },
      );
      expect(late.msgKey).toBe('appRelease.fileNotFound');
    });
  });

  describe('H5 packages', () => {
    it('are saved, edited while unpublished, published, taken down and deleted', async () => {
      const zip = await upload(H5_ZIP, 'h5');
      const other = await upload(zipSync({ 'index.html': text('<p>2</p>') }), 'h5');
      const added = await app.call(h5VersionAdd, { versionName: '3.1.0', fileId: zip.fileId }, { token: senior });
      expect(added.data).toMatchObject({ versionName: '3.1.0', state: 'unpublished', file: { fileId: zip.fileId } });
      const id = added.data?.id ?? 0;
      const again = await app.call(h5VersionAdd, { versionName: '3.1.0', fileId: zip.fileId }, { token: senior });
      expect(refusal(again)).toEqual({ status: 300, msgKey: 'appRelease.h5VersionExists', field: 'versionName' });
      expect(again.msg).toBe('H5 version 3.1.0 already exists.');

      const edited = await app.call(
        h5VersionUpdate,
        { id, versionName: '3.1.1', fileId: other.fileId },
        { token: senior },
      );
      expect(edited.data).toMatchObject({ versionName: '3.1.1', file: { fileId: other.fileId } });
      // The file it no longer uses went with the edit.
      expect((await app.database.db.select().from(appPackages).where(eq(appPackages.id, zip.fileId))).length).toBe(0);
      const renamed = await app.call(h5VersionUpdate, { id, versionName: '3.1.2' }, { token: senior });
      expect(renamed.data).toMatchObject({ versionName: '3.1.2', file: { fileId: other.fileId } });
      const badName = await app.call(h5VersionUpdate, { id, versionName: '3.1.x' }, { token: senior });
      expect(refusal(badName)).toEqual({ status: 400, msgKey: 'appRelease.versionNameFormat', field: 'versionName' });

      await expect(app.download(appPackageDownload, { id: other.fileId })).rejects.toMatchObject({
        msgKey: 'not_found',
      });
      expect((await publish(id, 'h5')).status).toBe(200);
      const file = await app.download(appPackageDownload, { id: other.fileId });
      expect(file.contentType).toBe('application/zip');
      expect(sha256(file.bytes)).toBe(other.sha256);
      const listed = await app.call(h5VersionList, { state: 'published' }, { token: senior });
      expect(listed.data?.rows.map((r) => r.id)).toContain(id);

      const editPublished = await app.call(h5VersionUpdate, { id, versionName: '3.1.3' }, { token: senior });
      expect(refusal(editPublished)).toMatchObject({ status: 300, msgKey: 'appRelease.published' });
      const deletePublished = await app.call(h5VersionDelete, { id }, { token: senior });
      expect(deletePublished.msgKey).toBe('appRelease.published');
      expect((await takeDown(id, 'h5')).status).toBe(200);
      expect(refusal(await publish(id, 'h5'))).toMatchObject({ msgKey: 'appRelease.isOffShelf' });
      expect((await app.call(h5VersionDelete, { id }, { token: senior })).status).toBe(200);
      expect((await app.call(h5VersionDelete, { id }, { token: senior })).msgKey).toBe('not_found');
    });

    it('released with an app version (addAppH5): published with it and offered with it', async () => {
      const apk = await upload(APK, 'apk');
      const zip = await upload(H5_ZIP, 'h5');
      const res = await app.call(
        appVersionAddWithH5,
        {
          platform: 'android',
          versionName: '6.0.0',
          buildNumber: '6000000',
          notes: 'With new pages',
          fileId: apk.fileId,
          force: true,
          h5VersionName: '6.0.0',
          h5FileId: zip.fileId,
        },
        { token: senior },
      );
      expect(res.status).toBe(200);
      expect(res.data).toMatchObject({
        storeUrl: null,
        force: true,
        h5: { versionName: '6.0.0', state: 'unpublished' },
      });
      const wrongKind = await app.call(
        appVersionAddWithH5,
        {
          platform: 'android',
          versionName: '6.0.1',
          buildNumber: nextBuild(),
          notes: 'n',
          storeUrl: 'https://a.example.com',
          h5VersionName: '6.0.1',
          h5FileId: apk.fileId,
        },
        { token: senior },
      );
      expect(refusal(wrongKind)).toEqual({ status: 300, msgKey: 'appRelease.fileNotH5', field: 'h5FileId' });
      const taken = await app.call(
        appVersionAddWithH5,
        {
          platform: 'android',
          versionName: '6.0.1',
          buildNumber: nextBuild(),
          notes: 'n',
          storeUrl: 'https://a.example.com',
          h5VersionName: '6.0.0',
          h5FileId: zip.fileId,
        },
        { token: senior },
      );
      expect(refusal(taken)).toEqual({ status: 300, msgKey: 'appRelease.h5VersionExists', field: 'h5VersionName' });

      const id = res.data?.id ?? 0;
      expect((await publish(id)).status).toBe(200);
      const offered = await check('android', '5999999');
      expect(offered.data).toMatchObject({
        buildNumber: '6000000',
        force: true,
        storeUrl: null,
        downloadUrl: `/version/apph5version/download?id=${apk.fileId}`,
        h5: {
          versionName: '6.0.0',
          downloadUrl: `/version/apph5version/download?id=${zip.fileId}`,
          sha256: zip.sha256,
        },
      });
      const h5 = await app.download(appPackageDownload, { id: zip.fileId });
      expect(sha256(h5.bytes)).toBe(sha256(H5_ZIP));
      const released = await app.call(appVersionReleaseList, { platform: 'android' }, { token: senior });
      const rows = released.data?.rows ?? [];
      expect(rows.every((r) => r.state === 'published')).toBe(true);
      expect(rows[0]).toMatchObject({ id, h5: { state: 'published' } });
      const builds = rows.map((r) => BigInt(r.buildNumber));
      expect([...builds].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(builds);
    });
  });
});
