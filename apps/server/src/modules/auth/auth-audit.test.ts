import { createHmac } from 'node:crypto';
import { adminLogin, adminLogout, adminSso, adminUpdatePassword, queryAuditLog } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { makeAccount } from '../../test/fixtures.ts';

const WRONG = 'Audit#Wrong2026';

describeEachDb('audit of logins and password changes (%s)', (target) => {
  let app: TestApp;
  let adminToken: string;
  let account: { id: number; userName: string; password: string };
  const newPassword = 'Audit#Changed26';

  beforeAll(async () => {
    app = await createTestApp(target);
    adminToken = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    account = await makeAccount(app, adminToken, 'auditUser1', 'SENIOR_ROLE');

    const token = await app.login(account.userName, account.password);
    await app.call(adminLogout, {}, { token });
    await app.call(adminLogin, { userName: account.userName, passWord: WRONG });
    await app.call(adminLogin, { userName: 'ghostAuditor9', passWord: WRONG });
    const second = await app.login(account.userName, account.password);
    const changed = await app.call(
      adminUpdatePassword,
      { userName: account.userName, oldPassWord: account.password, newPassWord: newPassword },
      { token: second },
    );
    if (changed.status !== 200) throw new Error(`updatePassword: ${changed.msg}`);
  });
  afterAll(() => app?.close());

  const entries = async (action: string) => {
    const res = await app.call(queryAuditLog, { action, pageSize: 100 }, { token: adminToken });
    expect(res.status).toBe(200);
    return res.data?.rows ?? [];
  };

  it('records logins with the client address and channel', async () => {
    const rows = (await entries('login')).filter((r) => r.userName === account.userName);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.action).toBe('login');
      expect(row.userId).toBe(account.id);
      expect(row.ip).toBe('127.0.0.1');
      expect(row.detail).toEqual({ from: 'PC' });
      expect(Number.isNaN(Date.parse(row.time))).toBe(false);
    }
  });

  it('records the logout', async () => {
    const rows = (await entries('logout')).filter((r) => r.userName === account.userName);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.userId).toBe(account.id);
    expect(rows[0]?.ip).toBe('127.0.0.1');
  });

  it('records failed logins of known and unknown accounts without the password tried', async () => {
    const rows = await entries('login.failed');
    const known = rows.filter((r) => r.userName === account.userName);
    expect(known).toHaveLength(1);
    expect(known[0]?.userId).toBe(account.id);
    expect(known[0]?.ip).toBe('127.0.0.1');
    const unknown = rows.filter((r) => r.userName === 'ghostAuditor9');
    expect(unknown).toHaveLength(1);
    expect(unknown[0]?.userId).toBeNull();
    expect(unknown[0]?.ip).toBe('127.0.0.1');
    expect(unknown[0]?.detail).toEqual({ reason: 'unknown-account' });
    expect(JSON.stringify(rows)).not.toContain(WRONG);
  });

  it('records the password change without either password', async () => {
    const rows = (await entries('password.change')).filter((r) => r.userName === account.userName);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.userId).toBe(account.id);
    expect(rows[0]?.targetType).toBe('account');
    expect(rows[0]?.targetId).toBe(String(account.id));
    expect(rows[0]?.ip).toBe('127.0.0.1');
    const all = JSON.stringify(await entries('password.change'));
    expect(all).not.toContain(newPassword);
    expect(all).not.toContain(account.password);
  });

  it('lists the actions newest first', async () => {
    const res = await app.call(queryAuditLog, { keyWord: account.userName, pageSize: 100 }, { token: adminToken });
    const actions = (res.data?.rows ?? []).filter((r) => r.userName === account.userName).map((r) => r.action);
    expect(actions.slice(0, 5)).toEqual(['password.change', 'login', 'login.failed', 'logout', 'login']);
  });

  it('records the address a proxy forwards', async () => {
    await app.app.inject({
      method: 'POST',
      url: adminLogin.path,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.7' },
      payload: JSON.stringify({ userName: account.userName, passWord: newPassword }),
    });
    const rows = (await entries('login')).filter((r) => r.userName === account.userName);
    expect(rows[0]?.ip).toBe('198.51.100.7');
  });

  it('records fast logins and lockouts under their own actions', async () => {
    const timestamp = String(Math.floor(app.clock.now().getTime() / 1000));
    const secretPassword = createHmac('sha256', 'test-sso-secret-0123456789')
      .update(account.userName + timestamp)
      .digest('hex');
    expect((await app.call(adminSso, { userName: account.userName, secretPassword, timestamp })).status).toBe(200);
    const sso = (await entries('login.sso')).filter((r) => r.userName === account.userName);
    expect(sso).toHaveLength(1);
    expect(sso[0]?.ip).toBe('127.0.0.1');

    for (let i = 0; i < 5; i++) await app.call(adminLogin, { userName: account.userName, passWord: WRONG });
    const locked = (await entries('login.locked')).filter((r) => r.userName === account.userName);
    expect(locked).toHaveLength(1);
  });

  it('is not readable without an audit role', async () => {
    const token = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const other = await makeAccount(app, token, 'auditBusiness1', 'BUSINESS_ROLE');
    const businessToken = await app.login(other.userName, other.password);
    const res = await app.call(queryAuditLog, {}, { token: businessToken });
    expect(res.status).toBe(300);
    expect(res.msgKey).toBe('no_permission');
  });
});
