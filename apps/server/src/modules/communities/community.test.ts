import {
  deleteCommunity,
  deleteNursing,
  getUserSleepConfig,
  insertCommunity,
  updateCommunity,
  operateNursing,
  queryCommunityList,
  saveAlarmConfig,
  saveUserSleepConfig,
  saveUserSleepConfigs,
  type Community,
} from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, communities, residents, residentSleepSettings } from '../../db/schema.ts';
import { makeAccount } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { careWorld, makeCaregiver, seedResident } from '../caregivers/care-fixtures.ts';

const SLEEP = {
  leaveBedMode: 'sleepTime',
  sleepTime: '21:30',
  wakeTime: '06:45',
  sensitivity: 'medium',
  mattress: 'latex',
} as const;

describeEachDb('communities (%s)', (target) => {
  let app: TestApp;
  let world: Awaited<ReturnType<typeof careWorld>>;

  const community = async (token: string, name: string, extra: Record<string, unknown> = {}) => {
    const res = await app.call(insertCommunity, { name, ...extra }, { token });
    if (res.status !== 200 || !res.data) throw new Error(`insertCommunity ${name}: ${res.msg}`);
    return res.data.id;
  };
  const listed = async (token: string, keyWord?: string): Promise<Community[]> => {
    const res = await app.call(queryCommunityList, { pageSize: 1000, ...(keyWord ? { keyWord } : {}) }, { token });
    expect(res.status, res.msg).toBe(200);
    return res.data?.rows ?? [];
  };
  const one = async (token: string, id: number) => (await listed(token)).find((c) => c.id === id);
  const stored = async (id: number) =>
    (await app.database.db.select().from(communities).where(eq(communities.id, id)))[0];
  /** Residents with saved sleep settings, of the given ones. */
  const withSleep = async (...ids: number[]) =>
    (await app.database.db.select().from(residentSleepSettings))
      .map((r) => r.residentId)
      .filter((r) => ids.includes(r))
      .sort((a, b) => a - b);

  beforeAll(async () => {
    app = await createTestApp(target);
    world = await careWorld(app, 'Community');
  });
  afterAll(() => app?.close());

  describe('editing (issue 8, point 11)', () => {
    it('renames a community and changes or clears its details, keeping its members', async () => {
      const id = await community(world.homeToken, 'Edit Lane', { contact: 'Ms Wu', phone: '13900001111' });
      await seedResident(app, world.home.id, 'Edit Member', id);
      const res = await app.call(
        updateCommunity,
        { id, name: 'Edit Court', contact: null, address: '1 Edit Court' },
        { token: world.homeToken },
      );
      expect(res.status, res.msg).toBe(200);
      expect(await one(world.homeToken, id)).toMatchObject({
        name: 'Edit Court',
        contact: null,
        address: '1 Edit Court',
        phone: '13900001111',
        residentCount: 1,
      });
      // Its own name in another case is no clash; another community's name is.
      expect((await app.call(updateCommunity, { id, name: 'EDIT court' }, { token: world.homeToken })).status).toBe(
        200,
      );
      await community(world.homeToken, 'Taken Court');
      const clash = await app.call(updateCommunity, { id, name: 'taken court' }, { token: world.homeToken });
      expect(clash.msgKey).toBe('community.exists');
      // Another tenant's community does not exist for the caller.
      const foreign = await app.call(updateCommunity, { id, name: 'Hijacked' }, { token: world.otherToken });
      expect(foreign.msgKey).toBe('not_found');
      expect((await one(world.homeToken, id))?.name).toBe('EDIT court');
    });
  });

  describe('creating and listing', () => {
    it('creates a community and lists it with its resident count', async () => {
      const id = await community(world.homeToken, 'Sunny Lane', {
        address: '12 Sunny Lane',
        contact: 'Mr Chen',
        phone: '+86 139 0000 1234',
        remark: 'east side',
      });
      await seedResident(app, world.home.id, 'Sunny One', id);
      await seedResident(app, world.home.id, 'Sunny Two', id);
      expect(await one(world.homeToken, id)).toMatchObject({
        name: 'Sunny Lane',
        address: '12 Sunny Lane',
        contact: 'Mr Chen',
        phone: '13900001234',
        remark: 'east side',
        providerId: world.home.id,
        providerName: 'Community Home',
        residentCount: 2,
        alarmConfig: null,
      });
      const audit = await app.database.db.select().from(auditLog).where(eq(auditLog.action, 'community.create'));
      expect(audit.map((a) => a.targetId)).toContain(String(id));
    });

    it('refuses a duplicate name within the provider (any case), allows it elsewhere', async () => {
      await community(world.homeToken, 'Maple Court');
      const again = await app.call(insertCommunity, { name: 'maple COURT' }, { token: world.homeToken });
      expect(again.status).toBe(300);
      expect(again.msgKey).toBe('community.exists');
      expect(again.msg).toBe('A community with this name already exists.');
      const zh = await app.call(insertCommunity, { name: 'Maple Court' }, { token: world.homeToken, lang: 'zh-CN' });
      expect(zh.msg).toBe('社区名称已存在。');
      expect((await app.call(insertCommunity, { name: 'Maple Court' }, { token: world.otherToken })).status).toBe(200);
      const racing = await Promise.all(
        [1, 2, 3].map(() => app.call(insertCommunity, { name: 'Race Court' }, { token: world.homeToken })),
      );
      expect(racing.filter((r) => r.status === 200)).toHaveLength(1);
      expect(racing.filter((r) => r.msgKey === 'community.exists')).toHaveLength(2);
    });

    it('searches, pages and keeps tenants apart', async () => {
      await community(world.homeToken, 'Findable Garden', { address: 'Lotus Road 1' });
      await community(world.homeToken, 'Findable Park');
      await community(world.otherToken, 'Findable Foreign');
      const names = (rows: Community[]) => rows.map((r) => r.name).sort();
      expect(names(await listed(world.homeToken, 'Findable'))).toEqual(['Findable Garden', 'Findable Park']);
      expect(names(await listed(world.homeToken, 'lotus'))).toEqual(['Findable Garden']);
      expect(names(await listed(world.otherToken, 'Findable'))).toEqual(['Findable Foreign']);
      expect(names(await listed(world.admin, 'Findable'))).toEqual([
        'Findable Foreign',
        'Findable Garden',
        'Findable Park',
      ]);
      const page = await app.call(
        queryCommunityList,
        { keyWord: 'Findable', pageNum: 1, pageSize: 1 },
        { token: world.homeToken },
      );
      expect(page.data).toMatchObject({ total: 2, pageNum: 1, pageSize: 1 });
      expect(page.data?.rows.map((r) => r.name)).toEqual(['Findable Park']);
      expect(await listed(world.homeToken, '_')).toEqual([]);
      // A platform administrator narrows to one provider; a provider asking for another one sees nothing.
      const of = async (token: string, providerId: number) =>
        names((await app.call(queryCommunityList, { keyWord: 'Findable', providerId }, { token })).data?.rows ?? []);
      expect(await of(world.admin, world.other.id)).toEqual(['Findable Foreign']);
      expect(await of(world.admin, world.home.id)).toEqual(['Findable Garden', 'Findable Park']);
      expect(await of(world.homeToken, world.other.id)).toEqual([]);
    });

    it('needs a provider, and refuses roles without access', async () => {
      expect((await app.call(insertCommunity, { name: 'Platform Lost' }, { token: world.admin })).msgKey).toBe(
        'provider.required',
      );
      const placed = await app.call(
        insertCommunity,
        { name: 'Platform Placed', providerId: world.home.id },
        { token: world.admin },
      );
      expect(placed.status, placed.msg).toBe(200);
      expect((await one(world.homeToken, placed.data?.id ?? 0))?.providerId).toBe(world.home.id);
      const foreign = await app.call(
        insertCommunity,
        { name: 'Smuggled', providerId: world.other.id },
        { token: world.homeToken },
      );
      expect(foreign.msgKey).toBe('not_found');
      const gov = await makeAccount(app, world.groupToken, 'communityGov1', 'GOVERNMENT');
      const govToken = await app.login(gov.userName, gov.password);
      expect((await app.call(insertCommunity, { name: 'Gov Town' }, { token: govToken })).msgKey).toBe('no_permission');
      expect((await app.call(queryCommunityList, {}, { token: govToken })).msgKey).toBe('no_permission');
    });
  });

  describe('deleting', () => {
    it('refuses while residents belong to it, deletes when empty', async () => {
      const id = await community(world.homeToken, 'Closing Street');
      const resident = await seedResident(app, world.home.id, 'Last Tenant', id);
      const refused = await app.call(deleteCommunity, { id }, { token: world.homeToken });
      expect(refused.status).toBe(300);
      expect(refused.msgKey).toBe('community.hasResidents');
      expect(refused.msg).toBe('This community still has residents. Move them out before deleting it.');
      await app.database.db.update(residents).set({ communityId: null }).where(eq(residents.id, resident));
      const res = await app.call(deleteCommunity, { id }, { token: world.homeToken });
      expect(res.status, res.msg).toBe(200);
      expect(await stored(id)).toBeUndefined();
      expect((await app.call(deleteCommunity, { id }, { token: world.homeToken })).msgKey).toBe('not_found');
    });

    it("treats another tenant's community as missing", async () => {
      const id = await community(world.otherToken, 'Foreign Close');
      for (const token of [world.homeToken, world.groupToken]) {
        expect((await app.call(deleteCommunity, { id }, { token })).msgKey).toBe('not_found');
      }
      expect(await stored(id)).toBeDefined();
    });
  });

  describe('sleep settings', () => {
    it('saves, reads back and overwrites one resident’s settings', async () => {
      const id = await community(world.homeToken, 'Sleepy Hollow');
      const r = await seedResident(app, world.home.id, 'Sleeper', id);
      const none = await app.call(getUserSleepConfig, { communityId: id, residentId: r }, { token: world.homeToken });
      expect(none.status).toBe(200);
      expect(none.data).toBeNull();
      const res = await app.call(
        saveUserSleepConfig,
        { communityId: id, residentId: r, ...SLEEP },
        { token: world.homeToken },
      );
      expect(res.status, res.msg).toBe(200);
      const read = await app.call(getUserSleepConfig, { communityId: id, residentId: r }, { token: world.homeToken });
      expect(read.data).toMatchObject(SLEEP);
      expect(read.data?.updateTime).toBe(app.clock.now().toISOString());
      await app.call(
        saveUserSleepConfig,
        { communityId: id, residentId: r, ...SLEEP, leaveBedMode: 'off', sleepTime: ' 22:00 ' },
        { token: world.homeToken },
      );
      const after = await app.call(getUserSleepConfig, { communityId: id, residentId: r }, { token: world.homeToken });
      expect(after.data).toMatchObject({ leaveBedMode: 'off', sleepTime: '22:00', wakeTime: '06:45' });
    });

    it('saves several residents at once, all or none', async () => {
      const id = await community(world.homeToken, 'Batch Street');
      const a = await seedResident(app, world.home.id, 'Batch A', id);
      const b = await seedResident(app, world.home.id, 'Batch B', id);
      const outsider = await seedResident(app, world.home.id, 'Outsider');
      const refused = await app.call(
        saveUserSleepConfigs,
        { communityId: id, residentIds: [a, outsider], ...SLEEP },
        { token: world.homeToken },
      );
      expect(refused.status).toBe(300);
      expect(refused.msgKey).toBe('community.notMember');
      expect(refused.msg).toBe('Resident Outsider does not belong to this community.');
      expect(await withSleep(a, b, outsider)).toEqual([]);
      const res = await app.call(
        saveUserSleepConfigs,
        { communityId: id, residentIds: [a, b, a], ...SLEEP },
        { token: world.homeToken },
      );
      expect(res.status, res.msg).toBe(200);
      expect(res.data).toEqual({ count: 2 });
      for (const r of [a, b]) {
        const read = await app.call(getUserSleepConfig, { communityId: id, residentId: r }, { token: world.homeToken });
        expect(read.data).toMatchObject(SLEEP);
      }
    });

    it('keeps the settings with a resident who leaves the community (they are the resident’s)', async () => {
      const id = await community(world.homeToken, 'Moving Street');
      const leaver = await seedResident(app, world.home.id, 'Leaver', id);
      const stayer = await seedResident(app, world.home.id, 'Stayer', id);
      await app.call(
        saveUserSleepConfigs,
        { communityId: id, residentIds: [leaver, stayer], ...SLEEP },
        { token: world.homeToken },
      );
      await app.database.db.update(residents).set({ communityId: null }).where(eq(residents.id, leaver));
      const gone = await app.call(
        getUserSleepConfig,
        { communityId: id, residentId: leaver },
        { token: world.homeToken },
      );
      expect(gone.msgKey).toBe('community.notMember');
      await app.call(
        saveUserSleepConfig,
        { communityId: id, residentId: stayer, ...SLEEP, mattress: 'spring' },
        { token: world.homeToken },
      );
      const rows = await app.database.db.select().from(residentSleepSettings);
      const of = (r: number) => rows.find((row) => row.residentId === r);
      expect(of(leaver)).toMatchObject({ ...SLEEP, providerId: world.home.id });
      expect(of(stayer)).toMatchObject({ ...SLEEP, mattress: 'spring' });
    });

    it('validates the settings strictly', async () => {
      const id = await community(world.homeToken, 'Strict Street');
      const r = await seedResident(app, world.home.id, 'Strict Sleeper', id);
      const same = await app.call(
        saveUserSleepConfig,
        { communityId: id, residentId: r, ...SLEEP, wakeTime: '21:30' },
        { token: world.homeToken },
      );
      expect(same.status).toBe(400);
      expect(same.msgKey).toBe('community.sleepWakeSame');
      expect(same.msg).toBe('The sleep time and the wake time must differ.');
      for (const time of ['24:00', '7:30', '07:60', '0730', '07:30:00', '']) {
        const res = await app.call(
          saveUserSleepConfig,
          { communityId: id, residentId: r, ...SLEEP, sleepTime: time },
          { token: world.homeToken },
        );
        expect(res.status, time).toBe(400);
        expect(res.msgKey, time).toBe(time ? 'validation.time' : 'validation.required');
      }
      const bad = await app.call(
        saveUserSleepConfig,
        { communityId: id, residentId: r, ...SLEEP, wakeTime: '25:00' },
        { token: world.homeToken, lang: 'zh-CN' },
      );
      expect(bad.msg).toBe('起床时间须为 HH:mm 格式的时间（00:00 至 23:59）。');
      const mode = await app.call(
        saveUserSleepConfig,
        { communityId: id, residentId: r, ...SLEEP, leaveBedMode: 'sometimes' as never },
        { token: world.homeToken },
      );
      expect(mode.msgKey).toBe('validation.oneOf');
      expect(mode.msg).toBe('Bed-leaving watch must be one of: off, allDay, sleepTime.');
      const material = await app.call(
        saveUserSleepConfig,
        { communityId: id, residentId: r, ...SLEEP, mattress: 'straw' as never },
        { token: world.homeToken },
      );
      expect(material.msg).toBe('Mattress material must be one of: sponge, spring, latex.');
      const empty = await app.call(
        saveUserSleepConfigs,
        { communityId: id, residentIds: [], ...SLEEP },
        { token: world.homeToken },
      );
      expect(empty.msgKey).toBe('validation.minLength');
      expect(await withSleep(r)).toEqual([]);
    });

    it("treats another tenant's community or resident as missing", async () => {
      const mine = await community(world.homeToken, 'Own Sleep');
      const r = await seedResident(app, world.home.id, 'Own Sleeper', mine);
      const foreign = await community(world.otherToken, 'Foreign Sleep');
      const fr = await seedResident(app, world.other.id, 'Foreign Sleeper', foreign);
      const attempts = [
        { communityId: foreign, residentId: fr },
        { communityId: foreign, residentId: r },
        { communityId: mine, residentId: fr },
      ];
      for (const ids of attempts) {
        const save = await app.call(saveUserSleepConfig, { ...ids, ...SLEEP }, { token: world.homeToken });
        expect(save.msgKey, JSON.stringify(ids)).toBe('not_found');
        const read = await app.call(getUserSleepConfig, ids, { token: world.homeToken });
        expect(read.msgKey, JSON.stringify(ids)).toBe('not_found');
      }
      const batch = await app.call(
        saveUserSleepConfigs,
        { communityId: mine, residentIds: [r, fr], ...SLEEP },
        { token: world.homeToken },
      );
      expect(batch.msgKey).toBe('not_found');
      expect(await withSleep(r, fr)).toEqual([]);
    });
  });

  describe('alarm settings', () => {
    it('saves levels, receivers and notification modes; shows them in the list', async () => {
      const id = await community(world.homeToken, 'Alarm Avenue');
      const c1 = await makeCaregiver(app, world.homeToken, 'Receiver One');
      const c2 = await makeCaregiver(app, world.homeToken, 'Receiver Two');
      const res = await app.call(
        saveAlarmConfig,
        {
          communityId: id,
          level1: ['FALL', 'SOS', 'BREATH_STOP', 'FALL'],
          level2: ['LEAVE_BED', 'CONNECTION'],
          receiverIds: [c1.id, c2.id, c1.id],
          notify: ['sms', 'page'],
        },
        { token: world.homeToken },
      );
      expect(res.status, res.msg).toBe(200);
      // Kept as one level per type (decision 0025), read back in the catalogue's order.
      expect((await one(world.homeToken, id))?.alarmConfig).toEqual({
        level1: ['BREATH_STOP', 'FALL', 'SOS'],
        level2: ['LEAVE_BED', 'CONNECTION'],
        receiverIds: [c1.id, c2.id],
        notify: ['sms', 'page'],
      });
      // A deleted caregiver no longer receives anything.
      await app.call(deleteNursing, { id: c2.id }, { token: world.homeToken });
      expect((await one(world.homeToken, id))?.alarmConfig?.receiverIds).toEqual([c1.id]);
      // Defaults: no receivers, in-page notification.
      await app.call(saveAlarmConfig, { communityId: id }, { token: world.homeToken });
      expect((await one(world.homeToken, id))?.alarmConfig).toEqual({
        level1: [],
        level2: [],
        receiverIds: [],
        notify: ['page'],
      });
    });

    it('refuses a type in both levels, unknown types, and bad receivers', async () => {
      const id = await community(world.homeToken, 'Strict Alarms');
      const both = await app.call(
        saveAlarmConfig,
        { communityId: id, level1: ['FALL', 'SMOKE'], level2: ['SMOKE'] },
        { token: world.homeToken },
      );
      expect(both.status).toBe(400);
      expect(both.msgKey).toBe('community.alarmLevelConflict');
      expect(both.msg).toBe('An alarm type cannot be both level 1 and level 2: SMOKE.');
      const unknown = await app.call(
        saveAlarmConfig,
        { communityId: id, level1: ['EARTHQUAKE' as never] },
        { token: world.homeToken },
      );
      expect(unknown.status).toBe(400);
      expect(unknown.msg).toMatch(/^Level 1 alarms must be one of: LEAVE_BED/);
      const noMode = await app.call(saveAlarmConfig, { communityId: id, notify: [] }, { token: world.homeToken });
      expect(noMode.msgKey).toBe('validation.minLength');

      const foreign = await makeCaregiver(app, world.otherToken, 'Foreign Receiver');
      const groupCarer = await makeCaregiver(app, world.groupToken, 'Group Receiver');
      const off = await makeCaregiver(app, world.homeToken, 'Sleeping Receiver');
      await app.call(operateNursing, { id: off.id, type: 'disable' }, { token: world.homeToken });
      const cases: [string, number, string, string?][] = [
        ['homeToken', foreign.id, 'not_found'],
        ['homeToken', 999_999, 'not_found'],
        [
          'groupToken',
          groupCarer.id,
          'community.receiverProvider',
          'Caregiver Group Receiver belongs to another provider',
        ],
        [
          'homeToken',
          off.id,
          'community.receiverDisabled',
          'Caregiver Sleeping Receiver is disabled and cannot receive alarms.',
        ],
      ];
      for (const [who, receiver, key, msg] of cases) {
        const token = who === 'groupToken' ? world.groupToken : world.homeToken;
        const res = await app.call(saveAlarmConfig, { communityId: id, receiverIds: [receiver] }, { token });
        expect(res.msgKey, key).toBe(key);
        if (msg) expect(res.msg).toContain(msg);
      }
      expect((await stored(id))?.alarmConfig).toBeNull();
    });

    it("treats another tenant's community as missing", async () => {
      const foreign = await community(world.otherToken, 'Foreign Alarms');
      const res = await app.call(
        saveAlarmConfig,
        { communityId: foreign, level1: ['FALL'] },
        { token: world.homeToken },
      );
      expect(res.msgKey).toBe('not_found');
      expect((await stored(foreign))?.alarmConfig).toBeNull();
    });
  });
});
