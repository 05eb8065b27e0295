import { adminLogin, adminSession, adminUpdatePassword, Status, WEAK_PASSWORDS } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { makeAccount } from '../../test/fixtures.ts';

describeEachDb('POST /admin/updatePassword (%s)', (target) => {
  let app: TestApp;
  let adminToken: string;
  let seq = 0;
  beforeAll(async () => {
    app = await createTestApp(target);
    adminToken = await app.login(ADMIN_USER, ADMIN_PASSWORD);
  });
  afterAll(() => app?.close());

  /** A new account, signed in. */
  const signedIn = async () => {
    const account = await makeAccount(app, adminToken, `pwdUser${++seq}x`, 'SENIOR_ROLE');
    const token = await app.login(account.userName, account.password);
    return { ...account, token };
  };

  const change = (who: { userName: string; token: string }, oldPassWord: string, newPassWord: string, lang?: string) =>
    app.call(
      adminUpdatePassword,
      { userName: who.userName, oldPassWord, newPassWord },
      { token: who.token, ...(lang ? { lang } : {}) },
    );

  it('answers HTTP 401 without a session', async () => {
    const res = await app.call(adminUpdatePassword, {
      userName: ADMIN_USER,
      oldPassWord: ADMIN_PASSWORD,
      newPassWord: 'New#Pass2026',
    });
    expect(res.httpStatus).toBe(401);
    expect(res.msgKey).toBe('session.required');
  });

  it('answers 104 password.old_wrong for a wrong old password', async () => {
    const me = await signedIn();
    const res = await change(me, 'Not#MyOld2026', 'New#Pass2026');
    expect(res.status).toBe(Status.OLD_PASSWORD_WRONG);
    expect(res.msgKey).toBe('password.old_wrong');
    expect(res.data).toBeNull();
    const zh = await change(me, 'Not#MyOld2026', 'New#Pass2026', 'zh-CN');
    expect(zh.msg).toBe('旧密码错误。');
    // Nothing changed: the session lives and the old password still works.
    expect((await app.call(adminSession, {}, { token: me.token })).status).toBe(200);
    expect((await app.call(adminLogin, { userName: me.userName, passWord: me.password })).status).toBe(200);
  });

  it('checks the old password before the new one', async () => {
    const me = await signedIn();
    const res = await change(me, 'Not#MyOld2026', 'weak');
    expect(res.status).toBe(Status.OLD_PASSWORD_WRONG);
  });

  it('refuses each of the 15 weak passwords with password.security', async () => {
    const me = await signedIn();
    expect(WEAK_PASSWORDS).toHaveLength(15);
    for (const weak of WEAK_PASSWORDS) {
      const res = await change(me, me.password, weak);
      expect(res.status, weak).toBe(Status.INVALID_INPUT);
      expect(res.msgKey, weak).toBe('password.security');
    }
    const upper = await change(me, me.password, WEAK_PASSWORDS[0]?.toUpperCase() ?? '');
    expect(upper.msgKey).toBe('password.security');
    const en = await change(me, me.password, 'P@ssw0rd');
    expect(en.msg).toBe('This password is too common. Choose another one.');
    expect((await app.call(adminLogin, { userName: me.userName, passWord: me.password })).status).toBe(200);
  });

  it('refuses passwords breaking the composition rules with password.rules', async () => {
    const me = await signedIn();
    const cases: Record<string, string> = {
      tooShort: 'Ab1!efg',
      tooLong: 'Ab1!efghijklmnopq',
      noDigit: 'Abcdefgh!',
      noUpper: 'abcdefg1!',
      noLower: 'ABCDEFG1!',
      noSpecial: 'Abcdefg12',
      whiteSpace: 'Abc 1234!',
    };
    for (const [name, password] of Object.entries(cases)) {
      const res = await change(me, me.password, password);
      expect(res.status, name).toBe(Status.INVALID_INPUT);
      expect(res.msgKey, name).toBe('password.rules');
    }
    const zh = await change(me, me.password, 'short', 'zh-CN');
    expect(zh.msg).toBe('密码须为 8 到 16 位，包含数字、小写字母、大写字母和特殊字符。');
  });

  it('refuses the same password again with password.same', async () => {
    const me = await signedIn();
    const res = await change(me, me.password, me.password);
    expect(res.status).toBe(Status.INVALID_INPUT);
    expect(res.msgKey).toBe('password.same');
  });

  it('answers password.notYours for somebody else’s account', async () => {
    const me = await signedIn();
    const other = await signedIn();
    const res = await app.call(
      adminUpdatePassword,
      { userName: other.userName, oldPassWord: other.password, newPassWord: 'Taken#Over2026' },
      { token: me.token },
    );
    expect(res.status).toBe(Status.FAILED);
    expect(res.msgKey).toBe('password.notYours');
    // Neither password moved.
    expect((await app.call(adminLogin, { userName: other.userName, passWord: other.password })).status).toBe(200);
    expect((await app.call(adminLogin, { userName: other.userName, passWord: 'Taken#Over2026' })).status).toBe(
      Status.WRONG_CREDENTIALS,
    );
    // The administrator cannot use this call on other accounts either.
    const admin = await app.call(
      adminUpdatePassword,
      { userName: other.userName, oldPassWord: other.password, newPassWord: 'Taken#Over2026' },
      { token: adminToken },
    );
    expect(admin.msgKey).toBe('password.notYours');
  });

  it('changes the password and ends every session of the account, and only of that account', async () => {
    const me = await signedIn();
    const second = await app.login(me.userName, me.password);
    const bystander = await signedIn();
    const next = 'Fresh#Start26';

    const res = await change(me, me.password, next);
    expect(res.status).toBe(200);
    expect(res.msgKey).toBeUndefined();

    for (const token of [me.token, second]) {
      const after = await app.call(adminSession, {}, { token });
      expect(after.httpStatus).toBe(401);
      expect(after.msgKey).toBe('session.required');
    }
    expect((await app.call(adminSession, {}, { token: bystander.token })).status).toBe(200);
    expect((await app.call(adminSession, {}, { token: adminToken })).status).toBe(200);

    const old = await app.call(adminLogin, { userName: me.userName, passWord: me.password });
    expect(old.status).toBe(Status.WRONG_CREDENTIALS);
    expect(old.msgKey).toBe('login.wrong');
    const fresh = await app.call(adminLogin, { userName: me.userName, passWord: next });
    expect(fresh.status).toBe(200);
    expect(fresh.data?.mustChangePassword).toBe(false);
  });

  it('accepts the own account name in another letter case', async () => {
    const me = await signedIn();
    const res = await change({ ...me, userName: me.userName.toUpperCase() }, me.password, 'Upper#Case26');
    expect(res.status).toBe(200);
  });

  it('keeps the bootstrap administrator unflagged through a password change', async () => {
    const before = await app.call(adminLogin, { userName: ADMIN_USER, passWord: ADMIN_PASSWORD });
    expect(before.data?.mustChangePassword).toBe(false);
    const token = before.data?.token ?? '';
    const next = 'Admin#Rotated26';
    expect((await change({ userName: ADMIN_USER, token }, ADMIN_PASSWORD, next)).status).toBe(200);
    const after = await app.call(adminLogin, { userName: ADMIN_USER, passWord: next });
    expect(after.data?.mustChangePassword).toBe(false);
    // Put it back for any later test and refresh the administrator token the change revoked.
    const back = await change({ userName: ADMIN_USER, token: after.data?.token ?? '' }, next, 'Admin#Restored26');
    expect(back.status).toBe(200);
    adminToken = await app.login(ADMIN_USER, 'Admin#Restored26');
  });
});
