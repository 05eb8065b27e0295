import { adminLogin, deleteUserFamily } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditLog } from '../../db/schema.ts';
import { makeAccount, STRONG_PASSWORD } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import {
  appSessionAfterPasswordChange,
  careWorld,
  contactExists,
  makeCaregiver,
  seedContact,
  seedResident,
} from './care-fixtures.ts';

describeEachDb('relatives’ bindings: /app/deleteUserFamily (%s)', (target) => {
  let app: TestApp;
  let world: Awaited<ReturnType<typeof careWorld>>;

  /** A relative's mini-program account, signed in with the contact phone. */
  const relativeToken = async (phone: string, providerId: number) => {
    await app.services.accounts.createWithPassword(
      app.database.db,
      { userName: phone, displayName: 'Relative', role: 'RELATIVES', providerId, createdBy: null },
      STRONG_PASSWORD,
    );
    const res = await app.call(adminLogin, { userName: phone, passWord: STRONG_PASSWORD, from: 'MINI' });
    if (!res.data) throw new Error(`relative login ${phone}: ${res.msg}`);
    return res.data.token;
  };

  beforeAll(async () => {
    app = await createTestApp(target);
    world = await careWorld(app, 'Family');
  });
  afterAll(() => app?.close());

  it('lets a manager remove a binding of its residents, and audits it', async () => {
    const resident = await seedResident(app, world.home.id, 'Bound Resident');
    const contact = await seedContact(app, resident, '13811112222');
    const res = await app.call(deleteUserFamily, { id: contact }, { token: world.homeToken });
    expect(res.status, res.msg).toBe(200);
    expect(await contactExists(app, contact)).toBe(false);
    const audit = await app.database.db.select().from(auditLog).where(eq(auditLog.action, 'family.unbind'));
    expect(audit.map((a) => a.targetId)).toContain(String(contact));
    // Already gone: not found.
    expect((await app.call(deleteUserFamily, { id: contact }, { token: world.homeToken })).msgKey).toBe('not_found');
  });

  it("treats another tenant's binding as missing", async () => {
    const foreign = await seedResident(app, world.other.id, 'Foreign Bound');
    const contact = await seedContact(app, foreign, '13822223333');
    for (const token of [world.homeToken, world.groupToken]) {
      const res = await app.call(deleteUserFamily, { id: contact }, { token });
      expect(res.status).toBe(300);
      expect(res.msgKey).toBe('not_found');
    }
    expect(await contactExists(app, contact)).toBe(true);
  });

  it('lets a caregiver remove bindings only of the residents it looks after', async () => {
    const mine = await seedResident(app, world.home.id, 'Looked After');
    const notMine = await seedResident(app, world.home.id, 'Not Looked After');
    const carer = await makeCaregiver(app, world.homeToken, 'Family Carer', { residentIds: [mine] });
    const token = await appSessionAfterPasswordChange(app, carer.userName, carer.initialPassword);
    const other = await seedContact(app, notMine, '13833334444');
    const refused = await app.call(deleteUserFamily, { id: other }, { token });
    expect(refused.msgKey).toBe('not_found');
    expect(await contactExists(app, other)).toBe(true);
    const own = await seedContact(app, mine, '13833335555');
    const res = await app.call(deleteUserFamily, { id: own }, { token });
    expect(res.status, res.msg).toBe(200);
    expect(await contactExists(app, own)).toBe(false);
  });

  it('lets a relative remove only its own binding', async () => {
    const resident = await seedResident(app, world.home.id, 'Relative Resident');
    const mine = await seedContact(app, resident, '13844445555', 'Son');
    const sisters = await seedContact(app, resident, '13844446666', 'Daughter');
    const token = await relativeToken('13844445555', world.home.id);
    const refused = await app.call(deleteUserFamily, { id: sisters }, { token });
    expect(refused.msgKey).toBe('not_found');
    expect(await contactExists(app, sisters)).toBe(true);
    const res = await app.call(deleteUserFamily, { id: mine }, { token });
    expect(res.status, res.msg).toBe(200);
    expect(await contactExists(app, mine)).toBe(false);
  });

  it('refuses roles without access, and bad ids', async () => {
    const gov = await makeAccount(app, world.groupToken, 'familyGov01', 'GOVERNMENT');
    const govToken = await app.login(gov.userName, gov.password);
    const resident = await seedResident(app, world.home.id, 'Gov Resident');
    const contact = await seedContact(app, resident, '13855556666');
    const res = await app.call(deleteUserFamily, { id: contact }, { token: govToken });
    expect(res.msgKey).toBe('no_permission');
    expect(await contactExists(app, contact)).toBe(true);
    for (const id of ['abc', '0', '-1', '99999999999', "1' or '1'='1"]) {
      const bad = await app.app.inject({
        method: 'GET',
        url: `/app/deleteUserFamily?id=${encodeURIComponent(id)}`,
        headers: { 'x-token': world.homeToken, 'accept-language': 'en-US' },
      });
      const body = JSON.parse(bad.body) as { status: number; msgKey: string; msg: string };
      expect(body.status, id).toBe(400);
      expect(body.msg, id).toMatch(/^ID /);
    }
    expect((await app.call(deleteUserFamily, { id: contact })).httpStatus).toBe(401);
  });
});
