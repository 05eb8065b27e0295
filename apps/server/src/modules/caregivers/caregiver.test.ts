import {
  adminSession,
  deleteNursing,
  insertNursing,
  operateNursing,
  queryNursingList,
  resetNursingPassword,
  type Caregiver,
} from '@vigil/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, caregivers, residentCaregivers } from '../../db/schema.ts';
import { makeAccount } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { accountRow, appLogin, careWorld, freshPhone, makeCaregiver, seedResident } from './care-fixtures.ts';

describeEachDb('caregivers (%s)', (target) => {
  let app: TestApp;
  let world: Awaited<ReturnType<typeof careWorld>>;

  const sessionStatus = async (token: string) => (await app.call(adminSession, {}, { token })).httpStatus;
  const listed = async (token: string, keyWord?: string): Promise<Caregiver[]> => {
    const res = await app.call(queryNursingList, { pageSize: 1000, ...(keyWord ? { keyWord } : {}) }, { token });
    expect(res.status, res.msg).toBe(200);
    return res.data?.rows ?? [];
  };
  const one = async (token: string, id: number) => (await listed(token)).find((c) => c.id === id);
  const links = async (caregiverId: number) =>
    (
      await app.database.db
        .select({ id: residentCaregivers.residentId })
        .from(residentCaregivers)
        .where(eq(residentCaregivers.caregiverId, caregiverId))
    )
      .map((r) => r.id)
      .sort((a, b) => a - b);

  beforeAll(async () => {
    app = await createTestApp(target);
    world = await careWorld(app, 'Care');
  });
  afterAll(() => app?.close());

  describe('creating', () => {
    it('creates a caregiver with an app account named by the normalised phone and a generated password', async () => {
      const r1 = await seedResident(app, world.home.id, 'Grandma Li');
      const res = await app.call(
        insertNursing,
        { name: 'Wang Fang', phone: '+86 138-0013-8000', job: 'Night nurse', level: 'lead', residentIds: [r1, r1] },
        { token: world.homeToken },
      );
      expect(res.status, res.msg).toBe(200);
      expect(res.data?.userName).toBe('13800138000');
      expect(res.data?.initialPassword).toMatch(/^.{8,16}$/);
      const row = await one(world.homeToken, res.data?.id ?? 0);
      expect(row).toMatchObject({
        name: 'Wang Fang',
        phone: '13800138000',
        job: 'Night nurse',
        level: 'lead',
        enabled: true,
        userName: '13800138000',
        providerId: world.home.id,
        providerName: 'Care Home',
        residents: [{ id: r1, name: 'Grandma Li' }],
      });
      const login = await appLogin(app, '13800138000', res.data?.initialPassword ?? '');
      expect(login.status, login.msg).toBe(200);
      expect(login.data).toMatchObject({ role: 'CARER', name: 'Wang Fang', providerId: world.home.id });
      expect(login.data?.mustChangePassword).toBe(true);
      const account = await accountRow(app, '13800138000');
      expect(account).toMatchObject({ role: 'CARER', providerId: world.home.id, enabled: true });
      const audit = await app.database.db.select().from(auditLog).where(eq(auditLog.action, 'caregiver.create'));
      expect(audit.some((a) => a.targetId === String(res.data?.id))).toBe(true);
    });

    it('keeps international numbers in E.164 and logs in with them, or with a chosen account name', async () => {
      const abroad = await makeCaregiver(app, world.homeToken, 'Anna Berg', { phone: '0049 151 2345 6789' });
      expect(abroad.userName).toBe('+4915123456789');
      expect((await one(world.homeToken, abroad.id))?.phone).toBe('+4915123456789');
      expect((await appLogin(app, '+4915123456789', abroad.initialPassword)).status).toBe(200);
      const named = await makeCaregiver(app, world.homeToken, 'Named Carer', { userName: 'namedCarer01' });
      expect(named.userName).toBe('namedCarer01');
      expect((await appLogin(app, 'namedCarer01', named.initialPassword)).status).toBe(200);
      expect((await one(world.homeToken, named.id))?.userName).toBe('namedCarer01');
    });

    it('refuses a phone already used by a caregiver of the same provider, and a taken login name', async () => {
      const phone = freshPhone();
      await makeCaregiver(app, world.homeToken, 'First', { phone });
      const again = await app.call(insertNursing, { name: 'Second', phone }, { token: world.homeToken });
      expect(again.status).toBe(300);
      expect(again.msgKey).toBe('caregiver.phoneExists');
      expect(again.msg).toBe('A caregiver with this phone number already exists.');
      // Another provider may employ the same person, but the phone is already a login name.
      const elsewhere = await app.call(insertNursing, { name: 'Second', phone }, { token: world.otherToken });
      expect(elsewhere.msgKey).toBe('caregiver.accountExists');
      expect(elsewhere.msg).toBe(
        `The phone number ${phone} is already a login account. Choose an account name for this caregiver.`,
      );
      const zh = await app.call(insertNursing, { name: 'Second', phone }, { token: world.otherToken, lang: 'zh-CN' });
      expect(zh.msg).toBe(`手机号码 ${phone} 已被用作登录账号，请为该护理员另设账号名。`);
      const chosen = await app.call(
        insertNursing,
        { name: 'Second', phone, userName: 'secondJob01' },
        { token: world.otherToken },
      );
      expect(chosen.status, chosen.msg).toBe(200);
      await makeAccount(app, world.homeToken, 'takenName01', 'SUB_ROLE');
      const taken = await app.call(
        insertNursing,
        { name: 'Third', phone: freshPhone(), userName: 'TAKENNAME01' },
        { token: world.homeToken },
      );
      expect(taken.msgKey).toBe('account.exists');
      expect(taken.msg).toBe('The login account already exists.');
    });

    it('links only residents of its own provider, each with fewer than 100 caregivers', async () => {
      const foreign = await seedResident(app, world.other.id, 'Foreign Resident');
      const res = await app.call(
        insertNursing,
        { name: 'Linker', phone: freshPhone(), residentIds: [foreign] },
        { token: world.homeToken },
      );
      expect(res.msgKey).toBe('not_found');
      const missing = await app.call(
        insertNursing,
        { name: 'Linker', phone: freshPhone(), residentIds: [999_999] },
        { token: world.homeToken },
      );
      expect(missing.msgKey).toBe('not_found');
      // The group sees the home's residents, but a caregiver of the group cannot look after them.
      const homeResident = await seedResident(app, world.home.id, 'Home Resident');
      const cross = await app.call(
        insertNursing,
        { name: 'Group Carer', phone: freshPhone(), residentIds: [homeResident], providerId: world.group.id },
        { token: world.groupToken },
      );
      expect(cross.msgKey).toBe('caregiver.residentProvider');
      expect(cross.msg).toBe(
        'Resident Home Resident belongs to another provider; a caregiver only looks after residents of its own provider.',
      );
      expect(
        (await listed(world.groupToken, 'Linker')).length + (await listed(world.groupToken, 'Group Carer')).length,
      ).toBe(0);

      const full = await seedResident(app, world.home.id, 'Popular Resident');
      const now = app.clock.now();
      const seeded = await app.database.db
        .insert(caregivers)
        .values(
          Array.from({ length: 100 }, (_, i) => ({
            providerId: world.home.id,
            name: `Bulk ${i}`,
            phone: `1370000${String(i).padStart(4, '0')}`,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .returning({ id: caregivers.id });
      await app.database.db
        .insert(residentCaregivers)
        .values(seeded.map((c) => ({ residentId: full, caregiverId: c.id })));
      const over = await app.call(
        insertNursing,
        { name: 'One Too Many', phone: freshPhone(), residentIds: [full] },
        { token: world.homeToken },
      );
      expect(over.status).toBe(300);
      expect(over.msgKey).toBe('caregiver.residentFull');
      expect(over.msg).toBe('Resident Popular Resident already has 100 caregivers, the maximum.');
      expect(await accountRow(app, 'One Too Many')).toBeUndefined();
      // Editing one of the hundred keeps its link: it is not an extra caregiver.
      const [first] = seeded;
      const keep = await app.call(
        operateNursing,
        { id: first?.id ?? 0, type: 'edit', residentIds: [full] },
        { token: world.homeToken },
      );
      expect(keep.status, keep.msg).toBe(200);
      await app.database.db.delete(caregivers).where(sql`${caregivers.name} like 'Bulk %'`);
    });

    it('refuses more than 100 residents for one caregiver before touching the database', async () => {
      const ids = Array.from({ length: 101 }, (_, i) => i + 1);
      const res = await app.call(
        insertNursing,
        { name: 'Busy', phone: freshPhone(), residentIds: ids },
        { token: world.homeToken },
      );
      expect(res.status).toBe(400);
      expect(res.msgKey).toBe('caregiver.residentLimit');
      expect(res.msg).toBe('A caregiver can look after at most 100 residents.');
    });

    it('needs a provider: platform callers name an existing one', async () => {
      const noProvider = await app.call(
        insertNursing,
        { name: 'Nowhere', phone: freshPhone() },
        { token: world.admin },
      );
      expect(noProvider.msgKey).toBe('provider.required');
      const missing = await app.call(
        insertNursing,
        { name: 'Nowhere', phone: freshPhone(), providerId: 999_999 },
        { token: world.admin },
      );
      expect(missing.msgKey).toBe('not_found');
      const ok = await app.call(
        insertNursing,
        { name: 'Platform Made', phone: freshPhone(), providerId: world.home.id },
        { token: world.admin },
      );
      expect(ok.status, ok.msg).toBe(200);
      expect((await one(world.homeToken, ok.data?.id ?? 0))?.providerId).toBe(world.home.id);
      // A class 2 login cannot place a caregiver in another provider.
      const foreign = await app.call(
        insertNursing,
        { name: 'Elsewhere', phone: freshPhone(), providerId: world.other.id },
        { token: world.homeToken },
      );
      expect(foreign.msgKey).toBe('not_found');
    });

    it('admits only caregiver managers', async () => {
      const gov = await makeAccount(app, world.groupToken, 'careGov01', 'GOVERNMENT');
      const govToken = await app.login(gov.userName, gov.password);
      for (const call of [
        () => app.call(insertNursing, { name: 'Gov', phone: freshPhone() }, { token: govToken }),
        () => app.call(queryNursingList, {}, { token: govToken }),
      ]) {
        const res = await call();
        expect(res.status).toBe(300);
        expect(res.msgKey).toBe('no_permission');
      }
      const carer = await makeCaregiver(app, world.homeToken, 'Plain Carer');
      const carerToken = (await appLogin(app, carer.userName, carer.initialPassword)).data?.token ?? '';
      const res = await app.call(queryNursingList, {}, { token: carerToken });
      expect(res.msgKey).toBe('no_permission');
      expect((await app.call(queryNursingList, {})).httpStatus).toBe(401);
    });
  });

  describe('listing', () => {
    it('filters by keyword (name, phone, login), level, state and id, scoped to the caller', async () => {
      const a = await makeCaregiver(app, world.homeToken, 'Zhao Keyword', { level: 'lead' });
      const b = await makeCaregiver(app, world.homeToken, 'Qian Keyword');
      await app.call(operateNursing, { id: b.id, type: 'disable' }, { token: world.homeToken });
      const foreign = await makeCaregiver(app, world.otherToken, 'Foreign Keyword');
      const names = (rows: Caregiver[]) => rows.map((r) => r.name).sort();
      expect(names(await listed(world.homeToken, 'Keyword'))).toEqual(['Qian Keyword', 'Zhao Keyword']);
      expect(names(await listed(world.homeToken, a.phone.slice(3)))).toEqual(['Zhao Keyword']);
      const lead = await app.call(queryNursingList, { keyWord: 'Keyword', level: 'lead' }, { token: world.homeToken });
      expect(names(lead.data?.rows ?? [])).toEqual(['Zhao Keyword']);
      const off = await app.call(queryNursingList, { keyWord: 'Keyword', enabled: false }, { token: world.homeToken });
      expect(names(off.data?.rows ?? [])).toEqual(['Qian Keyword']);
      // A class 1 login lists the provider chosen in the console (its own at login); nobody sees the other tenant's.
      expect(names(await listed(world.groupToken, 'Keyword'))).toEqual([]);
      expect(names(await listed(world.otherToken, 'Keyword'))).toEqual(['Foreign Keyword']);
      expect((await listed(world.homeToken)).some((r) => r.id === foreign.id)).toBe(false);
      // The platform sees every tenant.
      expect(names(await listed(world.admin, 'Keyword'))).toEqual(['Foreign Keyword', 'Qian Keyword', 'Zhao Keyword']);
      const page = await app.call(
        queryNursingList,
        { keyWord: 'Keyword', pageNum: 2, pageSize: 1 },
        { token: world.homeToken },
      );
      expect(page.data).toMatchObject({ total: 2, pageNum: 2, pageSize: 1 });
      expect(names(page.data?.rows ?? [])).toEqual(['Zhao Keyword']);
      // LIKE wildcards are plain characters.
      expect(await listed(world.homeToken, '%')).toEqual([]);
      // One by id (the edit page); another tenant's id lists nothing.
      const byId = async (id: number, token = world.homeToken) =>
        names((await app.call(queryNursingList, { id }, { token })).data?.rows ?? []);
      expect(await byId(a.id)).toEqual(['Zhao Keyword']);
      expect(await byId(foreign.id)).toEqual([]);
    });
  });

  describe('operating', () => {
    it('edits the fields, replaces the links and renames the app account', async () => {
      const r1 = await seedResident(app, world.home.id, 'Edit R1');
      const r2 = await seedResident(app, world.home.id, 'Edit R2');
      const c = await makeCaregiver(app, world.homeToken, 'Before Edit', { residentIds: [r1] });
      const res = await app.call(
        operateNursing,
        {
          id: c.id,
          type: 'edit',
          name: 'After Edit',
          phone: '+8613900001111',
          job: 'Day nurse',
          level: 'lead',
          residentIds: [r2],
          remark: 'moved wing',
        },
        { token: world.homeToken },
      );
      expect(res.status, res.msg).toBe(200);
      expect(await one(world.homeToken, c.id)).toMatchObject({
        name: 'After Edit',
        phone: '13900001111',
        job: 'Day nurse',
        level: 'lead',
        remark: 'moved wing',
        userName: c.userName,
        residents: [{ id: r2, name: 'Edit R2' }],
      });
      expect(await links(c.id)).toEqual([r2]);
      // The login name stays; the display name follows.
      const login = await appLogin(app, c.userName, c.initialPassword);
      expect(login.data?.name).toBe('After Edit');
      // Fields left out stay; null clears; an empty list unlinks all.
      await app.call(
        operateNursing,
        { id: c.id, type: 'edit', job: null, residentIds: [] },
        { token: world.homeToken },
      );
      expect(await one(world.homeToken, c.id)).toMatchObject({ name: 'After Edit', job: null, level: 'lead' });
      expect(await links(c.id)).toEqual([]);
    });

    it('refuses an edit to a phone another caregiver of the provider has', async () => {
      const a = await makeCaregiver(app, world.homeToken, 'Phone A');
      const b = await makeCaregiver(app, world.homeToken, 'Phone B');
      const res = await app.call(
        operateNursing,
        { id: b.id, type: 'edit', phone: a.phone },
        { token: world.homeToken },
      );
      expect(res.msgKey).toBe('caregiver.phoneExists');
      const same = await app.call(
        operateNursing,
        { id: b.id, type: 'edit', phone: b.phone },
        { token: world.homeToken },
      );
      expect(same.status).toBe(200);
      const foreignResident = await seedResident(app, world.other.id, 'Not Mine');
      const link = await app.call(
        operateNursing,
        { id: b.id, type: 'edit', residentIds: [foreignResident] },
        { token: world.homeToken },
      );
      expect(link.msgKey).toBe('not_found');
    });

    it('disabling blocks the app account and ends its sessions; enabling restores it', async () => {
      const c = await makeCaregiver(app, world.homeToken, 'Switch Carer');
      const token = (await appLogin(app, c.userName, c.initialPassword)).data?.token ?? '';
      expect(await sessionStatus(token)).toBe(200);
      const off = await app.call(operateNursing, { id: c.id, type: 'disable' }, { token: world.homeToken });
      expect(off.status).toBe(200);
      expect(await sessionStatus(token)).toBe(401);
      const refused = await appLogin(app, c.userName, c.initialPassword);
      expect(refused.status).toBe(107);
      expect(refused.msgKey).toBe('login.disabled');
      expect((await one(world.homeToken, c.id))?.enabled).toBe(false);
      const on = await app.call(operateNursing, { id: c.id, type: 'enable' }, { token: world.homeToken });
      expect(on.status).toBe(200);
      expect((await appLogin(app, c.userName, c.initialPassword)).status).toBe(200);
      expect((await one(world.homeToken, c.id))?.enabled).toBe(true);
    });

    it('resets the password: a new one shown once, old sessions and password gone', async () => {
      const c = await makeCaregiver(app, world.homeToken, 'Reset Carer');
      const token = (await appLogin(app, c.userName, c.initialPassword)).data?.token ?? '';
      const res = await app.call(resetNursingPassword, { id: c.id }, { token: world.homeToken });
      expect(res.status).toBe(200);
      const fresh = res.data?.initialPassword ?? '';
      expect(fresh).not.toBe(c.initialPassword);
      expect(await sessionStatus(token)).toBe(401);
      expect((await appLogin(app, c.userName, c.initialPassword)).msgKey).toBe('login.wrong');
      const login = await appLogin(app, c.userName, fresh);
      expect(login.status).toBe(200);
      expect(login.data?.mustChangePassword).toBe(true);
    });

    it('deletes: links removed, account cancelled and signed out, phone and login free again', async () => {
      const r = await seedResident(app, world.home.id, 'Delete R');
      const c = await makeCaregiver(app, world.homeToken, 'Leaving Carer', { residentIds: [r] });
      const token = (await appLogin(app, c.userName, c.initialPassword)).data?.token ?? '';
      const res = await app.call(deleteNursing, { id: c.id }, { token: world.homeToken });
      expect(res.status).toBe(200);
      expect(await one(world.homeToken, c.id)).toBeUndefined();
      expect(await links(c.id)).toEqual([]);
      expect(await sessionStatus(token)).toBe(401);
      expect((await appLogin(app, c.userName, c.initialPassword)).msgKey).toBe('login.wrong');
      const cancelled = await accountRow(app, c.userName);
      expect(cancelled?.deletedAt).not.toBeNull();
      expect(cancelled?.enabled).toBe(false);
      const again = await makeCaregiver(app, world.homeToken, 'Returning Carer', { phone: c.phone });
      expect(again.userName).toBe(c.userName);
      expect((await app.call(deleteNursing, { id: c.id }, { token: world.homeToken })).msgKey).toBe('not_found');
    });

    it("treats another tenant's caregiver as missing for every operation", async () => {
      const foreign = await makeCaregiver(app, world.otherToken, 'Foreign Carer');
      const attempts = [
        () => app.call(operateNursing, { id: foreign.id, type: 'edit', name: 'Hijacked' }, { token: world.homeToken }),
        () => app.call(operateNursing, { id: foreign.id, type: 'disable' }, { token: world.homeToken }),
        () => app.call(resetNursingPassword, { id: foreign.id }, { token: world.homeToken }),
        () => app.call(deleteNursing, { id: foreign.id }, { token: world.groupToken }),
      ];
      for (const attempt of attempts) {
        const res = await attempt();
        expect(res.status).toBe(300);
        expect(res.msgKey).toBe('not_found');
      }
      expect(await one(world.otherToken, foreign.id)).toMatchObject({ name: 'Foreign Carer', enabled: true });
      expect((await appLogin(app, foreign.userName, foreign.initialPassword)).status).toBe(200);
    });

    it('lets the class 1 group manage its home caregivers', async () => {
      const c = await makeCaregiver(app, world.homeToken, 'Group Managed');
      const res = await app.call(operateNursing, { id: c.id, type: 'edit', job: 'Cook' }, { token: world.groupToken });
      expect(res.status).toBe(200);
      expect((await one(world.homeToken, c.id))?.job).toBe('Cook');
    });
  });

  describe('concurrency', () => {
    it('never gives a resident more than 100 caregivers when caregivers are linked at the same time', async () => {
      const r = await seedResident(app, world.home.id, 'Race Resident');
      const now = app.clock.now();
      const seeded = await app.database.db
        .insert(caregivers)
        .values(
          Array.from({ length: 98 }, (_, i) => ({
            providerId: world.home.id,
            name: `Race ${i}`,
            phone: `1360000${String(i).padStart(4, '0')}`,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .returning({ id: caregivers.id });
      await app.database.db
        .insert(residentCaregivers)
        .values(seeded.map((c) => ({ residentId: r, caregiverId: c.id })));
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          app.call(
            insertNursing,
            { name: `Racer ${i}`, phone: freshPhone(), residentIds: [r] },
            { token: world.homeToken },
          ),
        ),
      );
      expect(results.filter((x) => x.status === 200)).toHaveLength(2);
      expect(results.filter((x) => x.msgKey === 'caregiver.residentFull')).toHaveLength(4);
      const [count] = await app.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(residentCaregivers)
        .where(eq(residentCaregivers.residentId, r));
      expect(count?.n).toBe(100);
    });

    it('gives a phone to one caregiver only when two are created at the same time', async () => {
      const phone = freshPhone();
      const results = await Promise.all(
        ['Twin A', 'Twin B'].map((name) => app.call(insertNursing, { name, phone }, { token: world.homeToken })),
      );
      expect(results.filter((x) => x.status === 200)).toHaveLength(1);
      const refused = results.find((x) => x.status !== 200);
      expect(['caregiver.phoneExists', 'caregiver.accountExists', 'account.exists']).toContain(refused?.msgKey);
    });
  });

  describe('batch creation (for spreadsheet import)', () => {
    it('reports every problem row as data and writes nothing, or creates all rows', async () => {
      const caller = await callerOf(app, world.home.userName, world.home.password);
      const taken = (await makeCaregiver(app, world.homeToken, 'Batch Existing')).phone;
      const p = freshPhone();
      const ghost = 987_654;
      const outcome = await app.database.db.transaction((tx) =>
        app.services.care.caregivers.createMany(
          caller,
          [
            { name: 'Row 0', phone: p, level: 'normal', residentIds: [] },
            { name: 'Row 1', phone: p, level: 'normal', residentIds: [] },
            { name: 'Row 2', phone: taken, level: 'normal', residentIds: [] },
            { name: 'Row 3', phone: freshPhone(), level: 'lead', residentIds: [ghost] },
            { name: 'Row 4', phone: freshPhone(), level: 'normal', residentIds: [], userName: 'batchLogin01' },
            { name: 'Row 5', phone: freshPhone(), level: 'normal', residentIds: [], userName: 'BATCHLOGIN01' },
          ],
          tx,
          '127.0.0.1',
        ),
      );
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.problems).toEqual(
        expect.arrayContaining([
          { index: 1, field: 'phone', key: 'import.cell.duplicate', params: { other: 0 } },
          { index: 2, field: 'phone', key: 'caregiver.phoneExists', params: {} },
          { index: 3, field: 'residentIds', key: 'not_found', params: {} },
          { index: 5, field: 'userName', key: 'import.cell.duplicate', params: { other: 4 } },
        ]),
      );
      expect(outcome.problems).toHaveLength(4);
      expect(await listed(world.homeToken, 'Row ')).toEqual([]);

      const done = await app.database.db.transaction((tx) =>
        app.services.care.caregivers.createMany(
          caller,
          [
            { name: 'Row A', phone: freshPhone(), level: 'normal', residentIds: [] },
            { name: 'Row B', phone: freshPhone(), level: 'lead', residentIds: [], job: 'Porter' },
          ],
          tx,
          '127.0.0.1',
        ),
      );
      expect(done.ok).toBe(true);
      expect((await listed(world.homeToken, 'Row ')).map((r) => r.name).sort()).toEqual(['Row A', 'Row B']);
    });
  });
});

/** The Caller of a signed-in account, as services receive it. */
const callerOf = async (app: TestApp, userName: string, password: string) => {
  const token = await app.login(userName, password);
  const outcome = await app.services.sessions.authenticate(token);
  if (outcome.kind !== 'ok') throw new Error(`no caller for ${userName}`);
  return outcome.caller;
};
