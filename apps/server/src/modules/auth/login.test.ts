import { adminLogin, adminSession, LoginResultSchema, operateAccount, operateProvider, Status } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { makeAccount, makeProvider, STRONG_PASSWORD } from '../../test/fixtures.ts';

describeEachDb('POST /admin/login (%s)', (target) => {
  let app: TestApp;
  let adminToken: string;
  beforeAll(async () => {
    app = await createTestApp(target);
    adminToken = await app.login(ADMIN_USER, ADMIN_PASSWORD);
  });
  afterAll(() => app?.close());

  it('answers the full session data for the administrator', async () => {
    const res = await app.call(adminLogin, { userName: ADMIN_USER, passWord: ADMIN_PASSWORD, from: 'PC' });
    expect(res.httpStatus).toBe(200);
    expect(res.status).toBe(Status.OK);
    expect(res.msgKey).toBeUndefined();
    // The answer matches the contract exactly, so clients can rely on every field.
    const data = LoginResultSchema.parse(res.data);
    expect(data.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(data.token).not.toBe(adminToken);
    expect(data.key).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(data.key).not.toBe(data.token);
    expect(data.role).toBe('SUPER_ROLE');
    expect(data.providerRole).toBeNull();
    expect(data.menuList).toEqual(expect.arrayContaining(['providermanager', 'accountmanager']));
    expect(data.landingPath).toBe('/permission/providermanager');
    expect(Array.isArray(data.providerList)).toBe(true);
    expect(data.userName).toBe(ADMIN_USER);
    expect(data.userId).toBeGreaterThan(0);
    expect(data.providerId).toBeNull();
    expect(data.domain).toBeNull();
    expect(data.permissionType).toBe(0);
    // The operator chose this password (VIGIL_ADMIN_PASSWORD): nothing to replace.
    expect(data.mustChangePassword).toBe(false);
  });

  it('gives every login its own token and socket key', async () => {
    const a = await app.call(adminLogin, { userName: ADMIN_USER, passWord: ADMIN_PASSWORD });
    const b = await app.call(adminLogin, { userName: ADMIN_USER, passWord: ADMIN_PASSWORD });
    expect(a.data?.token).toBeTruthy();
    expect(a.data?.token).not.toBe(b.data?.token);
    expect(a.data?.key).not.toBe(b.data?.key);
    // Both sessions stay valid side by side.
    expect((await app.call(adminSession, {}, { token: a.data?.token ?? '' })).status).toBe(200);
    expect((await app.call(adminSession, {}, { token: b.data?.token ?? '' })).status).toBe(200);
  });

  it('accepts the account name in any letter case', async () => {
    const res = await app.call(adminLogin, { userName: ADMIN_USER.toUpperCase(), passWord: ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.data?.userName).toBe(ADMIN_USER);
  });

  it('answers 102 login.wrong for a wrong password', async () => {
    const res = await app.call(adminLogin, { userName: ADMIN_USER, passWord: `${ADMIN_PASSWORD}x` });
    expect(res.httpStatus).toBe(200);
    expect(res.status).toBe(Status.WRONG_CREDENTIALS);
    expect(res.msgKey).toBe('login.wrong');
    expect(res.data).toBeNull();
  });

  it('answers 102 login.wrong for an unknown account, the same as a wrong password', async () => {
    const res = await app.call(adminLogin, { userName: 'nobodyHere42', passWord: ADMIN_PASSWORD });
    expect(res.status).toBe(Status.WRONG_CREDENTIALS);
    expect(res.msgKey).toBe('login.wrong');
    expect(res.data).toBeNull();
    const wrongPassword = await app.call(adminLogin, { userName: ADMIN_USER, passWord: 'Other#Pass99' });
    expect(res.msg).toBe(wrongPassword.msg);
  });

  it('answers 400 validation.required naming the field when userName is missing', async () => {
    const res = await app.call(adminLogin, { passWord: ADMIN_PASSWORD } as never);
    expect(res.httpStatus).toBe(200);
    expect(res.status).toBe(Status.INVALID_INPUT);
    expect(res.msgKey).toBe('validation.required');
    expect(res.msg).toContain('Account');
    expect(res.msg).toBe('Account is required.');
  });

  it('names the field in Chinese for zh-CN', async () => {
    const res = await app.call(adminLogin, { userName: '', passWord: ADMIN_PASSWORD }, { lang: 'zh-CN' });
    expect(res.status).toBe(Status.INVALID_INPUT);
    expect(res.msgKey).toBe('validation.required');
    expect(res.msg).toBe('账号不能为空。');
  });

  it('answers 400 for a missing password and an unknown channel', async () => {
    const noPassword = await app.call(adminLogin, { userName: ADMIN_USER } as never);
    expect(noPassword.status).toBe(400);
    expect(noPassword.msgKey).toBe('validation.required');
    expect(noPassword.msg).toContain('Password');
    const badFrom = await app.call(adminLogin, {
      userName: ADMIN_USER,
      passWord: ADMIN_PASSWORD,
      from: 'TV',
    } as never);
    expect(badFrom.status).toBe(400);
    expect(badFrom.msgKey).toBe('validation.oneOf');
    expect(badFrom.msg).toContain('PC');
  });

  it('answers an envelope with 400 validation.body for a body that is not JSON', async () => {
    const res = await app.app.inject({
      method: 'POST',
      url: adminLogin.path,
      headers: { 'content-type': 'application/json', 'accept-language': 'en-US' },
      payload: '{"userName": ',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ status: number; msgKey: string; msg: string; data: unknown }>();
    expect(body).toEqual({ status: 400, msgKey: 'validation.body', msg: expect.any(String), data: null });
  });

  it('answers 107 login.disabled for a disabled account, and logs it in again once enabled', async () => {
    const account = await makeAccount(app, adminToken, 'disabledSenior1', 'SENIOR_ROLE');
    const token = await app.login(account.userName, account.password);
    const off = await app.call(operateAccount, { id: account.id, type: 'disable' }, { token: adminToken });
    expect(off.status).toBe(200);

    const res = await app.call(adminLogin, { userName: account.userName, passWord: account.password });
    expect(res.status).toBe(Status.ACCOUNT_DISABLED);
    expect(res.msgKey).toBe('login.disabled');
    expect(res.data).toBeNull();
    // The session it had before is gone too.
    expect((await app.call(adminSession, {}, { token })).httpStatus).toBe(401);

    await app.call(operateAccount, { id: account.id, type: 'enable' }, { token: adminToken });
    const again = await app.call(adminLogin, { userName: account.userName, passWord: account.password });
    expect(again.status).toBe(200);
  });

  it('does not tell a wrong password on a disabled account apart from any other wrong password', async () => {
    const account = await makeAccount(app, adminToken, 'disabledSenior2', 'SENIOR_ROLE');
    await app.call(operateAccount, { id: account.id, type: 'disable' }, { token: adminToken });
    const res = await app.call(adminLogin, { userName: account.userName, passWord: 'Wrong#Pass77' });
    expect(res.status).toBe(Status.WRONG_CREDENTIALS);
    expect(res.msgKey).toBe('login.wrong');
  });

  it('answers 107 for the accounts of a disabled provider and of its class 2 children', async () => {
    const parent = await makeProvider(app, adminToken, 'Sunrise Care');
    const child = await makeProvider(app, adminToken, 'Sunrise East', { parentId: parent.id });
    const parentToken = await app.login(parent.userName, parent.password);
    const staff = await makeAccount(app, parentToken, 'sunriseStaff1', 'SUB_ROLE');
    // All of them can log in while the provider is enabled.
    for (const who of [parent, child, staff]) {
      const ok = await app.call(adminLogin, { userName: who.userName, passWord: who.password });
      expect(ok.status, who.userName).toBe(200);
    }

    const off = await app.call(operateProvider, { id: parent.id, type: 'disable' }, { token: adminToken });
    expect(off.status).toBe(200);
    for (const who of [parent, child, staff]) {
      const res = await app.call(adminLogin, { userName: who.userName, passWord: who.password });
      expect(res.status, who.userName).toBe(Status.ACCOUNT_DISABLED);
      expect(res.msgKey, who.userName).toBe('login.disabled');
    }

    await app.call(operateProvider, { id: parent.id, type: 'enable' }, { token: adminToken });
    const back = await app.call(adminLogin, { userName: staff.userName, passWord: staff.password });
    expect(back.status).toBe(200);
  });

  it('answers a provider login with its provider data', async () => {
    const provider = await makeProvider(app, adminToken, 'Harbour Homes');
    const res = await app.call(adminLogin, { userName: provider.userName, passWord: provider.password });
    expect(res.status).toBe(200);
    expect(res.data?.role).toBe('ONE_ROLE');
    expect(res.data?.providerRole).toBe('ONE_ROLE');
    expect(res.data?.providerId).toBe(provider.id);
    expect(res.data?.providerName).toBe('Harbour Homes');
    expect(res.data?.domain).toEqual(expect.any(String));
    expect(res.data?.mustChangePassword).toBe(false);
  });

  it('refuses an installer on the web console with login.noAccess but lets it in from the app', async () => {
    const provider = await makeProvider(app, adminToken, 'Installer Works');
    const providerToken = await app.login(provider.userName, provider.password);
    const installer = await makeAccount(app, providerToken, 'installer01', 'MAINTAIN');

    const pc = await app.call(adminLogin, { userName: installer.userName, passWord: installer.password, from: 'PC' });
    expect(pc.status).toBe(Status.FAILED);
    expect(pc.msgKey).toBe('login.noAccess');
    expect(pc.data).toBeNull();
    const zh = await app.call(
      adminLogin,
      { userName: installer.userName, passWord: installer.password },
      { lang: 'zh-CN' },
    );
    expect(zh.msgKey).toBe('login.noAccess');
    expect(zh.msg).toBe('该账号没有访问权限，请确认账号。');

    const appLogin = await app.call(adminLogin, {
      userName: installer.userName,
      passWord: installer.password,
      from: 'APP',
    });
    expect(appLogin.status).toBe(200);
    expect(appLogin.data?.role).toBe('MAINTAIN');
    expect(appLogin.data?.providerId).toBe(provider.id);
  });

  it('keeps the web roles out of the app channel', async () => {
    const res = await app.call(adminLogin, { userName: ADMIN_USER, passWord: ADMIN_PASSWORD, from: 'APP' });
    expect(res.status).toBe(Status.FAILED);
    expect(res.msgKey).toBe('login.noAccess');
  });

  it('checks the password before telling about access rights', async () => {
    const provider = await makeProvider(app, adminToken, 'Quiet Installers');
    const providerToken = await app.login(provider.userName, provider.password);
    const installer = await makeAccount(app, providerToken, 'installer02', 'MAINTAIN');
    const res = await app.call(adminLogin, { userName: installer.userName, passWord: `${STRONG_PASSWORD}!` });
    expect(res.status).toBe(Status.WRONG_CREDENTIALS);
    expect(res.msgKey).toBe('login.wrong');
  });
});
