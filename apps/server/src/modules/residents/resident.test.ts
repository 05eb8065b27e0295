import {
  bunkCheckOut,
  changeProvider,
  deleteResident,
  getResident,
  insertResident,
  residentList,
  residentSummary,
  updateResident,
  type Role,
} from '@vigil/contract';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import { auditLog, emergencyContacts, providers, residentCaregivers, residents } from '../../db/schema.ts';
import { makeAccount, makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { checkIn, mustInsert, residentInput, seedCaregiver, seedCommunity, seedPlaces } from './resident-fixtures.ts';

/** Noon UTC: the same calendar day in every time zone from UTC-11 to UTC+11. */
const NOW = new Date('2026-03-15T12:00:00Z');

describeEachDb('residents (%s)', (target) => {
  let app: TestApp;
  let admin: string;
  let group: { id: number; token: string };
  let home: { id: number; token: string };
  let other: { id: number; token: string };

  const detail = async (id: number, token = home.token) => {
    const res = await app.call(getResident, { id }, { token });
    if (res.status !== 200 || !res.data) throw new Error(`getUserMessageById ${id}: ${res.msgKey}`);
    return res.data;
  };
  const auditOf = async (action: string, id: number) =>
    app.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(id))));

  beforeAll(async () => {
    app = await createTestApp(target, { clock: new ManualClock(NOW), env: { SESSION_IDLE_MINUTES: '43200' } });
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const g = await makeProvider(app, admin, 'Sunrise Group');
    group = { id: g.id, token: await app.login(g.userName, g.password) };
    const h = await makeProvider(app, group.token, 'Sunrise Home');
    home = { id: h.id, token: await app.login(h.userName, h.password) };
    const o = await makeProvider(app, admin, 'Other Care');
    other = { id: o.id, token: await app.login(o.userName, o.password) };
  });
  afterAll(() => app?.close());

  describe('registering (insertUser)', () => {
    it('registers a resident with contacts, carers and community, state registered, and audits it', async () => {
      const carerA = await seedCaregiver(app, home.id, 'Carer Ann');
      const carerB = await seedCaregiver(app, home.id, 'Carer Bob');
      const community = await seedCommunity(app, home.id, 'East Community');
      const res = await app.call(
        insertResident,
        {
          name: '  Zhang Wei  ',
          gender: 0,
          birthDate: '1946-03-15',
          height: 170,
          weight: 65,
          medicalHistory: ['hypertension', 'stroke', 'hypertension'],
          otherHistory: 'Asthma',
          contacts: [
            { name: 'Zhang Min', phone: '+86 138-0013-8000', relation: 'child' },
            { name: 'Li Hua', phone: '0044 7911 123456', relation: 'friend' },
          ],
          priority: true,
          remark: 'Needs a night light',
          caregiverIds: [carerA, carerB, carerA],
          communityId: community,
        },
        { token: home.token },
      );
      expect(res.status, res.msg).toBe(200);
      const id = res.data?.id ?? 0;
      const d = await detail(id);
      expect(d).toMatchObject({
        id,
        providerId: home.id,
        providerName: 'Sunrise Home',
        name: 'Zhang Wei',
        gender: 0,
        birthDate: '1946-03-15',
        age: 80,
        height: 170,
        weight: 65,
        medicalHistory: ['hypertension', 'stroke'],
        otherHistory: 'Asthma',
        priority: true,
        remark: 'Needs a night light',
        state: 'registered',
        admittedAt: null,
        bedId: null,
        roomId: null,
        communityId: community,
        communityName: 'East Community',
        contactsCount: 2,
        away: false,
        absence: null,
      });
      // Phones are kept normalised: relatives sign in with them.
      expect(d.contacts.map((c) => [c.name, c.phone, c.relation])).toEqual([
        ['Zhang Min', '13800138000', 'child'],
        ['Li Hua', '+447911123456', 'friend'],
      ]);
      expect(d.carers.map((c) => c.name)).toEqual(['Carer Ann', 'Carer Bob']);
      const audit = await auditOf('resident.create', id);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ providerId: home.id, targetType: 'resident', detail: { name: 'Zhang Wei' } });
    });

    it('asks before registering a second resident of the same name in the provider (resident.sameName), then saves with confirm', async () => {
      const first = await mustInsert(app, home.token, { name: 'Wang Fang' });
      for (const name of ['Wang Fang', ' wang fang ', 'WANG FANG']) {
        const again = await app.call(insertResident, residentInput({ name }), { token: home.token });
        expect(again.status, name).toBe(300);
        expect(again.msgKey).toBe('resident.sameName');
        expect(again.msg).toContain(name.trim());
        expect(again.data).toEqual({ existingIds: [first] });
      }
      const zh = await app.call(insertResident, residentInput({ name: 'Wang Fang' }), {
        token: home.token,
        lang: 'zh-CN',
      });
      expect(zh.msg).toBe('已存在名为“Wang Fang”的长者，是否仍要保存？');
      const confirmed = await app.call(insertResident, residentInput({ name: 'wang fang', confirm: true }), {
        token: home.token,
      });
      expect(confirmed.status).toBe(200);
      const third = await app.call(insertResident, residentInput({ name: 'Wang Fang' }), { token: home.token });
      expect(third.data).toEqual({ existingIds: [first, confirmed.data?.id] });
      // Another provider's resident of that name does not count.
      const elsewhere = await app.call(insertResident, residentInput({ name: 'Wang Fang' }), { token: other.token });
      expect(elsewhere.status).toBe(200);
    });

    it('refuses impossible birth dates: future (resident.birthDateFuture), over 130 years (resident.birthDateTooOld)', async () => {
      const cases: [string, number, string][] = [
        ['2026-03-16', 400, 'resident.birthDateFuture'],
        ['2030-01-01', 400, 'resident.birthDateFuture'],
        ['1895-03-14', 400, 'resident.birthDateTooOld'],
        ['2026-02-30', 400, 'resident.birthDateFormat'],
        ['1950/01/01', 400, 'resident.birthDateFormat'],
      ];
      for (const [birthDate, status, msgKey] of cases) {
        const res = await app.call(insertResident, residentInput({ birthDate }), { token: home.token });
        expect(res.status, birthDate).toBe(status);
        expect(res.msgKey, birthDate).toBe(msgKey);
      }
      const format = await app.call(insertResident, residentInput({ birthDate: '1950-13-01' }), { token: home.token });
      expect(format.msg).toBe('Date of birth must be a real date written YYYY-MM-DD.');
      // Born today and exactly 130 years ago are both fine.
      for (const birthDate of ['2026-03-15', '1896-03-15']) {
        const res = await app.call(insertResident, residentInput({ birthDate }), { token: home.token });
        expect(res.status, birthDate).toBe(200);
        expect((await detail(res.data?.id ?? 0)).age).toBe(birthDate === '2026-03-15' ? 0 : 130);
      }
    });

    it('refuses bad emergency contacts: phone format, a phone listed twice, an id of an existing contact', async () => {
      const bad = await app.call(
        insertResident,
        residentInput({ contacts: [{ name: 'Son', phone: '0755-1234567', relation: 'child' }] }),
        { token: home.token },
      );
      expect(bad.status).toBe(400);
      expect(bad.msgKey).toBe('validation.phone');
      expect(bad.msg).toMatch(/^Phone /);
      const twice = await app.call(
        insertResident,
        residentInput({
          contacts: [
            { name: 'Son', phone: '13900000001', relation: 'child' },
            { name: 'Daughter', phone: '139 0000 0001', relation: 'child' },
          ],
        }),
        { token: home.token },
      );
      expect(twice.status).toBe(400);
      expect(twice.msgKey).toBe('resident.contactDuplicate');
      expect(twice.msg).toContain('13900000001');
      const someone = await mustInsert(app, home.token, {
        contacts: [{ name: 'Neighbour', phone: '13900000002', relation: 'friend' }],
      });
      const [contact] = (await detail(someone)).contacts;
      const stolen = await app.call(
        insertResident,
        residentInput({ contacts: [{ id: contact?.id, name: 'Neighbour', phone: '13900000002', relation: 'friend' }] }),
        { token: home.token },
      );
      expect(stolen.status).toBe(300);
      expect(stolen.msgKey).toBe('resident.contactNotFound');
      const six = await app.call(
        insertResident,
        residentInput({
          contacts: Array.from({ length: 6 }, (_, i) => ({
            name: `C${i}`,
            phone: `1390000010${i}`,
            relation: 'relative' as const,
          })),
        }),
        { token: home.token },
      );
      expect(six.status).toBe(400);
      expect(six.msgKey).toBe('validation.maxLength');
    });

    it('links only carers and a community of the same provider (resident.carerNotFound, resident.communityNotFound)', async () => {
      const foreignCarer = await seedCaregiver(app, other.id, 'Foreign Carer');
      const groupCarer = await seedCaregiver(app, group.id, 'Group Carer');
      for (const caregiverIds of [[foreignCarer], [groupCarer], [2_000_000_000]]) {
        const res = await app.call(insertResident, residentInput({ caregiverIds }), { token: home.token });
        expect(res.status).toBe(300);
        expect(res.msgKey).toBe('resident.carerNotFound');
      }
      const foreignCommunity = await seedCommunity(app, other.id, 'Foreign Community');
      for (const communityId of [foreignCommunity, 2_000_000_000]) {
        const res = await app.call(insertResident, residentInput({ communityId }), { token: home.token });
        expect(res.status).toBe(300);
        expect(res.msgKey).toBe('resident.communityNotFound');
      }
      const before = await app.database.db.select().from(residents).where(eq(residents.providerId, other.id));
      expect(before.every((r) => r.providerId === other.id)).toBe(true);
    });

    it('refuses a carer who already looks after 100 residents (resident.carerFull)', async () => {
      const busy = await seedCaregiver(app, home.id, 'Busy Bee');
      const ids = await app.database.db
        .insert(residents)
        .values(Array.from({ length: 99 }, (_, i) => ({ providerId: home.id, name: `Load ${i}`, gender: 0 })))
        .returning({ id: residents.id });
      await app.database.db
        .insert(residentCaregivers)
        .values(ids.map((r) => ({ residentId: r.id, caregiverId: busy })));
      const hundredth = await app.call(insertResident, residentInput({ caregiverIds: [busy] }), { token: home.token });
      expect(hundredth.status).toBe(200);
      const full = await app.call(insertResident, residentInput({ caregiverIds: [busy] }), { token: home.token });
      expect(full.status).toBe(300);
      expect(full.msgKey).toBe('resident.carerFull');
      expect(full.msg).toBe('Carer Busy Bee already looks after 100 residents, the maximum.');
      const tooMany = await app.call(
        insertResident,
        residentInput({ caregiverIds: Array.from({ length: 101 }, (_, i) => i + 1) }),
        { token: home.token },
      );
      expect(tooMany.status).toBe(400);
      expect(tooMany.msgKey).toBe('validation.maxLength');
    });

    it('puts the resident in the chosen provider; a class 1 login may name a subordinate, never a foreign provider', async () => {
      const own = await mustInsert(app, group.token);
      expect((await detail(own, group.token)).providerId).toBe(group.id);
      const named = await mustInsert(app, group.token, { providerId: home.id });
      expect((await detail(named, group.token)).providerId).toBe(home.id);
      const foreign = await app.call(insertResident, residentInput({ providerId: other.id }), { token: group.token });
      expect(foreign.status).toBe(300);
      expect(foreign.msgKey).toBe('not_found');
      const [homeRow] = await app.database.db.select().from(providers).where(eq(providers.id, home.id));
      const chosen = await app.call(changeProvider, { domain: homeRow?.domain ?? '' }, { token: group.token });
      expect(chosen.status).toBe(200);
      const viaChoice = await mustInsert(app, group.token);
      expect((await detail(viaChoice, group.token)).providerId).toBe(home.id);
      // Back to the group's whole scope for the other tests.
      const [groupRow] = await app.database.db.select().from(providers).where(eq(providers.id, group.id));
      await app.call(changeProvider, { domain: groupRow?.domain ?? '' }, { token: group.token });
    });
  });

  describe('editing (updateUser)', () => {
    it('changes only the fields sent; null clears; occupancy stays', async () => {
      const id = await mustInsert(app, home.token, {
        name: 'Edit Me',
        height: 160,
        weight: 50,
        remark: 'first',
        otherHistory: 'x',
        medicalHistory: ['alzheimer'],
      });
      const res = await app.call(
        updateResident,
        { id, height: null, remark: null, priority: true, medicalHistory: ['paralyze', 'others'] },
        { token: home.token },
      );
      expect(res.status, res.msg).toBe(200);
      const d = await detail(id);
      expect(d).toMatchObject({
        name: 'Edit Me',
        height: null,
        weight: 50,
        remark: null,
        otherHistory: 'x',
        priority: true,
        medicalHistory: ['paralyze', 'others'],
        state: 'registered',
      });
      const [audit] = await auditOf('resident.update', id);
      expect(audit?.detail).toEqual({ name: 'Edit Me', fields: ['height', 'medicalHistory', 'priority', 'remark'] });
    });

    it('edits contacts by id, adds new ones and removes unlisted ones, keeping ids of kept contacts', async () => {
      const id = await mustInsert(app, home.token, {
        contacts: [
          { name: 'Keep', phone: '13700000001', relation: 'child' },
          { name: 'Drop', phone: '13700000002', relation: 'friend' },
        ],
      });
      const [keep, drop] = (await detail(id)).contacts;
      const res = await app.call(
        updateResident,
        {
          id,
          contacts: [
            { name: 'New', phone: '+1 415 555 0100', relation: 'relative' },
            { id: keep?.id, name: 'Kept', phone: '137-0000-0009', relation: 'child' },
          ],
        },
        { token: home.token },
      );
      expect(res.status, res.msg).toBe(200);
      const after = (await detail(id)).contacts;
      expect(after.map((c) => [c.name, c.phone, c.relation])).toEqual([
        ['New', '+14155550100', 'relative'],
        ['Kept', '13700000009', 'child'],
      ]);
      expect(after[1]?.id).toBe(keep?.id);
      const gone = await app.database.db
        .select()
        .from(emergencyContacts)
        .where(eq(emergencyContacts.id, drop?.id ?? 0));
      expect(gone).toEqual([]);
      // A contact of another resident cannot be taken over.
      const stranger = await mustInsert(app, home.token, {
        contacts: [{ name: 'Theirs', phone: '13700000003', relation: 'child' }],
      });
      const theirs = (await detail(stranger)).contacts[0];
      const steal = await app.call(
        updateResident,
        { id, contacts: [{ id: theirs?.id, name: 'Mine', phone: '13700000003', relation: 'child' }] },
        { token: home.token },
      );
      expect(steal.status).toBe(300);
      expect(steal.msgKey).toBe('resident.contactNotFound');
      expect((await detail(stranger)).contacts[0]).toEqual(theirs);
      const twice = await app.call(
        updateResident,
        {
          id,
          contacts: [
            { name: 'A', phone: '13700000004', relation: 'child' },
            { name: 'B', phone: '+8613700000004', relation: 'child' },
          ],
        },
        { token: home.token },
      );
      expect(twice.msgKey).toBe('resident.contactDuplicate');
      expect((await detail(id)).contacts).toEqual(after);
    });

    it('asks before renaming to another resident’s name, not for a change of case', async () => {
      await mustInsert(app, home.token, { name: 'Chen Jie' });
      const id = await mustInsert(app, home.token, { name: 'Liu Yang' });
      const clash = await app.call(updateResident, { id, name: 'CHEN JIE' }, { token: home.token });
      expect(clash.status).toBe(300);
      expect(clash.msgKey).toBe('resident.sameName');
      expect((await detail(id)).name).toBe('Liu Yang');
      const caseOnly = await app.call(updateResident, { id, name: 'liu yang' }, { token: home.token });
      expect(caseOnly.status).toBe(200);
      const confirmed = await app.call(updateResident, { id, name: 'Chen Jie', confirm: true }, { token: home.token });
      expect(confirmed.status).toBe(200);
      expect((await detail(id)).name).toBe('Chen Jie');
    });

    it('replaces the carers and the community, within the provider only; refuses bad birth dates', async () => {
      const a = await seedCaregiver(app, home.id, 'Carer Xu');
      const b = await seedCaregiver(app, home.id, 'Carer Yu');
      const foreign = await seedCaregiver(app, other.id, 'Carer Foreign');
      const id = await mustInsert(app, home.token, { caregiverIds: [a] });
      expect((await app.call(updateResident, { id, caregiverIds: [b] }, { token: home.token })).status).toBe(200);
      expect((await detail(id)).carers.map((c) => c.id)).toEqual([b]);
      const bad = await app.call(updateResident, { id, caregiverIds: [a, foreign] }, { token: home.token });
      expect(bad.msgKey).toBe('resident.carerNotFound');
      expect((await detail(id)).carers.map((c) => c.id)).toEqual([b]);
      const community = await seedCommunity(app, home.id, 'West Community');
      const foreignCommunity = await seedCommunity(app, other.id, 'Other West');
      expect((await app.call(updateResident, { id, communityId: community }, { token: home.token })).status).toBe(200);
      const moved = await app.call(updateResident, { id, communityId: foreignCommunity }, { token: home.token });
      expect(moved.msgKey).toBe('resident.communityNotFound');
      expect((await detail(id)).communityId).toBe(community);
      expect((await app.call(updateResident, { id, communityId: null }, { token: home.token })).status).toBe(200);
      expect((await detail(id)).communityId).toBeNull();
      const future = await app.call(updateResident, { id, birthDate: '2027-01-01' }, { token: home.token });
      expect(future.msgKey).toBe('resident.birthDateFuture');
      const none = await app.call(updateResident, { id, caregiverIds: [] }, { token: home.token });
      expect(none.status).toBe(200);
      expect((await detail(id)).carers).toEqual([]);
    });

    it('refuses the carer limit on newly added carers only', async () => {
      const busy = await seedCaregiver(app, home.id, 'Full Carer');
      const id = await mustInsert(app, home.token, { caregiverIds: [busy] });
      const load = await app.database.db
        .insert(residents)
        .values(Array.from({ length: 99 }, (_, i) => ({ providerId: home.id, name: `Full ${i}`, gender: 1 })))
        .returning({ id: residents.id });
      await app.database.db
        .insert(residentCaregivers)
        .values(load.map((r) => ({ residentId: r.id, caregiverId: busy })));
      // Already linked: keeping the carer is fine.
      expect((await app.call(updateResident, { id, caregiverIds: [busy] }, { token: home.token })).status).toBe(200);
      const newcomer = await mustInsert(app, home.token);
      const full = await app.call(updateResident, { id: newcomer, caregiverIds: [busy] }, { token: home.token });
      expect(full.msgKey).toBe('resident.carerFull');
    });
  });

  describe('lists, detail and summary', () => {
    let annex: { id: number; token: string };
    let places: Awaited<ReturnType<typeof seedPlaces>>;
    const ids = { eighty: 0, seventyNine: 0, checkedOut: 0, percent: 0 };
    let garden = 0;

    beforeAll(async () => {
      const a = await makeProvider(app, group.token, 'Sunrise Annex');
      annex = { id: a.id, token: await app.login(a.userName, a.password) };
      places = await seedPlaces(app, annex.id, 'Annex');
      const carer = await seedCaregiver(app, annex.id, 'Annex Carer');
      garden = await seedCommunity(app, annex.id, 'Annex Garden');
      ids.eighty = await mustInsert(app, annex.token, {
        communityId: garden,
        name: 'Old Eighty',
        gender: 0,
        birthDate: '1946-03-15',
        priority: true,
        contacts: [{ name: 'Kid', phone: '13611112222', relation: 'child' }],
        caregiverIds: [carer],
      });
      ids.seventyNine = await mustInsert(app, annex.token, {
        name: 'Young Seventy-Nine',
        gender: 1,
        birthDate: '1946-03-16',
      });
      ids.checkedOut = await mustInsert(app, annex.token, { name: 'Gone Home', gender: 1, birthDate: '1930-01-01' });
      ids.percent = await mustInsert(app, annex.token, { name: '100% Sure_Name', gender: 1, birthDate: '1950-01-01' });
      await checkIn(app, annex.token, ids.eighty, places.beds[0]?.id ?? 0);
      await checkIn(app, annex.token, ids.checkedOut, places.beds[1]?.id ?? 0);
      expect((await app.call(bunkCheckOut, { userId: ids.checkedOut }, { token: annex.token })).status).toBe(200);
    });

    const list = async (filters: Record<string, unknown>, token = annex.token) => {
      const res = await app.call(residentList, { pageSize: 100, ...filters }, { token });
      expect(res.status, res.msg).toBe(200);
      return res.data?.rows.map((r) => r.name) ?? [];
    };

    it('shows bed, address path, community, age, contacts count and carers in each row', async () => {
      const res = await app.call(residentList, { pageSize: 100 }, { token: annex.token });
      expect(res.data?.total).toBe(4);
      const row = res.data?.rows.find((r) => r.id === ids.eighty);
      expect(row).toMatchObject({
        name: 'Old Eighty',
        providerName: 'Sunrise Annex',
        state: 'checkedIn',
        age: 80,
        bedId: places.beds[0]?.id,
        bedName: 'Annex Bed 1',
        roomName: 'Annex Room 101',
        floorName: 'Annex Floor 1',
        areaName: 'Annex Building',
        contactsCount: 1,
        carers: [{ name: 'Annex Carer' }],
        priority: true,
        away: false,
      });
      expect(row?.admittedAt).toBe(NOW.toISOString());
      // Checked out: the bed is gone, the room address is kept.
      const gone = res.data?.rows.find((r) => r.id === ids.checkedOut);
      expect(gone).toMatchObject({ state: 'checkedOut', bedId: null, roomName: 'Annex Room 101', age: 96 });
      // Newest first.
      expect(res.data?.rows.map((r) => r.id)).toEqual([ids.percent, ids.checkedOut, ids.seventyNine, ids.eighty]);
    });

    it('filters by keyword (name or contact phone), state, gender, priority, area, floor, room, community and age', async () => {
      expect(await list({ keyWord: 'old' })).toEqual(['Old Eighty']);
      expect(await list({ keyWord: '1111 2222' })).toEqual(['Old Eighty']);
      expect(await list({ keyWord: '100%' })).toEqual(['100% Sure_Name']);
      expect(await list({ keyWord: '%' })).toEqual(['100% Sure_Name']);
      expect(await list({ keyWord: '_' })).toEqual(['100% Sure_Name']);
      expect(await list({ keyWord: "'; drop table resident; --" })).toEqual([]);
      expect(await list({ state: 'checkedIn' })).toEqual(['Old Eighty']);
      expect(await list({ state: 'checkedOut' })).toEqual(['Gone Home']);
      expect(await list({ state: 'loggedOff' })).toEqual([]);
      expect((await list({ gender: 1 })).sort()).toEqual(['100% Sure_Name', 'Gone Home', 'Young Seventy-Nine']);
      expect(await list({ priority: true })).toEqual(['Old Eighty']);
      expect(await list({ areaId: places.area.id })).toEqual(['Gone Home', 'Old Eighty']);
      expect(await list({ areaId: places.floor.id })).toEqual(['Gone Home', 'Old Eighty']);
      expect(await list({ roomId: places.room.id })).toEqual(['Gone Home', 'Old Eighty']);
      expect(await list({ communityId: garden })).toEqual(['Old Eighty']);
      expect(await list({ ageMin: 80 })).toEqual(['Gone Home', 'Old Eighty']);
      expect(await list({ ageMax: 79 })).toEqual(['100% Sure_Name', 'Young Seventy-Nine']);
      expect(await list({ ageMin: 79, ageMax: 80 })).toEqual(['Young Seventy-Nine', 'Old Eighty']);
      const bad = await app.call(residentList, { ageMin: 90, ageMax: 80 }, { token: annex.token });
      expect(bad.status).toBe(400);
      expect(bad.msgKey).toBe('resident.ageRange');
      const page = await app.call(residentList, { pageNum: 2, pageSize: 3 }, { token: annex.token });
      expect(page.data).toMatchObject({ total: 4, pageNum: 2, pageSize: 3 });
      expect(page.data?.rows.map((r) => r.id)).toEqual([ids.eighty]);
    });

    it('counts by state, priority, gender (userSummary) within the caller’s scope', async () => {
      const res = await app.call(residentSummary, {}, { token: annex.token });
      expect(res.data).toEqual({
        total: 4,
        byState: { registered: 2, checkedIn: 1, checkedOut: 1, loggedOff: 0 },
        priority: 1,
        male: 1,
        female: 3,
        away: 0,
      });
      // A class 1 login counts the provider it works on: its own, or the subordinate it chose.
      const groupSummary = await app.call(residentSummary, {}, { token: group.token });
      const groupList = await app.call(residentList, { pageSize: 1 }, { token: group.token });
      expect(groupSummary.data?.total).toBe(groupList.data?.total);
      const domainOf = async (id: number) =>
        (await app.database.db.select().from(providers).where(eq(providers.id, id)))[0]?.domain ?? '';
      await app.call(changeProvider, { domain: await domainOf(annex.id) }, { token: group.token });
      expect((await app.call(residentSummary, {}, { token: group.token })).data).toEqual(res.data);
      await app.call(changeProvider, { domain: await domainOf(group.id) }, { token: group.token });
      const otherList = await app.call(residentList, { pageSize: 1000 }, { token: other.token });
      expect(otherList.data?.rows.every((r) => r.providerId === other.id)).toBe(true);
      const homeList = await app.call(residentList, { pageSize: 1000, keyWord: 'Old Eighty' }, { token: home.token });
      expect(homeList.data?.total).toBe(0);
    });

    it('deletes a never-checked-in resident, logs off a checked-out one, refuses a checked-in one', async () => {
      const fresh = await mustInsert(app, annex.token, {
        contacts: [{ name: 'Kin', phone: '13655556666', relation: 'relative' }],
        caregiverIds: [await seedCaregiver(app, annex.id, 'Temp Carer')],
      });
      const del = await app.call(deleteResident, { id: fresh }, { token: annex.token });
      expect(del.data).toEqual({ outcome: 'deleted' });
      expect(await app.database.db.select().from(residents).where(eq(residents.id, fresh))).toEqual([]);
      expect(
        await app.database.db.select().from(emergencyContacts).where(like(emergencyContacts.phone, '13655556666')),
      ).toEqual([]);
      expect(await auditOf('resident.delete', fresh)).toHaveLength(1);
      const again = await app.call(deleteResident, { id: fresh }, { token: annex.token });
      expect(again.msgKey).toBe('not_found');

      const inBed = await app.call(deleteResident, { id: ids.eighty }, { token: annex.token });
      expect(inBed.status).toBe(300);
      expect(inBed.msgKey).toBe('resident.deleteCheckedIn');
      expect((await detail(ids.eighty, annex.token)).state).toBe('checkedIn');

      const logOff = await app.call(deleteResident, { id: ids.checkedOut }, { token: annex.token });
      expect(logOff.data).toEqual({ outcome: 'loggedOff' });
      const kept = await detail(ids.checkedOut, annex.token);
      expect(kept).toMatchObject({ state: 'loggedOff', roomId: null, name: 'Gone Home' });
      expect(kept.loggedOffAt).toBe(NOW.toISOString());
      const twice = await app.call(deleteResident, { id: ids.checkedOut }, { token: annex.token });
      expect(twice.data).toEqual({ outcome: 'loggedOff' });
      expect((await app.call(residentSummary, {}, { token: annex.token })).data?.byState).toEqual({
        registered: 2,
        checkedIn: 1,
        checkedOut: 0,
        loggedOff: 1,
      });
    });
  });

  describe('tenancy and roles', () => {
    it('answers not_found for another tenant’s resident on every by-id call and changes nothing', async () => {
      const theirs = await mustInsert(app, other.token, {
        name: 'Their Resident',
        contacts: [{ name: 'Their Kid', phone: '13512345678', relation: 'child' }],
      });
      const before = await detail(theirs, other.token);
      for (const token of [home.token, group.token]) {
        const calls = [
          await app.call(getResident, { id: theirs }, { token }),
          await app.call(updateResident, { id: theirs, name: 'Hijacked' }, { token }),
          await app.call(deleteResident, { id: theirs }, { token }),
        ];
        for (const res of calls) {
          expect(res.status).toBe(300);
          expect(res.msgKey).toBe('not_found');
          expect(JSON.stringify(res)).not.toContain('Their');
        }
        const missing = await app.call(getResident, { id: 2_000_000_000 }, { token });
        expect(missing.msg).toBe(calls[0]?.msg);
      }
      expect(await detail(theirs, other.token)).toEqual(before);
    });

    it('lets provider logins and sub-accounts manage residents; staff read; others are refused', async () => {
      const id = await mustInsert(app, home.token, { name: 'Role Probe' });
      const token = async (userName: string, role: Role, by = home.token) =>
        app.login(userName, (await makeAccount(app, by, userName, role)).password);
      const sub = await token('homeSubAcct', 'SUB_ROLE');
      const worker = await token('homeWorker1', 'SOCIAL_WORKER');
      const maint = await makeAccount(app, home.token, 'homeMaint01', 'MAINTAIN');
      const gov = await token('groupGov001', 'GOVERNMENT', group.token);
      const senior = await token('seniorAdm01', 'SENIOR_ROLE', admin);
      const carerAccount = await app.services.accounts.createWithPassword(
        app.database.db,
        { userName: 'homeCarer01', displayName: 'Carer', role: 'CARER', providerId: home.id, createdBy: null },
        'Care#Home2026',
      );
      const carer = await app.login(carerAccount.row.userName, 'Care#Home2026');

      expect((await app.call(updateResident, { id, remark: 'by sub' }, { token: sub })).status).toBe(200);
      expect((await app.call(insertResident, residentInput(), { token: sub })).status).toBe(200);
      for (const staff of [worker, carer]) {
        expect((await app.call(getResident, { id }, { token: staff })).status).toBe(200);
        expect((await app.call(residentList, {}, { token: staff })).status).toBe(200);
        const write = await app.call(updateResident, { id, remark: 'by staff' }, { token: staff });
        expect(write.msgKey).toBe('no_permission');
      }
      for (const outsider of [gov, senior]) {
        for (const res of [
          await app.call(insertResident, residentInput(), { token: outsider }),
          await app.call(updateResident, { id, remark: 'x' }, { token: outsider }),
          await app.call(deleteResident, { id }, { token: outsider }),
          await app.call(getResident, { id }, { token: outsider }),
          await app.call(residentList, {}, { token: outsider }),
        ]) {
          expect(res.msgKey).toBe('no_permission');
        }
      }
      // Installers cannot sign in to the console at all; the app channel does not reach these calls either.
      const maintLogin = await app.call((await import('@vigil/contract')).adminLogin, {
        userName: maint.userName,
        passWord: maint.password,
        from: 'APP',
      });
      const maintToken = maintLogin.data?.token ?? '';
      expect((await app.call(getResident, { id }, { token: maintToken })).msgKey).toBe('no_permission');
      expect((await detail(id)).remark).toBe('by sub');
      const anonymous = await app.call(residentList, {});
      expect(anonymous.httpStatus).toBe(401);
    });
  });
});
