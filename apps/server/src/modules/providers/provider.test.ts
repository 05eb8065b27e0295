import {
  adminLogin,
  adminSession,
  deleteProvider,
  getProvider,
  insertProvider,
  operateProvider,
  queryProviderList,
  restProviderPwd,
  type Role,
} from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccount, makeProvider, STRONG_PASSWORD } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';

describeEachDb('providers (%s)', (target) => {
  let app: TestApp;
  let admin: string;

  const login = (userName: string, passWord: string) => app.call(adminLogin, { userName, passWord });
  const tokenOf = (who: { userName: string; password: string }) => app.login(who.userName, who.password);
  const sessionStatus = async (token: string) => (await app.call(adminSession, {}, { token })).httpStatus;
  const provider = async (id: number) => {
    const res = await app.call(getProvider, { id }, { token: admin });
    if (!res.data) throw new Error(`getProvider ${id}: ${res.msgKey}`);
    return res.data;
  };
  const platformToken = async (userName: string, role: Role) => tokenOf(await makeAccount(app, admin, userName, role));

  beforeAll(async () => {
    app = await createTestApp(target);
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
  });
  afterAll(() => app?.close());

  describe('creating', () => {
    it('lets SUPER_ROLE, SENIOR_ROLE and BUSINESS_ROLE create class 1 providers', async () => {
      const creators: [string, string][] = [
        ['SUPER_ROLE', admin],
        ['SENIOR_ROLE', await platformToken('seniorCreator', 'SENIOR_ROLE')],
        ['BUSINESS_ROLE', await platformToken('businessCreator', 'BUSINESS_ROLE')],
      ];
      for (const [role, token] of creators) {
        const userName = `top${role.replace('_ROLE', '').toLowerCase()}Login`;
        const res = await app.call(
          insertProvider,
          { name: `Top ${role}`, userName, passWord: STRONG_PASSWORD },
          { token },
        );
        expect(res.status, role).toBe(200);
        const created = await provider(res.data?.id ?? 0);
        expect(created).toMatchObject({ name: `Top ${role}`, providerClass: 1, parentId: null, userName });
        expect(created.enabled).toBe(true);
        expect(created.number).toMatch(/^VP[0-9A-F]{8}$/);
        const session = await login(userName, STRONG_PASSWORD);
        expect(session.status).toBe(200);
        expect(session.data).toMatchObject({ role: 'ONE_ROLE', providerRole: 'ONE_ROLE', providerId: created.id });
      }
    });

    it('refuses provider creation by roles that do not manage providers', async () => {
      const gov = await platformToken('govNoCreate', 'GOVERNMENT');
      const res = await app.call(insertProvider, { name: 'Gov Made', userName: 'govMadeLogin' }, { token: gov });
      expect(res.status).toBe(300);
      expect(res.msgKey).toBe('no_permission');
      const anonymous = await app.call(insertProvider, { name: 'Anon Made', userName: 'anonMadeLogin' });
      expect(anonymous.httpStatus).toBe(401);
    });

    it('makes a class 1 login create class 2 providers under itself, whatever parentId it sends', async () => {
      const one = await makeProvider(app, admin, 'Parent One');
      const other = await makeProvider(app, admin, 'Parent Other');
      const oneToken = await tokenOf(one);
      const plain = await app.call(
        insertProvider,
        { name: 'Child Plain', userName: 'childPlainLogin' },
        { token: oneToken },
      );
      expect(plain.status).toBe(200);
      const forced = await app.call(
        insertProvider,
        { name: 'Child Forced', userName: 'childForcedLogin', parentId: other.id },
        { token: oneToken },
      );
      expect(forced.status).toBe(200);
      for (const id of [plain.data?.id ?? 0, forced.data?.id ?? 0]) {
        expect(await provider(id)).toMatchObject({ providerClass: 2, parentId: one.id, parentName: 'Parent One' });
      }
      const child = await login('childForcedLogin', forced.data?.initialPassword ?? '');
      expect(child.data).toMatchObject({ role: 'TWO_ROLE', providerRole: 'TWO_ROLE', providerId: forced.data?.id });
    });

    it('lets a platform caller create a class 2 provider under a class 1 parent, and only there', async () => {
      const parent = await makeProvider(app, admin, 'Platform Parent');
      const child = await makeProvider(app, admin, 'Platform Child', { parentId: parent.id });
      expect(await provider(child.id)).toMatchObject({ providerClass: 2, parentId: parent.id });
      const grandChild = await app.call(
        insertProvider,
        { name: 'Grand Child', userName: 'grandChildLogin', parentId: child.id },
        { token: admin },
      );
      expect(grandChild.status).toBe(300);
      expect(grandChild.msgKey).toBe('provider.parentInvalid');
      const missing = await app.call(
        insertProvider,
        { name: 'Orphan Child', userName: 'orphanChildLogin', parentId: 999_999 },
        { token: admin },
      );
      expect(missing.msgKey).toBe('provider.parentInvalid');
    });

    it('refuses class 2 (TWO_ROLE) logins creating providers (no_permission)', async () => {
      const one = await makeProvider(app, admin, 'Two Guard Parent');
      const two = await makeProvider(app, await tokenOf(one), 'Two Guard Child');
      const twoToken = await tokenOf(two);
      const res = await app.call(insertProvider, { name: 'Two Made', userName: 'twoMadeLogin' }, { token: twoToken });
      expect(res.status).toBe(300);
      expect(res.msgKey).toBe('no_permission');
      const list = await app.call(queryProviderList, { keyWord: 'Two Made' }, { token: admin });
      expect(list.data?.total).toBe(0);
    });

    it('refuses a duplicate name or login account (provider.exists) and a duplicate number (provider.numberExists)', async () => {
      const first = await app.call(
        insertProvider,
        { name: 'Dup Care', number: 'DUP-001', userName: 'dupCareLogin', passWord: STRONG_PASSWORD },
        { token: admin },
      );
      expect(first.status).toBe(200);
      const cases: [Record<string, string>, string][] = [
        [{ name: 'Dup Care', userName: 'dupCareOther' }, 'provider.exists'],
        [{ name: '  dup care ', userName: 'dupCareOther' }, 'provider.exists'],
        [{ name: 'Dup Care Two', userName: 'dupCareLogin' }, 'provider.exists'],
        [{ name: 'Dup Care Two', userName: 'DUPCARELOGIN' }, 'provider.exists'],
        // Any existing account, not only provider logins, blocks the login account.
        [{ name: 'Dup Care Two', userName: 'seniorCreator' }, 'provider.exists'],
        [{ name: 'Dup Care Two', userName: 'dupCareOther', number: 'DUP-001' }, 'provider.numberExists'],
        [{ name: 'Dup Care Two', userName: 'dupCareOther', number: 'dup-001' }, 'provider.numberExists'],
      ];
      for (const [input, msgKey] of cases) {
        const res = await app.call(
          insertProvider,
          { ...input, name: input.name ?? '', userName: input.userName ?? '', passWord: STRONG_PASSWORD },
          { token: admin },
        );
        expect(res.status, JSON.stringify(input)).toBe(300);
        expect(res.msgKey, JSON.stringify(input)).toBe(msgKey);
      }
      // Nothing was half-created: the login account of a refused provider is still free.
      const after = await app.call(
        insertProvider,
        { name: 'Dup Care Two', userName: 'dupCareOther', number: 'DUP-002', passWord: STRONG_PASSWORD },
        { token: admin },
      );
      expect(after.status).toBe(200);
    });

    it.each([
      ['5 characters', 'abcde'],
      ['65 characters', 'a'.repeat(65)],
      ['an underscore', 'abc_def'],
      ['Chinese characters', '服务商账号abc'],
      ['a space inside', 'abc defg'],
      ['a hyphen', 'abc-defg'],
    ])('refuses a login account with %s (400 validation.loginAccount)', async (_label, userName) => {
      const res = await app.call(
        insertProvider,
        { name: `Bad Login ${userName}`.slice(0, 60), userName, passWord: STRONG_PASSWORD },
        { token: admin },
      );
      expect(res.status).toBe(400);
      expect(res.msgKey).toBe('validation.loginAccount');
      expect(res.msg).toBe('Account must be 6 to 64 letters or digits.');
      const zh = await app.call(insertProvider, { name: 'Bad Login', userName }, { token: admin, lang: 'zh-CN' });
      expect(zh.msgKey).toBe('validation.loginAccount');
      expect(zh.msg).not.toBe(res.msg);
    });

    it('accepts login accounts of exactly 6 and 64 letters or digits', async () => {
      for (const userName of ['abc123', `A1${'b'.repeat(62)}`]) {
        const res = await app.call(
          insertProvider,
          { name: `Edge ${userName.length}`, userName, passWord: STRONG_PASSWORD },
          { token: admin },
        );
        expect(res.status, userName).toBe(200);
        expect((await login(userName, STRONG_PASSWORD)).status).toBe(200);
      }
    });

    it('refuses a weak chosen password (400) and creates nothing', async () => {
      const res = await app.call(
        insertProvider,
        { name: 'Weak Pw Care', userName: 'weakPwLogin', passWord: 'P@ssw0rd' },
        { token: admin },
      );
      expect(res.status).toBe(400);
      expect(res.msgKey).toBe('password.security');
      const list = await app.call(queryProviderList, { keyWord: 'Weak Pw Care' }, { token: admin });
      expect(list.data?.total).toBe(0);
    });

    it('generates an initial password when none is given; it works and must be changed', async () => {
      const res = await app.call(
        insertProvider,
        { name: 'Generated Pw', userName: 'generatedPwLogin' },
        { token: admin },
      );
      expect(res.status).toBe(200);
      const initial = res.data?.initialPassword ?? '';
      expect(initial.length).toBeGreaterThanOrEqual(8);
      const session = await login('generatedPwLogin', initial);
      expect(session.status).toBe(200);
      expect(session.data?.mustChangePassword).toBe(true);
      // A chosen password is not echoed back and need not be changed.
      const chosen = await app.call(
        insertProvider,
        { name: 'Chosen Pw', userName: 'chosenPwLogin', passWord: STRONG_PASSWORD },
        { token: admin },
      );
      expect(chosen.data?.initialPassword).toBeNull();
      expect((await login('chosenPwLogin', STRONG_PASSWORD)).data?.mustChangePassword).toBe(false);
    });
  });

  describe('password reset', () => {
    it('gives a new password, ends the old sessions and retires the old password', async () => {
      const p = await makeProvider(app, admin, 'Reset Care');
      const oldToken = await tokenOf(p);
      expect(await sessionStatus(oldToken)).toBe(200);
      const res = await app.call(restProviderPwd, { id: p.id }, { token: admin });
      expect(res.status).toBe(200);
      const fresh = res.data?.initialPassword ?? '';
      expect(fresh).not.toBe('');
      expect(fresh).not.toBe(p.password);
      expect(await sessionStatus(oldToken)).toBe(401);
      const old = await login(p.userName, p.password);
      expect(old.status).toBe(102);
      expect(old.msgKey).toBe('login.wrong');
      const next = await login(p.userName, fresh);
      expect(next.status).toBe(200);
      expect(next.data?.mustChangePassword).toBe(true);
    });

    it('lets a class 1 login reset its class 2 providers only', async () => {
      const one = await makeProvider(app, admin, 'Reset Parent');
      const oneToken = await tokenOf(one);
      const child = await makeProvider(app, oneToken, 'Reset Child');
      const stranger = await makeProvider(app, admin, 'Reset Stranger');
      expect((await app.call(restProviderPwd, { id: child.id }, { token: oneToken })).status).toBe(200);
      for (const id of [stranger.id, one.id]) {
        const res = await app.call(restProviderPwd, { id }, { token: oneToken });
        expect(res.status).toBe(300);
        expect(res.msgKey).toBe('not_found');
      }
      expect(await sessionStatus(oneToken)).toBe(200);
      expect((await login(stranger.userName, stranger.password)).status).toBe(200);
    });
  });

  describe('enable, disable, edit', () => {
    it('disabling a class 1 provider blocks and signs out its login, sub-accounts and class 2 providers', async () => {
      const one = await makeProvider(app, admin, 'Cascade One');
      const oneToken = await tokenOf(one);
      const sub = await makeAccount(app, oneToken, 'cascadeOneSub', 'SUB_ROLE');
      const two = await makeProvider(app, oneToken, 'Cascade Two');
      const twoToken = await tokenOf(two);
      const twoSub = await makeAccount(app, twoToken, 'cascadeTwoSub', 'SUB_ROLE');
      const bystander = await makeProvider(app, admin, 'Cascade Bystander');
      const people = [one, sub, two, twoSub];
      const tokens = [oneToken, await tokenOf(sub), twoToken, await tokenOf(twoSub)];
      const bystanderToken = await tokenOf(bystander);

      const off = await app.call(operateProvider, { id: one.id, type: 'disable' }, { token: admin });
      expect(off.status).toBe(200);
      expect((await provider(one.id)).enabled).toBe(false);
      for (const token of tokens) expect(await sessionStatus(token)).toBe(401);
      for (const who of people) {
        const res = await login(who.userName, who.password);
        expect(res.status, who.userName).toBe(107);
        expect(res.msgKey).toBe('login.disabled');
      }
      expect(await sessionStatus(bystanderToken)).toBe(200);

      const on = await app.call(operateProvider, { id: one.id, type: 'enable' }, { token: admin });
      expect(on.status).toBe(200);
      for (const who of people) expect((await login(who.userName, who.password)).status, who.userName).toBe(200);
      // Old sessions stay ended after re-enabling.
      for (const token of tokens) expect(await sessionStatus(token)).toBe(401);
    });

    it('disabling a class 2 provider (by its class 1) blocks only that branch', async () => {
      const one = await makeProvider(app, admin, 'Branch One');
      const oneToken = await tokenOf(one);
      const two = await makeProvider(app, oneToken, 'Branch Two');
      const twoToken = await tokenOf(two);
      const res = await app.call(operateProvider, { id: two.id, type: 'disable' }, { token: oneToken });
      expect(res.status).toBe(200);
      expect(await sessionStatus(twoToken)).toBe(401);
      expect((await login(two.userName, two.password)).status).toBe(107);
      expect(await sessionStatus(oneToken)).toBe(200);
      expect((await login(one.userName, one.password)).status).toBe(200);
      expect((await app.call(operateProvider, { id: two.id, type: 'enable' }, { token: oneToken })).status).toBe(200);
      expect((await login(two.userName, two.password)).status).toBe(200);
    });

    it('does not let a class 1 provider disable itself or a stranger (not_found)', async () => {
      const one = await makeProvider(app, admin, 'Self Disable');
      const stranger = await makeProvider(app, admin, 'Self Stranger');
      const oneToken = await tokenOf(one);
      for (const id of [one.id, stranger.id]) {
        const res = await app.call(operateProvider, { id, type: 'disable' }, { token: oneToken });
        expect(res.status).toBe(300);
        expect(res.msgKey).toBe('not_found');
      }
      expect((await provider(stranger.id)).enabled).toBe(true);
      expect(await sessionStatus(oneToken)).toBe(200);
    });

    it('edits name, number, remark and branding; refuses names and numbers of others', async () => {
      const p = await makeProvider(app, admin, 'Edit Me');
      await makeProvider(app, admin, 'Edit Taken');
      const before = await provider(p.id);
      const res = await app.call(
        operateProvider,
        {
          id: p.id,
          type: 'edit',
          name: 'Edited Name',
          number: 'EDIT-42',
          remark: 'note',
          platformName: 'Edited Portal',
        },
        { token: admin },
      );
      expect(res.status).toBe(200);
      const after = await provider(p.id);
      expect(after).toMatchObject({
        name: 'Edited Name',
        number: 'EDIT-42',
        remark: 'note',
        platformName: 'Edited Portal',
        domain: before.domain,
        userName: p.userName,
      });
      // Keeping its own name (in another case) is fine.
      expect(
        (await app.call(operateProvider, { id: p.id, type: 'edit', name: 'EDITED NAME' }, { token: admin })).status,
      ).toBe(200);
      const takenName = await app.call(
        operateProvider,
        { id: p.id, type: 'edit', name: 'edit taken' },
        { token: admin },
      );
      expect(takenName.status).toBe(300);
      expect(takenName.msgKey).toBe('provider.exists');
      const other = await provider((await makeProvider(app, admin, 'Edit Numbered')).id);
      const takenNumber = await app.call(
        operateProvider,
        { id: p.id, type: 'edit', number: other.number.toLowerCase() },
        { token: admin },
      );
      expect(takenNumber.msgKey).toBe('provider.numberExists');
      expect((await provider(p.id)).name).toBe('EDITED NAME');
      // A login keeps working after an edit.
      expect((await login(p.userName, p.password)).data?.providerName).toBe('EDITED NAME');
    });

    it('answers not_found for an unknown provider', async () => {
      for (const type of ['edit', 'enable', 'disable'] as const) {
        const res = await app.call(operateProvider, { id: 987_654, type }, { token: admin });
        expect(res.msgKey).toBe('not_found');
      }
      expect((await app.call(restProviderPwd, { id: 987_654 }, { token: admin })).msgKey).toBe('not_found');
      expect((await app.call(getProvider, { id: 987_654 }, { token: admin })).msgKey).toBe('not_found');
      expect((await app.call(deleteProvider, { id: 987_654 }, { token: admin })).msgKey).toBe('not_found');
    });
  });

  describe('listing and visibility', () => {
    let alpha: { id: number; userName: string; password: string };
    let beta: { id: number; userName: string; password: string };
    let gamma: { id: number; userName: string; password: string };
    let delta: { id: number; userName: string; password: string };
    let alphaToken: string;

    beforeAll(async () => {
      const made = await app.call(
        insertProvider,
        { name: 'ListCo Alpha', number: 'LIST-A1', userName: 'listAlphaLogin', passWord: STRONG_PASSWORD },
        { token: admin },
      );
      alpha = { id: made.data?.id ?? 0, userName: 'listAlphaLogin', password: STRONG_PASSWORD };
      beta = await makeProvider(app, admin, 'ListCo Beta', { userName: 'listBetaLogin' });
      alphaToken = await tokenOf(alpha);
      gamma = await makeProvider(app, alphaToken, 'ListCo Gamma', { userName: 'listGammaLogin' });
      delta = await makeProvider(app, admin, 'ListCo Delta', { parentId: beta.id, userName: 'listDeltaLogin' });
    });

    it('pages newest first with a correct total', async () => {
      const all = await app.call(queryProviderList, { keyWord: 'ListCo', pageSize: 100 }, { token: admin });
      expect(all.status).toBe(200);
      expect(all.data?.total).toBe(4);
      expect(all.data?.rows.map((r) => r.id)).toEqual([delta.id, gamma.id, beta.id, alpha.id]);
      const seen: number[] = [];
      for (const pageNum of [1, 2, 3]) {
        const page = await app.call(queryProviderList, { keyWord: 'ListCo', pageNum, pageSize: 3 }, { token: admin });
        expect(page.data).toMatchObject({ total: 4, pageNum, pageSize: 3 });
        seen.push(...(page.data?.rows.map((r) => r.id) ?? []));
      }
      expect(seen).toEqual([delta.id, gamma.id, beta.id, alpha.id]);
      // Without filters the admin sees every provider, and the default page size is 10.
      const first = await app.call(queryProviderList, {}, { token: admin });
      expect(first.data?.pageSize).toBe(10);
      expect(first.data?.rows.length).toBeLessThanOrEqual(10);
      expect(first.data?.total).toBeGreaterThanOrEqual(4);
    });

    it('searches by name, number and login account, case-insensitively', async () => {
      const ids = async (keyWord: string) =>
        (await app.call(queryProviderList, { keyWord, pageSize: 100 }, { token: admin })).data?.rows.map((r) => r.id);
      expect(await ids('listco beta')).toEqual([beta.id]);
      expect(await ids('list-a1')).toEqual([alpha.id]);
      expect(await ids('LISTGAMMALOGIN')).toEqual([gamma.id]);
      expect(await ids('listDelta')).toEqual([delta.id]);
      // LIKE wildcards are taken literally.
      expect(await ids('ListCo%')).toEqual([]);
      expect(await ids('_istCo')).toEqual([]);
    });

    it('filters by class and fills the parent name and login account', async () => {
      const two = await app.call(
        queryProviderList,
        { keyWord: 'ListCo', providerClass: 2, pageSize: 100 },
        { token: admin },
      );
      expect(two.data?.total).toBe(2);
      expect(two.data?.rows).toEqual([
        expect.objectContaining({
          id: delta.id,
          providerClass: 2,
          parentId: beta.id,
          parentName: 'ListCo Beta',
          userName: 'listDeltaLogin',
        }),
        expect.objectContaining({
          id: gamma.id,
          providerClass: 2,
          parentId: alpha.id,
          parentName: 'ListCo Alpha',
          userName: 'listGammaLogin',
        }),
      ]);
      const one = await app.call(
        queryProviderList,
        { keyWord: 'ListCo', providerClass: 1, pageSize: 100 },
        { token: admin },
      );
      expect(one.data?.rows.map((r) => [r.id, r.parentName, r.userName])).toEqual([
        [beta.id, null, 'listBetaLogin'],
        [alpha.id, null, 'listAlphaLogin'],
      ]);
      const byParent = await app.call(queryProviderList, { parentId: beta.id }, { token: admin });
      expect(byParent.data?.rows.map((r) => r.id)).toEqual([delta.id]);
    });

    it('filters by enabled state', async () => {
      await app.call(operateProvider, { id: delta.id, type: 'disable' }, { token: admin });
      const off = await app.call(queryProviderList, { keyWord: 'ListCo', enabled: false }, { token: admin });
      expect(off.data?.rows.map((r) => r.id)).toEqual([delta.id]);
      const on = await app.call(queryProviderList, { keyWord: 'ListCo', enabled: true }, { token: admin });
      expect(on.data?.total).toBe(3);
      await app.call(operateProvider, { id: delta.id, type: 'enable' }, { token: admin });
    });

    it('shows a class 1 provider only its class 2 providers', async () => {
      const mine = await app.call(queryProviderList, { pageSize: 100 }, { token: alphaToken });
      expect(mine.status).toBe(200);
      expect(mine.data?.total).toBe(1);
      expect(mine.data?.rows.map((r) => r.id)).toEqual([gamma.id]);
      const searched = await app.call(queryProviderList, { keyWord: 'ListCo Beta' }, { token: alphaToken });
      expect(searched.data?.total).toBe(0);
      const byForeignParent = await app.call(queryProviderList, { parentId: beta.id }, { token: alphaToken });
      expect(byForeignParent.data?.total).toBe(0);
    });

    it('refuses the list to class 2 logins (no_permission)', async () => {
      const res = await app.call(queryProviderList, {}, { token: await tokenOf(gamma) });
      expect(res.status).toBe(300);
      expect(res.msgKey).toBe('no_permission');
    });

    it('answers not_found for a provider outside the caller scope', async () => {
      for (const id of [beta.id, delta.id]) {
        const res = await app.call(getProvider, { id }, { token: alphaToken });
        expect(res.status).toBe(300);
        expect(res.msgKey).toBe('not_found');
      }
      expect((await app.call(getProvider, { id: gamma.id }, { token: alphaToken })).data?.name).toBe('ListCo Gamma');
      expect((await app.call(getProvider, { id: alpha.id }, { token: alphaToken })).data?.name).toBe('ListCo Alpha');
      const gammaToken = await tokenOf(gamma);
      expect((await app.call(getProvider, { id: gamma.id }, { token: gammaToken })).status).toBe(200);
      for (const id of [alpha.id, beta.id, delta.id]) {
        expect((await app.call(getProvider, { id }, { token: gammaToken })).msgKey).toBe('not_found');
      }
    });
  });

  describe('deleting', () => {
    it('refuses while class 2 children exist, then cancels the accounts and frees the name', async () => {
      const one = await makeProvider(app, admin, 'Doomed One');
      const oneToken = await tokenOf(one);
      const oneSub = await makeAccount(app, oneToken, 'doomedOneSub', 'SUB_ROLE');
      const two = await makeProvider(app, oneToken, 'Doomed Two');
      const twoToken = await tokenOf(two);
      const twoSub = await makeAccount(app, twoToken, 'doomedTwoSub', 'SUB_ROLE');
      const twoSubToken = await tokenOf(twoSub);

      const refused = await app.call(deleteProvider, { id: one.id }, { token: admin });
      expect(refused.status).toBe(300);
      expect(refused.msgKey).toBe('provider.hasChildren');
      expect((await login(one.userName, one.password)).status).toBe(200);

      // The class 1 login deletes its own class 2 provider.
      expect((await app.call(deleteProvider, { id: two.id }, { token: oneToken })).status).toBe(200);
      expect(await sessionStatus(twoToken)).toBe(401);
      expect(await sessionStatus(twoSubToken)).toBe(401);
      for (const who of [two, twoSub]) {
        const res = await login(who.userName, who.password);
        expect(res.status, who.userName).toBe(102);
        expect(res.msgKey).toBe('login.wrong');
      }
      expect((await app.call(getProvider, { id: two.id }, { token: admin })).msgKey).toBe('not_found');
      const gone = await app.call(queryProviderList, { keyWord: 'Doomed' }, { token: admin });
      expect(gone.data?.rows.map((r) => r.id)).toEqual([one.id]);

      // Now the class 1 provider can go too.
      expect((await app.call(deleteProvider, { id: one.id }, { token: admin })).status).toBe(200);
      expect(await sessionStatus(oneToken)).toBe(401);
      for (const who of [one, oneSub]) expect((await login(who.userName, who.password)).status).toBe(102);

      // Name, number and login accounts are free again.
      const again = await makeProvider(app, admin, 'Doomed One', { userName: one.userName });
      expect(again.id).not.toBe(one.id);
      expect((await login(one.userName, one.password)).data?.providerId).toBe(again.id);
      expect((await makeAccount(app, admin, 'doomedTwoSub', 'SUB_ROLE')).id).toBeGreaterThan(0);
    });

    it('refuses deleting by a class 1 provider of itself or a stranger (not_found)', async () => {
      const one = await makeProvider(app, admin, 'Delete Self');
      const stranger = await makeProvider(app, admin, 'Delete Stranger');
      const oneToken = await tokenOf(one);
      for (const id of [one.id, stranger.id]) {
        const res = await app.call(deleteProvider, { id }, { token: oneToken });
        expect(res.status).toBe(300);
        expect(res.msgKey).toBe('not_found');
      }
      expect((await provider(stranger.id)).enabled).toBe(true);
    });
  });
});
