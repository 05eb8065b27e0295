import { createHmac } from 'node:crypto';
import { adminSession, adminSso, operateAccount, Status } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { makeAccount, makeProvider } from '../../test/fixtures.ts';

/** The harness default VIGIL_SSO_SECRET. */
const SECRET = 'test-sso-secret-0123456789';

const sign = (userName: string, timestamp: string, secret = SECRET): string =>
  createHmac('sha256', secret)
    .update(userName + timestamp)
    .digest('hex');

const secondsOf = (app: TestApp, offsetMs = 0): string =>
  String(Math.floor((app.clock.now().getTime() + offsetMs) / 1000));

const ssoInput = (app: TestApp, userName: string, offsetMs = 0) => {
  const timestamp = secondsOf(app, offsetMs);
  return { userName, timestamp, secretPassword: sign(userName, timestamp), from: 'PC' as const };
};

describeEachDb('POST /admin/sso (%s)', (target) => {
  let app: TestApp;
  let adminToken: string;
  beforeAll(async () => {
    app = await createTestApp(target);
    // On a whole second, so timestamps (whole seconds) are exactly as far from the clock as the tests say.
    app.clock.set(new Date(Math.floor(app.clock.now().getTime() / 1000) * 1000));
    adminToken = await app.login(ADMIN_USER, ADMIN_PASSWORD);
  });
  afterAll(() => app?.close());

  it('logs in with a fresh signature sent form-encoded', async () => {
    const input = ssoInput(app, ADMIN_USER);
    expect(input.timestamp).toMatch(/^\d{10}$/);
    const res = await app.call(adminSso, input);
    expect(res.httpStatus).toBe(200);
    expect(res.status).toBe(200);
    expect(res.data?.userName).toBe(ADMIN_USER);
    expect(res.data?.role).toBe('SUPER_ROLE');
    const info = await app.call(adminSession, {}, { token: res.data?.token ?? '' });
    expect(info.status).toBe(200);
    expect(info.data?.userName).toBe(ADMIN_USER);
  });

  it('accepts a signature made up to five minutes either side of the server time', async () => {
    for (const offset of [-4 * 60_000, 4 * 60_000, -5 * 60_000]) {
      const res = await app.call(adminSso, ssoInput(app, ADMIN_USER, offset));
      expect(res.status, `offset ${offset}`).toBe(200);
    }
  });

  it('refuses the same signature a second time with sso.replayed, in any letter case', async () => {
    const input = ssoInput(app, ADMIN_USER, -1_000);
    expect((await app.call(adminSso, input)).status).toBe(200);
    const again = await app.call(adminSso, input);
    expect(again.status).toBe(Status.FAILED);
    expect(again.msgKey).toBe('sso.replayed');
    expect(again.data).toBeNull();
    const upper = await app.call(adminSso, { ...input, secretPassword: input.secretPassword.toUpperCase() });
    expect(upper.status).toBe(Status.FAILED);
    expect(upper.msgKey).toBe('sso.replayed');
  });

  it('still refuses a replay at the very end of the signature lifetime', async () => {
    // Signed five minutes ahead, used now: valid until ten minutes from now.
    const input = ssoInput(app, ADMIN_USER, 5 * 60_000);
    expect((await app.call(adminSso, input)).status).toBe(200);
    app.clock.advance(10 * 60_000);
    const again = await app.call(adminSso, input);
    expect(again.msgKey).toBe('sso.replayed');
    app.clock.advance(1_000);
    const late = await app.call(adminSso, input);
    expect(late.msgKey).toBe('sso.expired');
  });

  it('answers sso.expired for a timestamp six minutes old or ahead', async () => {
    for (const offset of [-6 * 60_000, 6 * 60_000]) {
      const res = await app.call(adminSso, ssoInput(app, ADMIN_USER, offset));
      expect(res.status, `offset ${offset}`).toBe(Status.FAILED);
      expect(res.msgKey, `offset ${offset}`).toBe('sso.expired');
    }
  });

  it('does not use up a signature that was refused as expired', async () => {
    const input = ssoInput(app, ADMIN_USER, -6 * 60_000);
    expect((await app.call(adminSso, input)).msgKey).toBe('sso.expired');
    // The server clock was behind; once it catches up the same link works.
    app.clock.advance(-2 * 60_000);
    const res = await app.call(adminSso, input);
    expect(res.status).toBe(200);
    app.clock.advance(2 * 60_000);
  });

  it('answers sso.signature for a wrong signature', async () => {
    const input = ssoInput(app, ADMIN_USER);
    const cases = {
      otherSecret: sign(ADMIN_USER, input.timestamp, 'another-secret-0123456789'),
      otherUser: sign('someoneElse', input.timestamp),
      otherTime: sign(ADMIN_USER, String(Number(input.timestamp) - 1)),
      zeros: '0'.repeat(64),
    };
    for (const [name, secretPassword] of Object.entries(cases)) {
      const res = await app.call(adminSso, { ...input, secretPassword });
      expect(res.status, name).toBe(Status.FAILED);
      expect(res.msgKey, name).toBe('sso.signature');
      expect(res.data, name).toBeNull();
    }
  });

  it('answers 400 for a malformed timestamp or signature', async () => {
    const input = ssoInput(app, ADMIN_USER);
    for (const timestamp of ['12345', '17000000000', 'abcdefghij', '', '1.70000000']) {
      const res = await app.call(adminSso, { ...input, timestamp, secretPassword: sign(ADMIN_USER, timestamp) });
      expect(res.status, timestamp).toBe(Status.INVALID_INPUT);
      expect(res.msgKey, timestamp).toMatch(/^validation\.(format|required)$/);
    }
    const format = await app.call(adminSso, { ...input, timestamp: '12345' });
    expect(format.msgKey).toBe('validation.format');
    expect(format.msg).toContain('Timestamp');
    const shortSig = await app.call(adminSso, { ...input, secretPassword: input.secretPassword.slice(0, 63) });
    expect(shortSig.status).toBe(Status.INVALID_INPUT);
    expect(shortSig.msgKey).toBe('validation.format');
    expect(shortSig.msg).toContain('Signature');
  });

  it('answers 102 for an unknown account with a valid signature', async () => {
    const res = await app.call(adminSso, ssoInput(app, 'ghostUser99'));
    expect(res.status).toBe(Status.WRONG_CREDENTIALS);
    expect(res.msgKey).toBe('login.wrong');
  });

  it('applies the same account checks as a password login', async () => {
    const account = await makeAccount(app, adminToken, 'ssoDisabled1', 'SENIOR_ROLE');
    await app.call(operateAccount, { id: account.id, type: 'disable' }, { token: adminToken });
    const disabled = await app.call(adminSso, ssoInput(app, account.userName));
    expect(disabled.status).toBe(Status.ACCOUNT_DISABLED);
    expect(disabled.msgKey).toBe('login.disabled');

    const provider = await makeProvider(app, adminToken, 'Sso Installers');
    const providerToken = await app.login(provider.userName, provider.password);
    const installer = await makeAccount(app, providerToken, 'ssoInstaller1', 'MAINTAIN');
    const pc = await app.call(adminSso, ssoInput(app, installer.userName));
    expect(pc.msgKey).toBe('login.noAccess');
    const mobile = await app.call(adminSso, { ...ssoInput(app, installer.userName, -1_000), from: 'APP' });
    expect(mobile.status).toBe(200);
    expect(mobile.data?.role).toBe('MAINTAIN');
  });

  it('answers sso.signature in Chinese for zh-CN', async () => {
    const input = ssoInput(app, ADMIN_USER);
    const res = await app.call(adminSso, { ...input, secretPassword: 'f'.repeat(64) }, { lang: 'zh-CN' });
    expect(res.msgKey).toBe('sso.signature');
    expect(res.msg).toBe('快捷登录签名无效。');
  });
});

describeEachDb('POST /admin/sso without a secret (%s)', (target) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(target, { env: { VIGIL_SSO_SECRET: '' } });
  });
  afterAll(() => app?.close());

  it('treats an empty VIGIL_SSO_SECRET as unset', () => {
    expect(app.config.ssoSecret).toBeUndefined();
  });

  it('answers sso.disabled for any signature', async () => {
    const res = await app.call(adminSso, ssoInput(app, ADMIN_USER));
    expect(res.status).toBe(Status.FAILED);
    expect(res.msgKey).toBe('sso.disabled');
    expect(res.data).toBeNull();
    expect(res.msg).toBe('Fast login is not enabled on this server.');
  });

  it('still logs in with the password', async () => {
    expect(await app.login(ADMIN_USER, ADMIN_PASSWORD)).toBeTruthy();
  });
});
