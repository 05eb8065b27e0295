import {
  getPlatformName,
  getProvider,
  insertProvider,
  operateProvider,
  postPlatformName,
  uploadLogo,
  type Role,
} from '@vigil/contract';
import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { files } from '../../db/schema.ts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeAccount, makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { encodePng, JPEG_BYTES, paddedPng } from './png-fixture.ts';

const fileForm = (bytes: Uint8Array, filename = 'logo.png', type = 'image/png', field = 'file'): FormData => {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), filename);
  return form;
};

describeEachDb('platform name (%s)', (target) => {
  let app: TestApp;
  let admin: string;
  let senior: string;
  const loginAs = async (userName: string, role: Role) => {
    const { password } = await makeAccount(app, admin, userName, role);
    return app.login(userName, password);
  };

  beforeAll(async () => {
    app = await createTestApp(target);
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    senior = await loginAs('seniorNamer', 'SENIOR_ROLE');
  });
  afterAll(() => app?.close());

  it('answers the default platform name without a token', async () => {
    const res = await app.call(getPlatformName, {});
    expect(res.httpStatus).toBe(200);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ platformName: 'Vigil', logoUrl: null });
  });

  it('lets SENIOR_ROLE rename the platform; everyone sees the new name', async () => {
    const res = await app.call(postPlatformName, { platformName: 'Sunrise Care' }, { token: senior });
    expect(res.status).toBe(200);
    expect((await app.call(getPlatformName, {})).data?.platformName).toBe('Sunrise Care');
    expect((await app.call(getPlatformName, {}, { token: admin })).data?.platformName).toBe('Sunrise Care');
    // The name is trimmed; 20 characters (also non-Latin ones) are accepted.
    const twenty = '颐'.repeat(20);
    expect((await app.call(postPlatformName, { platformName: `  ${twenty} ` }, { token: senior })).status).toBe(200);
    expect((await app.call(getPlatformName, {})).data?.platformName).toBe(twenty);
    // The logo is kept when only the name changes, and can be set with it.
    const logo = (await app.call(uploadLogo, fileForm(encodePng(200, 200)), { token: senior })).data?.url ?? '';
    expect(
      (await app.call(postPlatformName, { platformName: 'Sunrise Care', logoUrl: logo }, { token: senior })).status,
    ).toBe(200);
    await app.call(postPlatformName, { platformName: 'Sunrise Care 2' }, { token: senior });
    expect((await app.call(getPlatformName, {})).data).toEqual({ platformName: 'Sunrise Care 2', logoUrl: logo });
  });

  it('refuses renaming by SUPER_ROLE, staff and anonymous callers (no_permission)', async () => {
    const before = (await app.call(getPlatformName, {})).data?.platformName;
    const asSuper = await app.call(postPlatformName, { platformName: 'Hijacked' }, { token: admin });
    expect(asSuper.status).toBe(300);
    expect(asSuper.msgKey).toBe('no_permission');
    const p = await makeProvider(app, admin, 'Namer Provider');
    const providerToken = await app.login(p.userName, p.password);
    for (const role of ['SUB_ROLE', 'GOVERNMENT', 'SOCIAL_WORKER'] as const) {
      const staff = await makeAccount(app, providerToken, `namer${role.replace('_', '').slice(0, 8)}`, role);
      const res = await app.call(
        postPlatformName,
        { platformName: 'Hijacked' },
        { token: await app.login(staff.userName, staff.password) },
      );
      expect(res.msgKey, role).toBe('no_permission');
    }
    const anonymous = await app.call(postPlatformName, { platformName: 'Hijacked' });
    expect(anonymous.httpStatus).toBe(401);
    expect((await app.call(getPlatformName, {})).data?.platformName).toBe(before);
  });

  it('lets class 1 and class 2 providers set their own name and logo on /settings/platSet, not the platform’s', async () => {
    const platformBefore = (await app.call(getPlatformName, {})).data;
    const group = await makeProvider(app, admin, 'Own Brand Group');
    const groupToken = await app.login(group.userName, group.password);
    const home = await makeProvider(app, groupToken, 'Own Brand Home', { parentId: group.id });
    const homeToken = await app.login(home.userName, home.password);

    const groupLogo = (await app.call(uploadLogo, fileForm(encodePng(200, 200)), { token: groupToken })).data?.url;
    const changes: unknown[] = [];
    const unsubscribe = app.services.events.subscribe(
      (event) => changes.push([event.providerId, event.payload]),
      ['branding.changed'],
    );
    const saved = await app.call(
      postPlatformName,
      { platformName: 'Group Portal', logoUrl: groupLogo ?? null },
      { token: groupToken },
    );
    unsubscribe();
    expect(saved.status).toBe(200);
    // Told after the commit, for the consoles of that provider's accounts to follow.
    expect(changes).toEqual([[group.id, { platformName: 'Group Portal', logoUrl: groupLogo }]]);
    expect((await app.call(getPlatformName, {}, { token: groupToken })).data).toEqual({
      platformName: 'Group Portal',
      logoUrl: groupLogo,
    });
    // The class 2 provider without its own branding shows its parent's…
    expect((await app.call(getPlatformName, {}, { token: homeToken })).data?.platformName).toBe('Group Portal');
    // …until it sets its own; the name alone keeps the inherited logo.
    expect((await app.call(postPlatformName, { platformName: 'Home Portal' }, { token: homeToken })).status).toBe(200);
    expect((await app.call(getPlatformName, {}, { token: homeToken })).data).toEqual({
      platformName: 'Home Portal',
      logoUrl: groupLogo,
    });
    // Stored on the providers, shown in the administrator's provider list too.
    expect((await app.call(getProvider, { id: group.id }, { token: admin })).data).toMatchObject({
      platformName: 'Group Portal',
      logoUrl: groupLogo,
    });
    // The platform's own setting is untouched.
    expect((await app.call(getPlatformName, {})).data).toEqual(platformBefore);
    expect((await app.call(getPlatformName, {}, { token: admin })).data).toEqual(platformBefore);
  });

  it('accepts as logo only a file stored here: no outside address, no unknown file (logoUrl.invalid)', async () => {
    const p = await makeProvider(app, admin, 'Outside Logo');
    const token = await app.login(p.userName, p.password);
    const outside = [
      'https://tracker.example/pixel.png',
      '//tracker.example/pixel.png',
      'javascript:alert(1)',
      '/system/file?id=x',
      '/system/file?id=00000000-0000-4000-8000-000000000000&next=https://tracker.example',
      '/assets/../../etc/passwd',
    ];
    for (const logoUrl of outside) {
      const own = await app.call(postPlatformName, { platformName: 'Outside', logoUrl }, { token });
      expect(own.status, logoUrl).toBe(400);
      expect(own.msgKey, logoUrl).toBe('logoUrl.invalid');
      const edit = await app.call(operateProvider, { id: p.id, type: 'edit', logoUrl }, { token: admin });
      expect(edit.msgKey, logoUrl).toBe('logoUrl.invalid');
    }
    const unknown = '/system/file?id=00000000-0000-4000-8000-000000000000';
    for (const res of [
      await app.call(postPlatformName, { platformName: 'Outside', logoUrl: unknown }, { token }),
      await app.call(operateProvider, { id: p.id, type: 'edit', logoUrl: unknown }, { token: admin }),
      await app.call(
        insertProvider,
        { name: 'Unknown Logo', userName: 'unknownLogo1', passWord: 'Care#Home2026', logoUrl: unknown },
        { token: admin },
      ),
    ]) {
      expect(res.status).toBe(400);
      expect(res.msgKey).toBe('logoUrl.invalid');
      expect(res.msg).toBe('The logo must be an image uploaded to this platform.');
    }
    expect((await app.call(getProvider, { id: p.id }, { token: admin })).data?.logoUrl).toBeNull();
  });

  it("refuses another tenant's logo, even from an administrator; a class 2 provider may use its parent's and the platform's uploads", async () => {
    const other = await makeProvider(app, admin, 'Other Tenant Logo');
    const otherToken = await app.login(other.userName, other.password);
    const otherLogo = (await app.call(uploadLogo, fileForm(encodePng(200, 200)), { token: otherToken })).data?.url;
    const group = await makeProvider(app, admin, 'Parent Logo Group');
    const groupToken = await app.login(group.userName, group.password);
    const home = await makeProvider(app, groupToken, 'Parent Logo Home', { parentId: group.id });
    const homeToken = await app.login(home.userName, home.password);

    const foreign = await app.call(
      postPlatformName,
      { platformName: 'Borrowed', logoUrl: otherLogo },
      { token: groupToken },
    );
    expect(foreign.msgKey).toBe('logoUrl.invalid');
    const foreignEdit = await app.call(
      operateProvider,
      { id: home.id, type: 'edit', logoUrl: otherLogo },
      { token: groupToken },
    );
    expect(foreignEdit.msgKey).toBe('logoUrl.invalid');

    const groupLogo = (await app.call(uploadLogo, fileForm(encodePng(200, 200)), { token: groupToken })).data?.url;
    expect(
      (await app.call(operateProvider, { id: home.id, type: 'edit', logoUrl: groupLogo }, { token: groupToken }))
        .status,
    ).toBe(200);
    expect(
      (await app.call(postPlatformName, { platformName: 'Home', logoUrl: groupLogo }, { token: homeToken })).status,
    ).toBe(200);
    const platformLogo = (await app.call(uploadLogo, fileForm(encodePng(200, 200)), { token: admin })).data?.url;
    expect(
      (await app.call(operateProvider, { id: other.id, type: 'edit', logoUrl: platformLogo }, { token: admin })).status,
    ).toBe(200);
    // Not even an administrator puts one tenant's upload on another tenant or on the platform.
    expect(
      (await app.call(operateProvider, { id: home.id, type: 'edit', logoUrl: otherLogo }, { token: admin })).msgKey,
    ).toBe('logoUrl.invalid');
    expect(
      (await app.call(postPlatformName, { platformName: 'Platform', logoUrl: otherLogo }, { token: senior })).msgKey,
    ).toBe('logoUrl.invalid');
    // The class 2 provider cannot reach past its own parent.
    expect(
      (await app.call(postPlatformName, { platformName: 'Home', logoUrl: otherLogo }, { token: homeToken })).msgKey,
    ).toBe('logoUrl.invalid');
  });

  it.each([
    ['empty', ''],
    ['blank', '    '],
    ['21 characters', 'x'.repeat(21)],
    ['21 Chinese characters', '颐'.repeat(21)],
  ])('refuses a platform name that is %s (400 platformName.length)', async (_label, platformName) => {
    const res = await app.call(postPlatformName, { platformName }, { token: senior });
    expect(res.httpStatus).toBe(200);
    expect(res.status).toBe(400);
    expect(res.msgKey).toBe('platformName.length');
    expect(res.msg).toBe('The platform name must be 1 to 20 characters.');
  });

  it('lets a provider platform name override the platform one for its users, class 2 inheriting it', async () => {
    await app.call(postPlatformName, { platformName: 'Platform Name' }, { token: senior });
    const branded = await app.call(
      insertProvider,
      { name: 'Branded Care', userName: 'brandedLogin', passWord: 'Care#Home2026', platformName: 'Branded Portal' },
      { token: admin },
    );
    expect(branded.status).toBe(200);
    const brandedId = branded.data?.id ?? 0;
    const one = await app.login('brandedLogin', 'Care#Home2026');
    expect((await app.call(getPlatformName, {}, { token: one })).data?.platformName).toBe('Branded Portal');
    // Without a session the platform's own name is shown.
    expect((await app.call(getPlatformName, {})).data?.platformName).toBe('Platform Name');
    // A class 2 provider without its own name inherits its parent's; with one, its own wins.
    const child = await makeProvider(app, one, 'Branded Child');
    const childToken = await app.login(child.userName, child.password);
    expect((await app.call(getPlatformName, {}, { token: childToken })).data?.platformName).toBe('Branded Portal');
    await app.call(operateProvider, { id: child.id, type: 'edit', platformName: 'Child Portal' }, { token: one });
    expect((await app.call(getPlatformName, {}, { token: childToken })).data?.platformName).toBe('Child Portal');
    // A sub-account of the provider sees its branding too.
    const sub = await makeAccount(app, one, 'brandedSub01', 'SUB_ROLE');
    const subToken = await app.login(sub.userName, sub.password);
    expect((await app.call(getPlatformName, {}, { token: subToken })).data?.platformName).toBe('Branded Portal');
    // Clearing the provider's name falls back to the platform's.
    const cleared = await app.call(
      operateProvider,
      { id: brandedId, type: 'edit', platformName: null },
      { token: admin },
    );
    expect(cleared.status).toBe(200);
    expect((await app.call(getProvider, { id: brandedId }, { token: admin })).data?.platformName).toBeNull();
    expect((await app.call(getPlatformName, {}, { token: one })).data?.platformName).toBe('Platform Name');
    // Platform users are not affected by any provider's branding.
    expect((await app.call(getPlatformName, {}, { token: admin })).data?.platformName).toBe('Platform Name');
  });

  it('ignores an invalid token on the optional call instead of failing', async () => {
    const res = await app.call(getPlatformName, {}, { token: 'not-a-real-token' });
    expect(res.httpStatus).toBe(200);
    expect(res.status).toBe(200);
  });
});

describeEachDb('logo upload (%s)', (target) => {
  let app: TestApp;
  let admin: string;
  const storedFiles = async () => (await app.database.db.select({ n: count() }).from(files))[0]?.n ?? 0;

  beforeAll(async () => {
    app = await createTestApp(target);
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
  });
  afterAll(() => app?.close());

  it('stores a 200x200 PNG under 100 KB and serves the same bytes back as image/png', async () => {
    const png = encodePng(200, 200);
    expect(png.length).toBeLessThan(100 * 1024);
    const res = await app.call(uploadLogo, fileForm(png), { token: admin });
    expect(res.status).toBe(200);
    expect(res.data?.size).toBe(png.length);
    const url = res.data?.url ?? '';
    expect(url).toMatch(/^\/system\/file\?id=[0-9a-f-]{36}$/);
    const served = await app.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(served.rawPayload, png)).toBe(0);
  });

  it('accepts a PNG of 100 KB minus one byte (the limit is exclusive)', async () => {
    const png = paddedPng(200, 200, 100 * 1024 - 1);
    const res = await app.call(uploadLogo, fileForm(png), { token: admin });
    expect(res.status).toBe(200);
    expect(res.data?.size).toBe(100 * 1024 - 1);
    const served = await app.app.inject({ method: 'GET', url: res.data?.url ?? '' });
    expect(Buffer.compare(served.rawPayload, png)).toBe(0);
  });

  it('lets provider accounts upload too', async () => {
    const p = await makeProvider(app, admin, 'Logo Provider');
    const token = await app.login(p.userName, p.password);
    const res = await app.call(uploadLogo, fileForm(encodePng(200, 200)), { token });
    expect(res.status).toBe(200);
  });

  it('refuses the upload to roles that never set a logo, storing nothing', async () => {
    const p = await makeProvider(app, admin, 'Staff Logo Provider');
    const providerToken = await app.login(p.userName, p.password);
    const before = await storedFiles();
    for (const role of ['SUB_ROLE', 'GOVERNMENT', 'SOCIAL_WORKER'] as const) {
      const staff = await makeAccount(app, providerToken, `logo${role.replace('_', '').slice(0, 8)}`, role);
      const res = await app.call(uploadLogo, fileForm(encodePng(200, 200)), {
        token: await app.login(staff.userName, staff.password),
      });
      expect(res.msgKey, role).toBe('no_permission');
    }
    expect(await storedFiles()).toBe(before);
  });

  it('replaces rather than accumulates: 20 uploads leave one unused file, logos in use stay', async () => {
    const p = await makeProvider(app, admin, 'Many Uploads');
    const token = await app.login(p.userName, p.password);
    const ownFiles = async () =>
      (await app.database.db.select({ n: count() }).from(files).where(eq(files.providerId, p.id)))[0]?.n ?? 0;
    const first = (await app.call(uploadLogo, fileForm(encodePng(200, 200)), { token })).data?.url ?? '';
    expect((await app.call(postPlatformName, { platformName: 'Many', logoUrl: first }, { token })).status).toBe(200);
    let last = '';
    for (let i = 0; i < 20; i++) {
      const res = await app.call(uploadLogo, fileForm(encodePng(200, 200, { pixel: () => [i, i, i, 255] })), { token });
      expect(res.status).toBe(200);
      last = res.data?.url ?? '';
    }
    // The logo in use and the newest upload; the other 19 are gone.
    expect(await ownFiles()).toBe(2);
    expect((await app.app.inject({ url: first })).statusCode).toBe(200);
    expect((await app.app.inject({ url: last })).statusCode).toBe(200);
    // Another provider's and the platform's files are never touched.
    const other = await makeProvider(app, admin, 'Other Uploads');
    const otherToken = await app.login(other.userName, other.password);
    const otherUrl = (await app.call(uploadLogo, fileForm(encodePng(200, 200)), { token: otherToken })).data?.url ?? '';
    await app.call(uploadLogo, fileForm(encodePng(200, 200)), { token });
    expect((await app.app.inject({ url: otherUrl })).statusCode).toBe(200);
  });

  it('refuses random bytes behind a valid PNG header (the old check read only the first bytes)', async () => {
    const png = encodePng(200, 200);
    const random = Buffer.concat([png.subarray(0, 33), randomBytes(60_000)]);
    const res = await app.call(uploadLogo, fileForm(random), { token: admin });
    expect(res.status).toBe(400);
    expect(res.msgKey).toBe('upload.notPng');
  });

  it.each([
    [201, 200],
    [200, 201],
    [199, 199],
    [100, 100],
  ])('refuses a %ix%i PNG (upload.dimensions)', async (width, height) => {
    const res = await app.call(uploadLogo, fileForm(encodePng(width, height)), { token: admin });
    expect(res.status).toBe(400);
    expect(res.msgKey).toBe('upload.dimensions');
    expect(res.msg).toContain(`${width}×${height}`);
  });

  it('refuses a JPEG and a text file (upload.notPng), whatever the declared type', async () => {
    const jpeg = await app.call(uploadLogo, fileForm(JPEG_BYTES, 'logo.jpg', 'image/jpeg'), { token: admin });
    expect(jpeg.status).toBe(400);
    expect(jpeg.msgKey).toBe('upload.notPng');
    const disguised = await app.call(uploadLogo, fileForm(JPEG_BYTES, 'logo.png', 'image/png'), { token: admin });
    expect(disguised.msgKey).toBe('upload.notPng');
    const text = await app.call(
      uploadLogo,
      fileForm(Buffer.from('hello, this is not an image at all\n'.repeat(4)), 'a.txt', 'text/plain'),
      { token: admin },
    );
    expect(text.status).toBe(400);
    expect(text.msgKey).toBe('upload.notPng');
  });

  it('refuses a valid PNG of 100 KB or more (upload.tooLarge)', async () => {
    for (const size of [100 * 1024, 150 * 1024]) {
      const res = await app.call(uploadLogo, fileForm(paddedPng(200, 200, size)), { token: admin });
      expect(res.status).toBe(400);
      expect(res.msgKey).toBe('upload.tooLarge');
    }
  });

  it('refuses a file above the multipart limit without a server error', async () => {
    const res = await app.call(uploadLogo, fileForm(paddedPng(200, 200, 10 * 1024 * 1024 + 1)), { token: admin });
    expect(res.status).toBe(400);
    expect(res.msgKey).toBe('upload.tooLarge');
    expect(res.msg).toBe('The file is too large: at most 100 KB.');
  });

  it('answers upload.missing without a file', async () => {
    const onlyText = new FormData();
    onlyText.append('name', 'logo');
    const noFile = await app.call(uploadLogo, onlyText, { token: admin });
    expect(noFile.status).toBe(400);
    expect(noFile.msgKey).toBe('upload.missing');
    const empty = await app.call(uploadLogo, fileForm(new Uint8Array(), 'empty.png'), { token: admin });
    expect(empty.msgKey).toBe('upload.missing');
    const otherField = await app.call(uploadLogo, fileForm(encodePng(200, 200), 'logo.png', 'image/png', 'logo'), {
      token: admin,
    });
    expect(otherField.msgKey).toBe('upload.missing');
    const nothing = await app.call(uploadLogo, new FormData(), { token: admin });
    expect(nothing.status).toBe(400);
    expect(nothing.msgKey).toBe('upload.missing');
    const json = await app.app.inject({
      method: 'POST',
      url: uploadLogo.path,
      headers: { 'x-token': admin, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(json.json()).toMatchObject({ status: 400, msgKey: 'upload.missing' });
  });

  it('answers HTTP 401 without a token and stores nothing', async () => {
    const res = await app.call(uploadLogo, fileForm(encodePng(200, 200)));
    expect(res.httpStatus).toBe(401);
    expect(res.msgKey).toBe('session.required');
    const stale = await app.call(uploadLogo, fileForm(encodePng(200, 200)), { token: 'x'.repeat(43) });
    expect(stale.httpStatus).toBe(401);
  });

  it('answers not_found for an unknown file and 400 for a malformed id', async () => {
    const unknown = await app.app.inject({
      method: 'GET',
      url: '/system/file?id=00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.json()).toMatchObject({ status: 300, msgKey: 'not_found' });
    const malformed = await app.app.inject({ method: 'GET', url: '/system/file?id=nope' });
    expect(malformed.json()).toMatchObject({ status: 400 });
  });
});
