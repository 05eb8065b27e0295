import { adminLogin, operateAccount, Status } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { makeAccount } from '../../test/fixtures.ts';

const MIN = 60_000;
const WRONG = 'Wrong#Pass2026';

describeEachDb('login lockout (%s)', (target) => {
  let app: TestApp;
  let adminToken: string;
  let seq = 0;
  beforeAll(async () => {
    app = await createTestApp(target);
    adminToken = await app.login(ADMIN_USER, ADMIN_PASSWORD);
  });
  afterAll(() => app?.close());

  const freshAccount = async () => makeAccount(app, adminToken, `lockUser${++seq}x`, 'SENIOR_ROLE');
  const attempt = (userName: string, passWord: string, lang?: string) =>
    app.call(adminLogin, { userName, passWord }, lang ? { lang } : {});

  it('locks on the fifth wrong password within 15 minutes and refuses even the right one', async () => {
    const account = await freshAccount();
    for (let i = 1; i <= 4; i++) {
      const res = await attempt(account.userName, WRONG);
      expect(res.status, `attempt ${i}`).toBe(Status.WRONG_CREDENTIALS);
      expect(res.msgKey, `attempt ${i}`).toBe('login.wrong');
      app.clock.advance(MIN);
    }
    const fifth = await attempt(account.userName, WRONG);
    expect(fifth.status).toBe(Status.FAILED);
    expect(fifth.msgKey).toBe('login.locked');
    expect(fifth.msg).toBe('Too many failed logins. This account is locked; try again in 15 minutes.');

    const sixth = await attempt(account.userName, WRONG);
    expect(sixth.msgKey).toBe('login.locked');
    const right = await attempt(account.userName, account.password);
    expect(right.status).toBe(Status.FAILED);
    expect(right.msgKey).toBe('login.locked');
    expect(right.data).toBeNull();

    app.clock.advance(10 * MIN);
    const zh = await attempt(account.userName, account.password, 'zh-CN');
    expect(zh.msgKey).toBe('login.locked');
    expect(zh.msg).toBe('登录失败次数过多，账号已锁定，请 5 分钟后再试。');
  });

  it('unlocks after 15 minutes, and a success clears the failure count', async () => {
    const account = await freshAccount();
    for (let i = 0; i < 5; i++) await attempt(account.userName, WRONG);
    expect((await attempt(account.userName, account.password)).msgKey).toBe('login.locked');

    app.clock.advance(15 * MIN - 1_000);
    expect((await attempt(account.userName, account.password)).msgKey).toBe('login.locked');
    app.clock.advance(1_000);
    const unlocked = await attempt(account.userName, account.password);
    expect(unlocked.status).toBe(200);

    // Four more failures after the success do not lock: the count started again.
    for (let i = 0; i < 4; i++) expect((await attempt(account.userName, WRONG)).msgKey).toBe('login.wrong');
    expect((await attempt(account.userName, account.password)).status).toBe(200);
  });

  it('does not extend the lock with attempts made while locked', async () => {
    const account = await freshAccount();
    for (let i = 0; i < 5; i++) await attempt(account.userName, WRONG);
    for (let i = 0; i < 14; i++) {
      app.clock.advance(MIN);
      expect((await attempt(account.userName, WRONG)).msgKey).toBe('login.locked');
    }
    app.clock.advance(MIN);
    expect((await attempt(account.userName, account.password)).status).toBe(200);
  });

  it('gives a wrong password after the lock ran out a fresh count', async () => {
    const account = await freshAccount();
    for (let i = 0; i < 5; i++) await attempt(account.userName, WRONG);
    app.clock.advance(15 * MIN);
    const res = await attempt(account.userName, WRONG);
    expect(res.status).toBe(Status.WRONG_CREDENTIALS);
    expect(res.msgKey).toBe('login.wrong');
  });

  it('does not lock failures spread over more than 15 minutes', async () => {
    const account = await freshAccount();
    for (let i = 0; i < 6; i++) {
      const res = await attempt(account.userName, WRONG);
      expect(res.msgKey, `failure ${i + 1}`).toBe('login.wrong');
      app.clock.advance(4 * MIN);
    }
    expect((await attempt(account.userName, account.password)).status).toBe(200);
  });

  it('locks one account without touching the others', async () => {
    const locked = await freshAccount();
    const other = await freshAccount();
    for (let i = 0; i < 5; i++) await attempt(locked.userName, WRONG);
    expect((await attempt(locked.userName, locked.password)).msgKey).toBe('login.locked');
    expect((await attempt(other.userName, other.password)).status).toBe(200);
    expect((await attempt(ADMIN_USER, ADMIN_PASSWORD)).status).toBe(200);
  });

  it('counts failures whatever letter case the account name is typed in', async () => {
    const account = await freshAccount();
    for (const name of ['LOCKUSER', 'lockuser', 'LockUser', 'lOcKuSeR', 'LOCKuser']) {
      await attempt(name + account.userName.slice(8), WRONG);
    }
    expect((await attempt(account.userName, account.password)).msgKey).toBe('login.locked');
  });

  it('lets an administrator lift the lock with a password reset', async () => {
    const account = await freshAccount();
    for (let i = 0; i < 5; i++) await attempt(account.userName, WRONG);
    const reset = await app.call(operateAccount, { id: account.id, type: 'resetPassword' }, { token: adminToken });
    expect(reset.status).toBe(200);
    const fresh = reset.data?.initialPassword ?? '';
    expect(fresh).not.toBe('');
    expect((await attempt(account.userName, fresh)).status).toBe(200);
  });

  it('locks after five wrong passwords sent at the same time', async () => {
    const account = await freshAccount();
    const answers = await Promise.all(Array.from({ length: 5 }, () => attempt(account.userName, WRONG)));
    expect(answers.every((a) => a.msgKey === 'login.wrong' || a.msgKey === 'login.locked')).toBe(true);
    const right = await attempt(account.userName, account.password);
    expect(right.msgKey).toBe('login.locked');
  });

  it('never lets more than four wrong passwords through in a burst', async () => {
    const account = await freshAccount();
    const answers = await Promise.all(Array.from({ length: 12 }, () => attempt(account.userName, WRONG)));
    const wrong = answers.filter((a) => a.msgKey === 'login.wrong').length;
    expect(wrong).toBeLessThanOrEqual(4);
    expect(answers.filter((a) => a.msgKey === 'login.locked').length).toBeGreaterThanOrEqual(8);
  });
});
