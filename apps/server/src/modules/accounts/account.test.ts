import {
  adminLogin,
  adminSession,
  changeProvider,
  CREATABLE_ROLES,
  getProvider,
  insertAccount,
  operateAccount,
  operateProvider,
  queryAccountList,
  ROLES,
  type Role,
} from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccount, makeProvider, STRONG_PASSWORD } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';

type Who = { id: number; userName: string; password: string };

describeEachDb('accounts (%s)', (target) => {
  let app: TestApp;
  let admin: string;
  let adminId: number;
  // Class 1 provider P1 with class 2 providers C1 and C1b; a foreign class 1 P2 with class 2 C2.
  let p1: Who;
  let c1: Who;
  let c1b: Who;
  let p2: Who;
  let c2: Who;
  let p1Token: string;
  let c1Token: string;
  let p2Token: string;
  let c2Token: string;
  let domains: Record<'p1' | 'c1' | 'c1b' | 'p2' | 'c2', string>;

  const login = (userName: string, passWord: string) => app.call(adminLogin, { userName, passWord });
  const tokenOf = (who: { userName: string; password: string }) => app.login(who.userName, who.password);
  const sessionStatus = async (token: string) => (await app.call(adminSession, {}, { token })).httpStatus;
  const domainOf = async (id: number) => (await app.call(getProvider, { id }, { token: admin })).data?.domain ?? '';
  const listIds = async (token: string, extra: Record<string, unknown> = {}) =>
    (await app.call(queryAccountList, { pageSize: 1000, ...extra }, { token })).data?.rows.map((r) => r.id) ?? [];

  beforeAll(async () => {
    app = await createTestApp(target);
    const adminLoginRes = await login(ADMIN_USER, ADMIN_PASSWORD);
    admin = adminLoginRes.data?.token ?? '';
    adminId = adminLoginRes.data?.userId ?? 0;
    p1 = await makeProvider(app, admin, 'Acct P One');
    p2 = await makeProvider(app, admin, 'Acct P Two');
    p1Token = await tokenOf(p1);
    p2Token = await tokenOf(p2);
    c1 = await makeProvider(app, p1Token, 'Acct C One');
    c1b = await makeProvider(app, p1Token, 'Acct C One B');
    c2 = await makeProvider(app, p2Token, 'Acct C Two');
    c1Token = await tokenOf(c1);
    c2Token = await tokenOf(c2);
    domains = {
      p1: await domainOf(p1.id),
      c1: await domainOf(c1.id),
      c1b: await domainOf(c1b.id),
      p2: await domainOf(p2.id),
      c2: await domainOf(c2.id),
    };
  });
  afterAll(() => app?.close());

  describe('creating per role (CREATABLE_ROLES)', () => {
    const creatorRoles = Object.keys(CREATABLE_ROLES) as Role[];

    it.each(creatorRoles)('%s creates exactly the roles it may, and lists what it manages', async (creator) => {
      const short = creator.replace('_ROLE', '').toLowerCase();
      let token: string;
      let ownProvider: number | null = null;
      if (creator === 'SUPER_ROLE') token = admin;
      else if (creator === 'ONE_ROLE') [token, ownProvider] = [p1Token, p1.id];
      else if (creator === 'TWO_ROLE') [token, ownProvider] = [c1Token, c1.id];
      else token = await tokenOf(await makeAccount(app, admin, `cr${short}Maker`, creator));
      const allowed = CREATABLE_ROLES[creator] ?? [];
      expect(allowed).not.toContain('SUPER_ROLE');
      const created: number[] = [];
      for (const role of ROLES) {
        const userName = `cr${short}${role.replace(/_/g, '').toLowerCase()}`.slice(0, 64);
        const res = await app.call(
          insertAccount,
          { userName, nickName: `${creator} made ${role}`, role, passWord: STRONG_PASSWORD },
          { token },
        );
        if (allowed.includes(role)) {
          expect(res.status, `${creator} → ${role}`).toBe(200);
          expect(res.data?.initialPassword).toBeNull();
          created.push(res.data?.id ?? 0);
        } else {
          expect(res.status, `${creator} → ${role}`).toBe(300);
          expect(res.msgKey, `${creator} → ${role}`).toBe('account.roleNotAllowed');
        }
      }
      const list = await app.call(queryAccountList, { pageSize: 1000 }, { token });
      expect(list.status).toBe(200);
      const rows = list.data?.rows ?? [];
      expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining(created));
      for (const row of rows) {
        expect(allowed, `${creator} lists ${row.userName} (${row.role})`).toContain(row.role);
        expect(row.userName).not.toBe(ADMIN_USER);
        if (ownProvider !== null && creator === 'TWO_ROLE') expect(row.providerId).toBe(ownProvider);
      }
      if (ownProvider !== null) {
        const mine = rows.filter((r) => created.includes(r.id));
        for (const row of mine) expect(row).toMatchObject({ providerId: ownProvider, enabled: true });
      }
    });

    it('never lets anyone create SUPER_ROLE, ONE_ROLE or TWO_ROLE through account management', async () => {
      for (const token of [admin, p1Token, c1Token]) {
        for (const role of ['SUPER_ROLE', 'ONE_ROLE', 'TWO_ROLE'] as const) {
          const res = await app.call(
            insertAccount,
            { userName: `never${role.replace(/_/g, '')}`, nickName: 'x', role, passWord: STRONG_PASSWORD },
            { token },
          );
          expect(res.msgKey).toBe('account.roleNotAllowed');
        }
      }
    });

    it('refuses GOVERNMENT from a class 2 login, accepts it from a class 1 login', async () => {
      const two = await app.call(
        insertAccount,
        { userName: 'govFromTwo', nickName: 'Gov', role: 'GOVERNMENT', passWord: STRONG_PASSWORD },
        { token: c1Token },
      );
      expect(two.status).toBe(300);
      expect(two.msgKey).toBe('account.roleNotAllowed');
      const one = await app.call(
        insertAccount,
        { userName: 'govFromOne', nickName: 'Gov', role: 'GOVERNMENT', passWord: STRONG_PASSWORD },
        { token: p1Token },
      );
      expect(one.status).toBe(200);
    });

    it('refuses accounts for another provider (no_permission) and lets class 1 place one under its class 2', async () => {
      const foreign = await app.call(
        insertAccount,
        { userName: 'foreignPlaced', nickName: 'x', role: 'SUB_ROLE', providerId: p2.id, passWord: STRONG_PASSWORD },
        { token: p1Token },
      );
      expect(foreign.status).toBe(300);
      expect(foreign.msgKey).toBe('no_permission');
      const upward = await app.call(
        insertAccount,
        { userName: 'upwardPlaced', nickName: 'x', role: 'SUB_ROLE', providerId: p1.id, passWord: STRONG_PASSWORD },
        { token: c1Token },
      );
      expect(upward.msgKey).toBe('no_permission');
      const down = await app.call(
        insertAccount,
        { userName: 'downPlaced', nickName: 'x', role: 'MAINTAIN', providerId: c1.id, passWord: STRONG_PASSWORD },
        { token: p1Token },
      );
      expect(down.status).toBe(200);
      expect(await listIds(c1Token)).toContain(down.data?.id);
      expect(await listIds(p2Token)).not.toContain(down.data?.id);
    });

    it('checks the role before the provider, and refuses an unknown provider (not_found)', async () => {
      const senior = await tokenOf(await makeAccount(app, admin, 'seniorNoProv', 'SENIOR_ROLE'));
      // SENIOR_ROLE may not create MAINTAIN at all; SUPER_ROLE neither: the role check comes first.
      const res = await app.call(
        insertAccount,
        { userName: 'maintNoProv', nickName: 'x', role: 'MAINTAIN', passWord: STRONG_PASSWORD },
        { token: senior },
      );
      expect(res.msgKey).toBe('account.roleNotAllowed');
      const unknownProvider = await app.call(
        insertAccount,
        { userName: 'subNoSuchProv', nickName: 'x', role: 'SUB_ROLE', providerId: 999_999, passWord: STRONG_PASSWORD },
        { token: admin },
      );
      expect(unknownProvider.msgKey).toBe('not_found');
    });

    it('refuses a duplicate login account case-insensitively (account.exists)', async () => {
      await makeAccount(app, p1Token, 'DupUser01', 'SUB_ROLE');
      for (const [token, userName] of [
        [p1Token, 'dupuser01'],
        [p2Token, 'DUPUSER01'],
        [admin, 'DupUser01'],
        [p1Token, p1.userName.toUpperCase()],
      ] as const) {
        const res = await app.call(
          insertAccount,
          { userName, nickName: 'Dup', role: 'SUB_ROLE', passWord: STRONG_PASSWORD },
          { token },
        );
        expect(res.status, userName).toBe(300);
        expect(res.msgKey, userName).toBe('account.exists');
      }
    });

    it('validates the login account and the password', async () => {
      for (const userName of ['abcde', 'a'.repeat(65), 'abc_def', '护理员账号一号']) {
        const res = await app.call(
          insertAccount,
          { userName, nickName: 'x', role: 'SUB_ROLE', passWord: STRONG_PASSWORD },
          { token: p1Token },
        );
        expect(res.status, userName).toBe(400);
        expect(res.msgKey).toBe('validation.loginAccount');
      }
      const weak = await app.call(
        insertAccount,
        { userName: 'weakPwSub', nickName: 'x', role: 'SUB_ROLE', passWord: 'short' },
        { token: p1Token },
      );
      expect(weak.status).toBe(400);
      expect(weak.msgKey).toBe('password.rules');
      expect((await login('weakPwSub', 'short')).status).toBe(102);
    });

    it('generates an initial password when none is given', async () => {
      const res = await app.call(
        insertAccount,
        { userName: 'genPwSub', nickName: 'Gen', role: 'SUB_ROLE' },
        { token: p1Token },
      );
      expect(res.status).toBe(200);
      const session = await login('genPwSub', res.data?.initialPassword ?? '');
      expect(session.status).toBe(200);
      expect(session.data?.mustChangePassword).toBe(true);
    });
  });

  describe('listing', () => {
    it('pages, searches and filters the accounts a caller manages', async () => {
      const made: number[] = [];
      for (const n of [1, 2, 3]) made.push((await makeAccount(app, p2Token, `pagedSub0${n}`, 'SUB_ROLE')).id);
      made.push((await makeAccount(app, p2Token, 'pagedMaint1', 'MAINTAIN')).id);
      const page1 = await app.call(queryAccountList, { keyWord: 'paged', pageSize: 3 }, { token: p2Token });
      expect(page1.data).toMatchObject({ total: 4, pageNum: 1, pageSize: 3 });
      const page2 = await app.call(queryAccountList, { keyWord: 'paged', pageSize: 3, pageNum: 2 }, { token: p2Token });
      expect([...(page1.data?.rows ?? []), ...(page2.data?.rows ?? [])].map((r) => r.id)).toEqual([...made].reverse());
      expect(await listIds(p2Token, { keyWord: 'PAGED', role: 'MAINTAIN' })).toEqual([made[3]]);
      const row = (await app.call(queryAccountList, { keyWord: 'pagedSub01' }, { token: p2Token })).data?.rows[0];
      expect(row).toMatchObject({
        userName: 'pagedSub01',
        nickName: 'pagedSub01',
        role: 'SUB_ROLE',
        providerId: p2.id,
      });
      expect(row?.providerName).toBe('Acct P Two');
      // Another provider's accounts are not listed, even when searched for.
      expect(await listIds(p1Token, { keyWord: 'paged' })).toEqual([]);
      expect(await listIds(c2Token, { keyWord: 'paged' })).toEqual([]);
      // The platform sees them.
      expect(await listIds(admin, { keyWord: 'paged' })).toEqual(expect.arrayContaining(made.slice(0, 3)));
    });

    it('lets a class 1 login see its class 2 providers sub-accounts, but not the reverse', async () => {
      const underC1 = await makeAccount(app, c1Token, 'visibleUnderC1', 'SUB_ROLE');
      const underP1 = await makeAccount(app, p1Token, 'hiddenFromC1', 'SUB_ROLE');
      expect(await listIds(p1Token)).toEqual(expect.arrayContaining([underC1.id, underP1.id]));
      const c1Ids = await listIds(c1Token);
      expect(c1Ids).toContain(underC1.id);
      expect(c1Ids).not.toContain(underP1.id);
    });
  });

  describe('operating', () => {
    it('edits the display name and remark', async () => {
      const sub = await makeAccount(app, p1Token, 'editNickSub', 'SUB_ROLE');
      const res = await app.call(
        operateAccount,
        { id: sub.id, type: 'edit', nickName: 'Night Nurse', remark: 'floor 2' },
        { token: p1Token },
      );
      expect(res.status).toBe(200);
      expect(res.data?.initialPassword).toBeNull();
      const row = (await app.call(queryAccountList, { keyWord: 'editNickSub' }, { token: p1Token })).data?.rows[0];
      expect(row).toMatchObject({ nickName: 'Night Nurse', remark: 'floor 2' });
      expect((await login(sub.userName, sub.password)).data?.name).toBe('Night Nurse');
    });

    it('narrows what a sub-account sees with permissionType 1 and providerIds', async () => {
      const sub = await makeAccount(app, p1Token, 'scopedSub01', 'SUB_ROLE');
      const before = await login(sub.userName, sub.password);
      expect(before.data?.permissionType).toBe(0);
      expect(before.data?.providerList.map((p) => p.id).sort()).toEqual([c1.id, c1b.id].sort());
      const oldToken = before.data?.token ?? '';

      const res = await app.call(
        operateAccount,
        { id: sub.id, type: 'edit', permissionType: 1, providerIds: [c1.id] },
        { token: p1Token },
      );
      expect(res.status).toBe(200);
      const row = (await app.call(queryAccountList, { keyWord: 'scopedSub01' }, { token: p1Token })).data?.rows[0];
      expect(row).toMatchObject({ permissionType: 1, providerIds: [c1.id] });
      // The data it may see changed: its old session ends.
      expect(await sessionStatus(oldToken)).toBe(401);
      const after = await login(sub.userName, sub.password);
      expect(after.data?.permissionType).toBe(1);
      expect(after.data?.providerList.map((p) => p.id)).toEqual([c1.id]);
      const token = after.data?.token ?? '';
      expect((await app.call(getProvider, { id: c1.id }, { token })).status).toBe(200);
      expect((await app.call(getProvider, { id: c1b.id }, { token })).msgKey).toBe('not_found');
      expect((await app.call(changeProvider, { domain: domains.c1b }, { token })).msgKey).toBe(
        'changeProvider.notVisible',
      );
      expect((await app.call(changeProvider, { domain: domains.c1 }, { token })).status).toBe(200);

      // Back to permission type 0: everything of the provider again.
      await app.call(operateAccount, { id: sub.id, type: 'edit', permissionType: 0 }, { token: p1Token });
      const restored = await login(sub.userName, sub.password);
      expect(restored.data?.providerList.map((p) => p.id).sort()).toEqual([c1.id, c1b.id].sort());
    });

    it('creates an account with data permission directly', async () => {
      const res = await app.call(
        insertAccount,
        {
          userName: 'scopedAtBirth',
          nickName: 'x',
          role: 'SUB_ROLE',
          passWord: STRONG_PASSWORD,
          permissionType: 1,
          providerIds: [c1b.id],
        },
        { token: p1Token },
      );
      expect(res.status).toBe(200);
      const session = await login('scopedAtBirth', STRONG_PASSWORD);
      expect(session.data?.providerList.map((p) => p.id)).toEqual([c1b.id]);
    });

    it('refuses data permission outside the caller scope (no_permission)', async () => {
      const insert = await app.call(
        insertAccount,
        {
          userName: 'scopeThief',
          nickName: 'x',
          role: 'SUB_ROLE',
          passWord: STRONG_PASSWORD,
          permissionType: 1,
          providerIds: [c1.id, c2.id],
        },
        { token: p1Token },
      );
      expect(insert.status).toBe(300);
      expect(insert.msgKey).toBe('no_permission');
      expect((await login('scopeThief', STRONG_PASSWORD)).status).toBe(102);

      const sub = await makeAccount(app, p1Token, 'scopeThief2', 'SUB_ROLE');
      const edit = await app.call(
        operateAccount,
        { id: sub.id, type: 'edit', permissionType: 1, providerIds: [p2.id] },
        { token: p1Token },
      );
      expect(edit.status).toBe(300);
      expect(edit.msgKey).toBe('no_permission');
      const row = (await app.call(queryAccountList, { keyWord: 'scopeThief2' }, { token: p1Token })).data?.rows[0];
      expect(row).toMatchObject({ permissionType: 0, providerIds: [] });
      // A class 2 login may not name its parent either.
      const upward = await app.call(
        insertAccount,
        { userName: 'scopeUpward', nickName: 'x', role: 'SUB_ROLE', permissionType: 1, providerIds: [p1.id] },
        { token: c1Token },
      );
      expect(upward.msgKey).toBe('no_permission');
      // The platform may name any existing provider, but not a missing one.
      const missing = await app.call(
        insertAccount,
        { userName: 'scopeMissing', nickName: 'x', role: 'SUB_ROLE', permissionType: 1, providerIds: [999_999] },
        { token: admin },
      );
      expect(missing.msgKey).toBe('not_found');
    });

    it('disables (ending live sessions, login 107) and enables again', async () => {
      const sub = await makeAccount(app, c1Token, 'toggleSub01', 'SUB_ROLE');
      const token = await tokenOf(sub);
      const off = await app.call(operateAccount, { id: sub.id, type: 'disable' }, { token: c1Token });
      expect(off.status).toBe(200);
      expect(await sessionStatus(token)).toBe(401);
      const blocked = await login(sub.userName, sub.password);
      expect(blocked.status).toBe(107);
      expect(blocked.msgKey).toBe('login.disabled');
      expect(await listIds(c1Token, { enabled: false })).toContain(sub.id);
      const on = await app.call(operateAccount, { id: sub.id, type: 'enable' }, { token: c1Token });
      expect(on.status).toBe(200);
      expect((await login(sub.userName, sub.password)).status).toBe(200);
      expect(await listIds(c1Token, { enabled: false })).not.toContain(sub.id);
      // The class 1 login manages its class 2 provider's accounts too.
      expect((await app.call(operateAccount, { id: sub.id, type: 'disable' }, { token: p1Token })).status).toBe(200);
      expect((await login(sub.userName, sub.password)).status).toBe(107);
    });

    it('resets a password: a generated one works, the old one and old sessions do not', async () => {
      const sub = await makeAccount(app, p1Token, 'resetSub01', 'SOCIAL_WORKER');
      const token = await tokenOf(sub);
      const res = await app.call(operateAccount, { id: sub.id, type: 'resetPassword' }, { token: p1Token });
      expect(res.status).toBe(200);
      const fresh = res.data?.initialPassword ?? '';
      expect(fresh.length).toBeGreaterThanOrEqual(8);
      expect(await sessionStatus(token)).toBe(401);
      expect((await login(sub.userName, sub.password)).status).toBe(102);
      const next = await login(sub.userName, fresh);
      expect(next.status).toBe(200);
      expect(next.data?.mustChangePassword).toBe(true);
    });

    it('answers not_found for accounts the caller does not manage, including its own', async () => {
      const p2Sub = await makeAccount(app, p2Token, 'foreignSub01', 'SUB_ROLE');
      const p1Sub = await makeAccount(app, p1Token, 'parentSub01', 'SUB_ROLE');
      const p1Account = (await login(p1.userName, p1.password)).data?.userId ?? 0;
      const c1Account = (await login(c1.userName, c1.password)).data?.userId ?? 0;
      const cases: [string, string, number][] = [
        ['class 1 → foreign provider sub-account', p1Token, p2Sub.id],
        ['class 1 → own account', p1Token, p1Account],
        ['class 1 → its class 2 login account', p1Token, c1Account],
        ['class 2 → parent sub-account', c1Token, p1Sub.id],
        ['class 2 → own account', c1Token, c1Account],
        ['super → own account', admin, adminId],
        ['class 1 → unknown id', p1Token, 987_654],
      ];
      for (const [label, token, id] of cases) {
        for (const type of ['edit', 'disable', 'resetPassword'] as const) {
          const res = await app.call(operateAccount, { id, type, nickName: 'Hacked' }, { token });
          expect(res.status, `${label} ${type}`).toBe(300);
          expect(res.msgKey, `${label} ${type}`).toBe('not_found');
        }
      }
      expect((await login(p2Sub.userName, p2Sub.password)).data?.name).toBe('foreignSub01');
      expect((await login(ADMIN_USER, ADMIN_PASSWORD)).status).toBe(200);
      expect(await sessionStatus(p1Token)).toBe(200);
    });

    it('refuses account management to roles without it (no_permission)', async () => {
      const sub = await makeAccount(app, p1Token, 'plainSub01', 'SUB_ROLE');
      const token = await tokenOf(sub);
      const list = await app.call(queryAccountList, {}, { token });
      expect(list.status).toBe(300);
      expect(list.msgKey).toBe('no_permission');
      const insert = await app.call(
        insertAccount,
        { userName: 'subMadeSub', nickName: 'x', role: 'SUB_ROLE' },
        { token },
      );
      expect(insert.msgKey).toBe('no_permission');
      const operate = await app.call(operateAccount, { id: sub.id, type: 'disable' }, { token });
      expect(operate.msgKey).toBe('no_permission');
      expect((await app.call(queryAccountList, {})).httpStatus).toBe(401);
    });
  });

  describe('changeProvider', () => {
    it('lets a class 1 login choose a visible class 2 provider, and refuses foreign ones', async () => {
      const ok = await app.call(changeProvider, { domain: domains.c1 }, { token: p1Token });
      expect(ok.status).toBe(200);
      expect(ok.data).toEqual({ providerId: c1.id, providerName: 'Acct C One', domain: domains.c1 });
      for (const domain of [domains.c2, domains.p2, 'pnosuchdomain']) {
        const res = await app.call(changeProvider, { domain }, { token: p1Token });
        expect(res.status, domain).toBe(300);
        expect(res.msgKey, domain).toBe('changeProvider.notVisible');
      }
      // A class 2 login may not choose its parent or a sibling.
      for (const domain of [domains.p1, domains.c1b]) {
        expect((await app.call(changeProvider, { domain }, { token: c1Token })).msgKey).toBe(
          'changeProvider.notVisible',
        );
      }
      expect((await app.call(changeProvider, { domain: domains.c1 }, { token: c1Token })).status).toBe(200);
    });

    it('refuses a disabled provider', async () => {
      const extra = await makeProvider(app, p1Token, 'Acct C Disabled');
      const domain = await domainOf(extra.id);
      expect((await app.call(changeProvider, { domain }, { token: p1Token })).status).toBe(200);
      await app.call(operateProvider, { id: extra.id, type: 'disable' }, { token: p1Token });
      expect((await app.call(changeProvider, { domain }, { token: p1Token })).msgKey).toBe('changeProvider.notVisible');
    });

    it('needs a session', async () => {
      const res = await app.call(changeProvider, { domain: domains.c1 });
      expect(res.httpStatus).toBe(401);
    });
  });
});
