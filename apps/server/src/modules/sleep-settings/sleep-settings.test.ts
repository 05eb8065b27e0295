import {
  calls,
  DEFAULT_SLEEP_SETTING,
  getUserSleepConfig,
  insertCommunity,
  saveUserSleepConfig,
} from '@vigil/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import type { PublishedEvent } from '../../core/events.ts';
import { auditLog, beds, residents, residentSleepSettings } from '../../db/schema.ts';
import { makeAccount } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { ALARM_SETTINGS_CHANGED } from '../../core/event-catalogue.ts';
import { deviceWorld, placeBed, type DeviceWorld } from '../devices/device-test-support.ts';

const { bedSleepSetting, saveBedSleepSetting } = calls;

const NIGHT_OWL = {
  leaveBedMode: 'sleepTime',
  sleepTime: '23:30',
  wakeTime: '08:15',
  sensitivity: 'high',
  mattress: 'latex',
} as const;

describeEachDb('a resident’s sleep settings (%s)', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  const clock = new ManualClock(new Date('2026-03-02T09:00:00Z'));
  const events: PublishedEvent[] = [];
  let bedNo = 0;

  /** A resident of the provider in a bed of their own (sponge, as beds are made). */
  const bedded = async (providerId: number, name: string) => {
    const placed = await placeBed(app, providerId, {
      area: `Sleep Area ${++bedNo}`,
      room: `S${bedNo}`,
      bed: `S${bedNo}-1`,
      resident: name,
    });
    if (placed.residentId === null) throw new Error('no resident placed');
    return { residentId: placed.residentId, bedId: placed.bedId };
  };
  const mattressOf = async (bedId: number) =>
    (await app.database.db.select({ m: beds.mattress }).from(beds).where(eq(beds.id, bedId)))[0]?.m;
  const savedFor = async (...ids: number[]) =>
    app.database.db.select().from(residentSleepSettings).where(inArray(residentSleepSettings.residentId, ids));
  const read = async (token: string, userId: number) => app.call(bedSleepSetting, { userId }, { token });

  beforeAll(async () => {
    app = await createTestApp(target, { clock });
    app.services.events.subscribe((e) => events.push(e), [ALARM_SETTINGS_CHANGED]);
    w = await deviceWorld(app, 'Slp');
  });
  afterAll(() => app?.close());

  it('answers the platform defaults for a resident nobody saved settings for', async () => {
    const { residentId } = await bedded(w.aHome.id, 'Default Dora');
    const res = await read(w.aHome.token, residentId);
    expect(res.status, res.msg).toBe(200);
    expect(res.data).toEqual({ userId: residentId, ...DEFAULT_SLEEP_SETTING, source: 'default', updateTime: null });
    expect(DEFAULT_SLEEP_SETTING).toMatchObject({ leaveBedMode: 'allDay', sleepTime: '21:00', wakeTime: '07:00' });
  });

  it('saves one resident’s settings: read back, the bed gets the mattress, audited, announced after commit', async () => {
    const { residentId, bedId } = await bedded(w.aHome.id, 'Owl Otto');
    const before = events.length;
    const res = await app.call(saveBedSleepSetting, { userIds: [residentId], ...NIGHT_OWL }, { token: w.aHome.token });
    expect(res.status, res.msg).toBe(200);
    expect(res.data).toEqual({ count: 1 });
    expect((await read(w.aHome.token, residentId)).data).toEqual({
      userId: residentId,
      ...NIGHT_OWL,
      source: 'resident',
      updateTime: clock.now().toISOString(),
    });
    expect(await mattressOf(bedId)).toBe('latex');
    const [row] = await savedFor(residentId);
    expect(row).toMatchObject({ providerId: w.aHome.id, ...NIGHT_OWL });
    const audit = await app.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'resident.sleepSettings'), eq(auditLog.targetId, String(residentId))));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      providerId: w.aHome.id,
      targetType: 'resident',
      detail: { count: 1, ...NIGHT_OWL, mattressOfBeds: [bedId] },
    });
    expect(events.slice(before)).toEqual([
      expect.objectContaining({
        type: ALARM_SETTINGS_CHANGED,
        providerId: w.aHome.id,
        payload: { providerId: w.aHome.id, residentIds: [residentId], sleepSettings: true },
      }),
    ]);
    // Saved again: the row is replaced, not doubled; trimmed times as the contract reads them.
    clock.advance(60_000);
    await app.call(
      saveBedSleepSetting,
      { userIds: [residentId], ...NIGHT_OWL, leaveBedMode: 'off', wakeTime: ' 07:45 ', mattress: 'spring' },
      { token: w.aHome.token },
    );
    expect(await savedFor(residentId)).toEqual([
      expect.objectContaining({ leaveBedMode: 'off', wakeTime: '07:45', mattress: 'spring', updatedAt: clock.now() }),
    ]);
    expect(await mattressOf(bedId)).toBe('spring');
  });

  it('saves a batch at once (duplicates once); a resident without a bed has only the settings', async () => {
    const a = await bedded(w.aHome.id, 'Batch Ann');
    const b = await bedded(w.aHome.id, 'Batch Ben');
    const [homeless] = await app.database.db
      .insert(residents)
      .values({ providerId: w.aHome.id, name: 'Batch Bedless', gender: 0 })
      .returning({ id: residents.id });
    const ids = [a.residentId, b.residentId, homeless?.id ?? 0];
    const res = await app.call(
      saveBedSleepSetting,
      { userIds: [...ids, a.residentId], ...NIGHT_OWL, mattress: 'spring' },
      { token: w.aHome.token },
    );
    expect(res.data).toEqual({ count: 3 });
    expect((await savedFor(...ids)).map((r) => r.mattress)).toEqual(['spring', 'spring', 'spring']);
    expect([await mattressOf(a.bedId), await mattressOf(b.bedId)]).toEqual(['spring', 'spring']);
  });

  it('is all or none: one resident the caller may not change and nothing is written', async () => {
    const mine = await bedded(w.aHome.id, 'Kept Kim');
    const foreign = await bedded(w.bGroup.id, 'Foreign Fay');
    const groupOwn = await bedded(w.aGroup.id, 'Group Gus');
    const attempts: [string, number[], string][] = [
      ['another tenant’s resident', [mine.residentId, foreign.residentId], 'not_found'],
      ['a resident that does not exist', [mine.residentId, 2_000_000_000], 'not_found'],
      // The home sees its own residents only, not its group's.
      ['the group’s resident, for the home', [mine.residentId, groupOwn.residentId], 'not_found'],
    ];
    for (const [what, userIds, key] of attempts) {
      const res = await app.call(saveBedSleepSetting, { userIds, ...NIGHT_OWL }, { token: w.aHome.token });
      expect(res.msgKey, what).toBe(key);
    }
    // The group sees both providers, but one save changes one provider's residents.
    const mixed = await app.call(
      saveBedSleepSetting,
      { userIds: [mine.residentId, groupOwn.residentId], ...NIGHT_OWL },
      { token: w.aGroup.token },
    );
    expect(mixed.status).toBe(300);
    expect(mixed.msgKey).toBe('sleepSetting.oneProvider');
    expect(mixed.msg).toBe(
      'The chosen residents belong to several providers. Save each provider’s residents separately.',
    );
    const zh = await app.call(
      saveBedSleepSetting,
      { userIds: [mine.residentId, groupOwn.residentId], ...NIGHT_OWL },
      { token: w.aGroup.token, lang: 'zh-CN' },
    );
    expect(zh.msg).toBe('所选长者属于多个服务商，请按服务商分别保存。');
    expect(await savedFor(mine.residentId, foreign.residentId, groupOwn.residentId)).toEqual([]);
    expect([await mattressOf(mine.bedId), await mattressOf(foreign.bedId)]).toEqual(['sponge', 'sponge']);
    // The group may change its home's residents, filed under the home.
    const groupSave = await app.call(
      saveBedSleepSetting,
      { userIds: [mine.residentId], ...NIGHT_OWL },
      { token: w.aGroup.token },
    );
    expect(groupSave.status, groupSave.msg).toBe(200);
    expect((await savedFor(mine.residentId))[0]?.providerId).toBe(w.aHome.id);
  });

  it('hides residents of providers the caller cannot see, and admits only the providers’ own roles', async () => {
    const { residentId } = await bedded(w.aHome.id, 'Private Pat');
    for (const token of [w.bGroup.token]) {
      expect((await read(token, residentId)).msgKey).toBe('not_found');
      const save = await app.call(saveBedSleepSetting, { userIds: [residentId], ...NIGHT_OWL }, { token });
      expect(save.msgKey).toBe('not_found');
    }
    expect((await read(w.aGroup.token, residentId)).status).toBe(200);
    const gov = await makeAccount(app, w.aGroup.token, 'sleepGov1', 'GOVERNMENT');
    const govToken = await app.login(gov.userName, gov.password);
    for (const token of [govToken, w.admin]) {
      expect((await read(token, residentId)).msgKey).toBe('no_permission');
      const save = await app.call(saveBedSleepSetting, { userIds: [residentId], ...NIGHT_OWL }, { token });
      expect(save.msgKey).toBe('no_permission');
    }
    expect(await savedFor(residentId)).toEqual([]);
  });

  it('validates the settings with the same messages as the community calls', async () => {
    const { residentId } = await bedded(w.aHome.id, 'Strict Stan');
    const save = (over: Record<string, unknown>, lang?: 'zh-CN') =>
      app.call(saveBedSleepSetting, { userIds: [residentId], ...NIGHT_OWL, ...over } as never, {
        token: w.aHome.token,
        ...(lang ? { lang } : {}),
      });
    const same = await save({ wakeTime: '23:30' });
    expect([same.status, same.msgKey, same.msg]).toEqual([
      400,
      'community.sleepWakeSame',
      'The sleep time and the wake time must differ.',
    ]);
    expect((await save({ wakeTime: '23:30' }, 'zh-CN')).msg).toBe('入睡时间与起床时间不能相同。');
    for (const time of ['24:00', '7:30', '']) {
      const res = await save({ sleepTime: time });
      expect(res.msgKey, time).toBe(time ? 'validation.time' : 'validation.required');
    }
    expect((await save({ leaveBedMode: 'sometimes' })).msg).toBe(
      'Bed-leaving watch must be one of: off, allDay, sleepTime.',
    );
    expect((await save({ mattress: 'straw' })).msg).toBe('Mattress material must be one of: sponge, spring, latex.');
    expect((await save({ userIds: [] })).msgKey).toBe('validation.minLength');
    const many = Array.from({ length: 1001 }, (_, i) => i + 1);
    expect((await save({ userIds: many })).msgKey).toBe('validation.maxLength');
    expect(await savedFor(residentId)).toEqual([]);
  });

  it('treats a stored row the calls would refuse as nothing saved', async () => {
    const { residentId } = await bedded(w.aHome.id, 'Odd Olga');
    await app.database.db.insert(residentSleepSettings).values({
      residentId,
      providerId: w.aHome.id,
      ...NIGHT_OWL,
      leaveBedMode: 'sometimes',
    });
    expect((await read(w.aHome.token, residentId)).data).toMatchObject({ source: 'default', leaveBedMode: 'allDay' });
  });

  describe('one store with the community calls', () => {
    it('shows what a community saved, and a community reads what BunkManage saved', async () => {
      const community = await app.call(insertCommunity, { name: 'Shared Store Court' }, { token: w.aHome.token });
      const communityId = community.data?.id ?? 0;
      const { residentId, bedId } = await bedded(w.aHome.id, 'Shared Sue');
      await app.database.db.update(residents).set({ communityId }).where(eq(residents.id, residentId));
      const byCommunity = await app.call(
        saveUserSleepConfig,
        { communityId, residentId, ...NIGHT_OWL, mattress: 'spring' },
        { token: w.aHome.token },
      );
      expect(byCommunity.status, byCommunity.msg).toBe(200);
      expect((await read(w.aHome.token, residentId)).data).toMatchObject({
        ...NIGHT_OWL,
        mattress: 'spring',
        source: 'resident',
      });
      expect(await mattressOf(bedId)).toBe('spring');

      await app.call(
        saveBedSleepSetting,
        { userIds: [residentId], ...NIGHT_OWL, leaveBedMode: 'allDay' },
        { token: w.aHome.token },
      );
      const seen = await app.call(getUserSleepConfig, { communityId, residentId }, { token: w.aHome.token });
      expect(seen.data).toMatchObject({ ...NIGHT_OWL, leaveBedMode: 'allDay', updateTime: clock.now().toISOString() });
      expect(await savedFor(residentId)).toHaveLength(1);
    });
  });
});
