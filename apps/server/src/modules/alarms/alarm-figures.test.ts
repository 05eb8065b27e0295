import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  adminSession,
  alarmCalls,
  SocketServerFrameSchema,
  topicOf,
  type AlarmRecord,
  type SocketServerFrame,
} from '@vigil/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ManualClock } from '../../clock.ts';
import { alarms } from '../../db/schema.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { until } from '../../test/until.ts';
import { makeCaregiver } from '../caregivers/care-fixtures.ts';
import {
  addDevice,
  deviceWorld,
  linkBed,
  loadStock,
  placeBed,
  T,
  type DeviceWorld,
} from '../devices/device-test-support.ts';
import { sheetRows } from '../spreadsheet/sheet-test-support.ts';
import { defaultBedRules } from './bed-alarm-settings.service.ts';

const { alarmLogUnDeal, alarmRelieve, alarmExport, saveBedAlarmSetting, alarmDealStatus } = alarmCalls;

const HEART_EN = 'heart rate 58 /min · below the limit 75 · for 2 min';
const HEART_ZH = '心率 58 次/分 · 低于下限 75 · 持续 2 分钟';

/**
 * Issue 29, points 4 and 7, through the ingest, the engine, the store and every way out: an
 * alarm says what it measured and how much (the lists, the live socket, the SMS, the export),
 * and a handling result must fit the alarm's type.
 */
describeEachDb('alarms say what and how much; handling results fit the type (%s)', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  let socketUrl = '';
  const clock = new ManualClock(new Date('2026-11-29T01:00:00Z'));
  const sms: string[] = [];
  let gateway: http.Server | undefined;
  const sockets: WebSocket[] = [];
  let seq = 1;

  const send = (deviceId: string, kind: 'event' | 'telemetry', body: Record<string, unknown>) =>
    app.services.gateway.ingest.handle(
      topicOf(deviceId, kind),
      Buffer.from(JSON.stringify({ ts: clock.now().getTime() / 1000, seq: seq++, ...body })),
    );
  const pending = async (keyWord: string, lang: 'en-US' | 'zh-CN' = 'en-US'): Promise<AlarmRecord[]> =>
    (await app.call(alarmLogUnDeal, { keyWord, pageSize: 100 }, { token: w.aHome.token, lang })).data?.rows ?? [];
  /** A console's live socket, logged in: the frames it receives, checked against the contract. */
  const consoleSocket = async () => {
    const key = (await app.call(adminSession, {}, { token: w.aHome.token })).data?.key ?? '';
    const ws = new WebSocket(`${socketUrl}?lang=en-US`);
    sockets.push(ws);
    const frames: SocketServerFrame[] = [];
    ws.on('message', (data) => frames.push(SocketServerFrameSchema.parse(JSON.parse(String(data)))));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ path: '/login', data: { key } }));
    await until(() => frames.some((f) => f.path === '/login'), { what: 'the socket login' });
    return frames;
  };

  beforeAll(async () => {
    // A local stand-in for the SMS gateway: keeps the texts it is sent.
    gateway = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        sms.push(String((JSON.parse(body) as { text: unknown }).text));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => gateway?.listen(0, '127.0.0.1', resolve));
    const smsUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/send`;
    app = await createTestApp(target, { clock, env: { SMS_URL: smsUrl, NOTIFY_LANGUAGE: 'en-US' } });
    w = await deviceWorld(app, 'Fig');
    const rows = [
      { deviceId: 'FIG-SLP1', deviceType: T.sleep },
      { deviceId: 'FIG-RDR1', deviceType: T.fallDomestic },
      { deviceId: 'FIG-SOS1', deviceType: T.sos },
    ];
    await loadStock(app, w.admin, rows);
    for (const { deviceId, deviceType } of rows) await addDevice(app, w.aHome.token, deviceId, deviceType);
    const margaret = await placeBed(app, w.aHome.id, {
      area: 'Fig House',
      room: 'Fig 101',
      bed: 'A',
      resident: 'Margaret Ellis',
    });
    await linkBed(app, margaret.bedId, 'FIG-SLP1');
    const other = await placeBed(app, w.aHome.id, { area: 'Fig House 2', room: 'Fig 102', bed: 'B', resident: 'Ed' });
    await linkBed(app, other.bedId, 'FIG-RDR1');
    // Margaret's bed: a heart rate under 75 is abnormal; her receiver is told by SMS.
    const receiver = await makeCaregiver(app, w.aHome.token, 'Fig Receiver');
    const saved = await app.call(
      saveBedAlarmSetting,
      {
        userId: margaret.residentId ?? 0,
        rules: { ...defaultBedRules(), heartMin: 75 },
        receivers: { receiverIds: [receiver.id], notify: ['sms'] },
      },
      { token: w.aHome.token },
    );
    expect(saved.status, saved.msg).toBe(200);
    await app.services.gateway.directory.load();
    await app.services.alarms.watch.load();
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    socketUrl = `ws://127.0.0.1:${(app.app.server.address() as AddressInfo).port}/websocket`;
  });
  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await app?.close();
    await new Promise((resolve) => gateway?.close(resolve));
  });

  it('a heart rate under the bed’s limit for its duration: stored with the figure, shown in words in each language', async () => {
    const frames = await consoleSocket();
    for (let s = 0; s <= 120; s++) {
      await send('FIG-SLP1', 'telemetry', { hr: 58, rr: 14, inBed: true, asleep: true, move: 5 });
      clock.advance(1000);
    }
    await app.services.alarms.runner.flush();
    const [row] = await app.database.db
      .select()
      .from(alarms)
      .where(and(eq(alarms.deviceId, 'FIG-SLP1'), eq(alarms.alertType, 'HEART_ABNORMAL')));
    expect(row?.measure).toEqual({ quantity: 'heartRate', value: 58, limit: 75, side: 'below', seconds: 120 });

    const [card] = await pending('FIG-SLP1');
    expect(card).toMatchObject({
      alertType: 'HEART_ABNORMAL',
      userName: 'Margaret Ellis',
      measure: { quantity: 'heartRate', value: 58, limit: 75, side: 'below', seconds: 120 },
      measureText: HEART_EN,
      // The text stays what happened; the figure is beside it.
      text: 'Fig 101 A: Margaret Ellis has an abnormal heart rate',
    });
    expect((await pending('FIG-SLP1', 'zh-CN'))[0]?.measureText).toBe(HEART_ZH);
    const one = await app.call(alarmDealStatus, { id: card?.id ?? 0 }, { token: w.aHome.token, lang: 'zh-CN' });
    expect(one.data?.measureText).toBe(HEART_ZH);

    // The live socket's frame carries it too.
    await until(() => frames.some((f) => f.path === '/alertNotify' && f.data.id === card?.id), {
      what: 'the alarm on the socket',
    });
    const frame = frames.find((f) => f.path === '/alertNotify' && f.data.id === card?.id);
    expect(frame?.path === '/alertNotify' && frame.data).toMatchObject({
      measureText: HEART_EN,
      measure: row?.measure,
    });

    // The receiver's SMS says what and how much.
    await until(() => sms.length > 0, { what: 'the SMS' });
    expect(sms).toEqual([`Fig 101 A: Margaret Ellis has an abnormal heart rate (${HEART_EN})`]);
  });

  it('an event alarm has no figure: nothing extra in the record', async () => {
    await send('FIG-SOS1', 'event', { event: 'sos' });
    const [sos] = await pending('FIG-SOS1');
    expect(sos).toMatchObject({ alertType: 'SOS', measure: null, measureText: null });
  });

  it('the export has a column for the figure, beside the alarm’s text', async () => {
    const file = await app.download(alarmExport, { deal: 'pending', keyWord: 'FIG-' }, { token: w.aHome.token });
    const [header, ...rows] = sheetRows(file);
    const column = header?.indexOf('Measured') ?? -1;
    expect(column).toBe((header?.indexOf('Alarm') ?? 0) + 1);
    const byType = new Map(rows.map((r) => [r[1], r[column]]));
    expect(byType.get('Abnormal heart rate')).toBe(HEART_EN);
    // An event alarm: an empty cell, not a dash or a separator.
    expect(byType.get('Emergency call')).toBe('');
    const zh = await app.download(
      alarmExport,
      { deal: 'pending', keyWord: 'FIG-SLP1' },
      { token: w.aHome.token, lang: 'zh-CN' },
    );
    expect(sheetRows(zh)[1]).toContain(HEART_ZH);
  });

  it('offers the handling results that fit each type: the radar’s postures for a fall only', async () => {
    await send('FIG-RDR1', 'event', { event: 'fall' });
    const [fall] = await pending('FIG-RDR1');
    const [heart] = await pending('FIG-SLP1');
    const [sos] = await pending('FIG-SOS1');
    expect(fall?.resultOptions).toEqual([
      'NO_ABNORMALITY',
      'BED_HOLD_UP',
      'SIT_ASIDE_BED',
      'LIVING_OR_SIT_IN_TAIL_STOCK',
      'DOCTOR_INFORMED',
      'FAMILY_CONTACTED',
    ]);
    expect(heart?.resultOptions).toEqual(['NO_ABNORMALITY', 'DOCTOR_INFORMED', 'FAMILY_CONTACTED']);
    expect(sos?.resultOptions).toEqual(['NO_ABNORMALITY', 'DOCTOR_INFORMED', 'FAMILY_CONTACTED']);
  });

  it('refuses a result that does not fit the type with a clear message in the caller’s language, and takes one that does', async () => {
    const [heart] = await pending('FIG-SLP1');
    const id = heart?.id ?? 0;
    const posture = await app.call(
      alarmRelieve,
      { id, reason: 'CHECKED', result: 'BED_HOLD_UP' },
      { token: w.aHome.token },
    );
    expect(posture).toMatchObject({
      msgKey: 'alarm.resultNotForType',
      msg:
        'The result “Propped up in bed” does not fit an alarm of type “Abnormal heart rate”. ' +
        'Choose one of: No abnormality, Doctor informed, or Family contacted.',
    });
    expect(posture.status).not.toBe(200);
    const zh = await app.call(
      alarmRelieve,
      { id, reason: 'CHECKED', result: 'SIT_ASIDE_BED' },
      { token: w.aHome.token, lang: 'zh-CN' },
    );
    expect(zh.msg).toBe('处理结果“坐在床边”不适用于“心率异常”告警，请从以下选择：无异常、已通知医生或已联系家属。');
    // Refused: still pending, nothing recorded.
    expect((await pending('FIG-SLP1'))[0]).toMatchObject({ id, releaseKind: 0, dealResult: null });

    const informed = await app.call(
      alarmRelieve,
      { id, reason: 'CHECKED', result: 'DOCTOR_INFORMED' },
      { token: w.aHome.token },
    );
    expect(informed.status, informed.msg).toBe(200);
    expect(informed.data).toMatchObject({ dealResult: 'DOCTOR_INFORMED', measureText: HEART_EN });

    const [fall] = await pending('FIG-RDR1');
    const posed = await app.call(
      alarmRelieve,
      { id: fall?.id ?? 0, reason: 'CHECKED', result: 'SIT_ASIDE_BED' },
      { token: w.aHome.token },
    );
    expect(posed.data?.dealResult).toBe('SIT_ASIDE_BED');
    const [sos] = await pending('FIG-SOS1');
    const family = await app.call(
      alarmRelieve,
      { id: sos?.id ?? 0, reason: 'CHECKED', result: 'FAMILY_CONTACTED' },
      { token: w.aHome.token },
    );
    expect(family.data?.dealResult).toBe('FAMILY_CONTACTED');
  });
});
