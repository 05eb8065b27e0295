import { adminSession, alarmCalls, caregiverCalls, topicOf } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { residents } from '../../db/schema.ts';
import { createTestApp, dbTargets, type TestApp } from '../../test/harness.ts';
import { addDevice, deviceWorld, loadStock, T, type DeviceWorld } from '../devices/device-test-support.ts';

const { queryAlertLevel, saveAlertLevel, alarmLogUnDeal } = alarmCalls;

describe.each(dbTargets())('alarm levels and voice settings on %s', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  let seq = 1;
  const press = async (deviceId: string, event: string, extra: Record<string, unknown> = {}) =>
    app.services.gateway.ingest.handle(
      topicOf(deviceId, 'event'),
      Buffer.from(JSON.stringify({ ts: app.clock.now().getTime() / 1000, seq: seq++, event, ...extra })),
    );
  const levelOf = async (deviceId: string) =>
    (await app.call(alarmLogUnDeal, { keyWord: deviceId }, { token: w.aHome.token })).data?.rows[0]?.alertLevel;

  beforeAll(async () => {
    app = await createTestApp(target);
    w = await deviceWorld(app, 'Lvl');
    await loadStock(app, w.admin, [
      { deviceId: 'LVL-DOOR1', deviceType: T.door },
      { deviceId: 'LVL-DOOR2', deviceType: T.door },
      { deviceId: 'LVL-SMK1', deviceType: T.smoke },
    ]);
    for (const [id, type] of [
      ['LVL-DOOR1', T.door],
      ['LVL-DOOR2', T.door],
      ['LVL-SMK1', T.smoke],
    ] as const)
      await addDevice(app, w.aHome.token, id, type);
    await app.services.gateway.directory.load();
  });
  afterAll(() => app?.close());

  it('out of the box: falls, SOS, badge SOS, smoke, gas, CO and breathing stop are level 1; red is spoken repeatedly', async () => {
    const res = await app.call(queryAlertLevel, {}, { token: w.aHome.token });
    expect(res.status).toBe(200);
    const levels = res.data?.levelMap ?? {};
    const red = Object.entries(levels)
      .filter(([, l]) => l === 1)
      .map(([t]) => t)
      .sort();
    expect(red).toEqual(['BADGE_SOS', 'BREATH_STOP', 'CO', 'FALL', 'GAS', 'SMOKE', 'SOS']);
    expect(res.data).toMatchObject({
      providerId: w.aHome.id,
      alertTypeL1: { pc: true, globalVoiceWay: 3 },
      alertTypeL2: { pc: true, globalVoiceWay: 2 },
      voiceFlag: true,
    });
  });

  it('a saved level applies to alarms raised from then on; older clients may send the levels as JSON text', async () => {
    await press('LVL-SMK1', 'smoke', { active: true });
    expect(await levelOf('LVL-SMK1')).toBe(1);
    const saved = await app.call(
      saveAlertLevel,
      { levelMap: { SMOKE: 2, FLOOD: 1 }, alertTypeL2: '{"pc":false,"globalVoiceWay":1}' as never },
      { token: w.aHome.token },
    );
    expect(saved.status).toBe(200);
    expect(saved.data?.levelMap).toMatchObject({ SMOKE: 2, FLOOD: 1, FALL: 1 });
    // What an older client leaves out keeps its value: level 2 does not latch, snoozes 30 minutes.
    expect(saved.data?.alertTypeL2).toEqual({ pc: false, globalVoiceWay: 1, latch: false, snoozeMinutes: 30 });
    // The open alarm keeps the level it was raised with; a new one takes the new level. The level 1
    // alarm that cleared by itself latches: pending until handled, beside the new one.
    await press('LVL-SMK1', 'smoke', { active: false });
    await press('LVL-SMK1', 'smoke', { active: true });
    const rows = (await app.call(alarmLogUnDeal, { keyWord: 'LVL-SMK1' }, { token: w.aHome.token })).data?.rows;
    expect(rows?.map((r) => [r.alertLevel, r.voiceWay, r.awaitingAck])).toEqual([
      [2, 1, false],
      [1, 3, true],
    ]);
    // Another provider's settings are untouched.
    expect((await app.call(queryAlertLevel, {}, { token: w.bGroup.token })).data?.levelMap.SMOKE).toBe(1);
  });

  it('refuses a voice way outside 0–3 and an unknown alarm type with clear messages', async () => {
    const badWay = await app.call(
      saveAlertLevel,
      { alertTypeL1: { pc: true, globalVoiceWay: 7 as 3 } },
      { token: w.aHome.token },
    );
    expect(badWay.status).not.toBe(200);
    expect(badWay.msg).toMatch(/globalVoiceWay/);
    const badType = await app.call(saveAlertLevel, { levelMap: { NAP: 1 } as never }, { token: w.aHome.token });
    expect(badType.status).not.toBe(200);
  });

  it('the login answer’s voiceFlag follows the settings: off when both levels are silent', async () => {
    expect((await app.call(adminSession, {}, { token: w.aHome.token })).data?.voiceFlag).toBe(true);
    await app.call(
      saveAlertLevel,
      { alertTypeL1: { pc: true, globalVoiceWay: 0 }, alertTypeL2: { pc: true, globalVoiceWay: 0 } },
      { token: w.aHome.token },
    );
    expect((await app.call(adminSession, {}, { token: w.aHome.token })).data?.voiceFlag).toBe(false);
    await app.call(saveAlertLevel, { alertTypeL1: { pc: true, globalVoiceWay: 3 } }, { token: w.aHome.token });
  });

  it('a community’s own levels win over the provider’s for its residents’ alarms; its lists read back as saved', async () => {
    const community = await app.call(
      caregiverCalls.insertCommunity,
      { name: 'Lvl Community', providerId: w.aHome.id },
      { token: w.aHome.token },
    );
    const communityId = community.data?.id ?? 0;
    expect(community.status).toBe(200);
    const saved = await app.call(
      caregiverCalls.saveAlarmConfig,
      { communityId, level1: ['DOOR'], level2: ['FALL'], notify: ['page'] },
      { token: w.aHome.token },
    );
    expect(saved.status).toBe(200);
    const list = await app.call(
      caregiverCalls.queryCommunityList,
      { keyWord: 'Lvl Community' },
      { token: w.aHome.token },
    );
    expect(list.data?.rows[0]?.alarmConfig).toMatchObject({ level1: ['DOOR'], level2: ['FALL'] });
    const rules = app.services.alarms.watch;
    await rules.load();
    const [member] = await app.database.db
      .insert(residents)
      .values({ providerId: w.aHome.id, name: 'Lvl Member', gender: 0, communityId })
      .returning();
    await rules.load();
    // The community's choice applies to its residents' devices; any other device takes the provider's levels.
    expect(rules.rulesOf(w.aHome.id, member?.id ?? 0).levels).toMatchObject({ DOOR: 1, FALL: 2, SOS: 1 });
    expect(rules.rulesOf(w.aHome.id, null).levels).toMatchObject({ DOOR: 2, FALL: 1 });
  });
});
