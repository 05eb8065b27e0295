import {
  adminLogin,
  adminUpdatePassword,
  queryAccountList,
  queryProviderList,
  Status,
  unlockAccount,
} from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditLog } from '../../db/schema.ts';
import { makeAccount, makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { ADDRESS_FAILURE_LIMIT } from './login-guard.ts';

const WRONG = 'Wrong#Pass2026';

/**
 * Issue 8, points 15 and 25: five wrong passwords from anywhere locked any account (the super
 * administrator's too) and only existing names, so names could be enumerated; old-password guesses
 * were free; an administrator could neither see nor lift a lock.
 */
describeEachDb('sign-in lockout by name and address (%s)', (target) => {
  let app: TestApp;
  let admin: string;
  beforeAll(async () => {
    app = await createTestApp(target);
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
  });
  afterAll(() => app.close());

  /** A login as the browser at `ip` sends it. */
  const loginFrom = async (ip: string, userName: string, passWord: string) => {
    const res = await app.app.inject({
      method: 'POST',
      url: '/admin/login',
      remoteAddress: ip,
      headers: { 'accept-language': 'en-US' },
      payload: { userName, passWord },
    });
    return res.json<{ status: number; msg: string; msgKey?: string; data: { token: string } | null }>();
  };

  it('locks a name from the guessing address only: the owner elsewhere still signs in', async () => {
    const owner = await makeAccount(app, admin, 'lockedElsewhere', 'SENIOR_ROLE');
    for (let i = 0; i < 5; i++) await loginFrom('203.0.113.7', owner.userName, WRONG);
    expect((await loginFrom('203.0.113.7', owner.userName, owner.password)).msgKey).toBe('login.locked');
    const fromOffice = await loginFrom('198.51.100.20', owner.userName, owner.password);
    expect(fromOffice.status).toBe(Status.OK);
    // Not even the super administrator can be locked out by a stranger.
    for (let i = 0; i < 6; i++) await loginFrom('203.0.113.8', ADMIN_USER, WRONG);
    expect((await loginFrom('198.51.100.21', ADMIN_USER, ADMIN_PASSWORD)).status).toBe(Status.OK);
  });

  it('answers a known and an unknown name alike, failure by failure, and counts both the same way', async () => {
    const known = await makeAccount(app, admin, 'knownName01', 'SENIOR_ROLE');
    const auditBefore = (await app.database.db.select().from(auditLog)).length;
    for (let i = 1; i <= 6; i++) {
      const a = await loginFrom('192.0.2.50', known.userName, WRONG);
      const b = await loginFrom('192.0.2.51', 'noSuchName01', WRONG);
      expect({ status: b.status, key: b.msgKey, msg: b.msg }, `attempt ${i}`).toEqual({
        status: a.status,
        key: a.msgKey,
        msg: a.msg,
      });
    }
    // Both names locked after the fifth failure, and each failure left one audit row.
    expect((await loginFrom('192.0.2.51', 'noSuchName01', WRONG)).msgKey).toBe('login.locked');
    expect((await app.database.db.select().from(auditLog)).length - auditBefore).toBe(10);
  });

  it('limits one address across names', async () => {
    for (let i = 0; i < ADDRESS_FAILURE_LIMIT; i++) await loginFrom('192.0.2.99', `spray${i}`, WRONG);
    expect((await loginFrom('192.0.2.99', 'anotherName', WRONG)).msgKey).toBe('login.rateLimited');
  });

  it('counts wrong old passwords towards the lock', async () => {
    const user = await makeAccount(app, admin, 'oldPwGuess', 'SENIOR_ROLE');
    const token = await app.login(user.userName, user.password);
    const guess = () =>
      app.call(
        adminUpdatePassword,
        { userName: user.userName, oldPassWord: WRONG, newPassWord: 'New#Pass2026x' },
        { token },
      );
    for (let i = 0; i < 4; i++) expect((await guess()).status).toBe(Status.OLD_PASSWORD_WRONG);
    expect((await guess()).msgKey).toBe('login.locked');
    expect(
      (
        await app.call(
          adminUpdatePassword,
          { userName: user.userName, oldPassWord: user.password, newPassWord: 'New#Pass2026x' },
          { token },
        )
      ).msgKey,
    ).toBe('login.locked');
  });

  it('shows the lock in the account and provider lists, and lets the administrator lift it', async () => {
    const clerk = await makeAccount(app, admin, 'lockedClerk', 'SENIOR_ROLE');
    const home = await makeProvider(app, admin, 'Locked Home');
    for (let i = 0; i < 5; i++) {
      await app.call(adminLogin, { userName: clerk.userName, passWord: WRONG });
      await app.call(adminLogin, { userName: home.userName, passWord: WRONG });
    }
    const accounts = await app.call(
      queryAccountList,
      { pageNum: 1, pageSize: 50, keyWord: 'lockedClerk' },
      { token: admin },
    );
    expect(accounts.data?.rows[0]?.lockedUntil).toBeTruthy();
    const providers = await app.call(
      queryProviderList,
      { pageNum: 1, pageSize: 50, keyWord: 'Locked Home' },
      { token: admin },
    );
    expect(providers.data?.rows[0]?.loginLockedUntil).toBeTruthy();

    expect((await app.call(unlockAccount, { userName: clerk.userName }, { token: admin })).data?.cleared).toBe(1);
    expect((await app.call(unlockAccount, { userName: home.userName }, { token: admin })).status).toBe(Status.OK);
    expect((await app.login(clerk.userName, clerk.password)).length).toBeGreaterThan(0);
    expect((await app.login(home.userName, home.password)).length).toBeGreaterThan(0);
    // A provider account may not unlock what it does not manage.
    const homeToken = await app.login(home.userName, home.password);
    expect((await app.call(unlockAccount, { userName: clerk.userName }, { token: homeToken })).status).not.toBe(
      Status.OK,
    );
  });
});
