import { alarmCalls, topicOf, type AlarmRecord } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import type { PublishedEvent } from '../../core/events.ts';
import { createTestApp, dbTargets, type TestApp } from '../../test/harness.ts';
import { makeAccount } from '../../test/fixtures.ts';
import * as XLSX from '@e965/xlsx';
import { appSessionAfterPasswordChange, makeCaregiver } from '../caregivers/care-fixtures.ts';
import { sheetRows } from '../spreadsheet/sheet-test-support.ts';
import {
  addDevice,
  deviceWorld,
  linkBed,
  loadStock,
  placeBed,
  T,
  type DeviceWorld,
} from '../devices/device-test-support.ts';
import { ALARM_EVENT } from '../../core/event-catalogue.ts';

const { alarmLogUnDeal, alarmLog, alarmDealStatus, alarmRelieve, alarmExport, alarmTimeline, alertFlag, alarmAddNote } =
  alarmCalls;

describe.each(dbTargets())('alarm handling calls on %s', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  let carerA: string;
  let carerB: string;
  const clock = new ManualClock(new Date());
  const published: PublishedEvent[] = [];
  let seq = 1;

  const press = async (deviceId: string, event = 'sos') => {
    const outcome = await app.services.gateway.ingest.handle(
      topicOf(deviceId, 'event'),
      Buffer.from(JSON.stringify({ ts: clock.now().getTime() / 1000, seq: seq++, event })),
    );
    expect(outcome.result).toBe('stored');
  };
  const pending = async (token: string, extra: Partial<Parameters<typeof app.call<typeof alarmLogUnDeal>>[1]> = {}) => {
    const res = await app.call(alarmLogUnDeal, { pageNum: 1, pageSize: 100, ...extra }, { token });
    expect(res.status).toBe(200);
    return res.data?.rows ?? [];
  };
  const pendingOf = async (token: string, deviceId: string) =>
    (await pending(token)).filter((r) => r.deviceId === deviceId);

  beforeAll(async () => {
    app = await createTestApp(target, { clock });
    app.services.events.subscribe((e) => published.push(e), [ALARM_EVENT.handled, ALARM_EVENT.noted]);
    w = await deviceWorld(app, 'Hdl');
    await loadStock(app, w.admin, [
      { deviceId: 'HDL-SOS1', deviceType: T.sos },
      { deviceId: 'HDL-SOS2', deviceType: T.sos },
      { deviceId: 'HDL-SOS3', deviceType: T.sos },
      { deviceId: 'HDL-FALL1', deviceType: T.fallDomestic },
      { deviceId: 'HDL-SOS4', deviceType: T.sos },
      { deviceId: 'HDL-SOS5', deviceType: T.sos },
      { deviceId: 'HDL-SOS6', deviceType: T.sos },
    ]);
    for (const id of ['HDL-SOS1', 'HDL-SOS2', 'HDL-SOS3', 'HDL-SOS4', 'HDL-SOS5', 'HDL-SOS6']) {
      await addDevice(app, w.aHome.token, id, T.sos);
    }
    await addDevice(app, w.aHome.token, 'HDL-FALL1', T.fallDomestic);
    const bed = await placeBed(app, w.aHome.id, {
      area: 'Hdl Area',
      room: 'Hdl 101',
      bed: 'Hdl 101-1',
      resident: 'Ada Lovelace',
    });
    await linkBed(app, bed.bedId, 'HDL-FALL1');
    await app.services.gateway.directory.load();
    const a = await makeAccount(app, w.aHome.token, 'hdlCarerA', 'SUB_ROLE');
    const b = await makeAccount(app, w.aHome.token, 'hdlCarerB', 'SUB_ROLE');
    carerA = await app.login(a.userName, a.password);
    carerB = await app.login(b.userName, b.password);
  });
  afterAll(() => app?.close());

  it('lists a pending alarm with the spec’s record fields, its place and resident, in the caller’s language', async () => {
    await press('HDL-FALL1', 'fall');
    const [row] = await pendingOf(w.aHome.token, 'HDL-FALL1');
    expect(row).toMatchObject({
      alertType: 'FALL',
      type: 'fall',
      alertLevel: 1,
      status: 1,
      isRelieve: false,
      releaseKind: 0,
      bunk: 'Hdl 101-1',
      room: 'Hdl 101',
      floorArea: 'Hdl Area / Hdl Area F1',
      userName: 'Ada Lovelace',
      text: 'Hdl 101 Hdl 101-1: Ada Lovelace has fallen',
      voiceWay: 3,
      deviceType: T.fallDomestic,
    } satisfies Partial<AlarmRecord>);
    expect(String(row?.timeStamp)).toMatch(/^\d{10}$/);
    expect(row?.alertRecordId).toBe(row?.id);
    const zh = await app.call(alarmLogUnDeal, { keyWord: 'HDL-FALL1' }, { token: w.aHome.token, lang: 'zh-CN' });
    expect(zh.data?.rows[0]?.text).toBe('Hdl 101 Hdl 101-1：Ada Lovelace跌倒');
  });

  it('filters by time (10-digit seconds), key word, type and level; orders by time or level', async () => {
    clock.advance(2000);
    await press('HDL-SOS3');
    const now = Math.floor(clock.now().getTime() / 1000);
    const ids = (rows: AlarmRecord[]) => rows.map((r) => r.deviceId);
    expect(ids(await pending(w.aHome.token, { order: 'asc' }))).toEqual(['HDL-FALL1', 'HDL-SOS3']);
    expect(ids(await pending(w.aHome.token, { order: 'desc' }))).toEqual(['HDL-SOS3', 'HDL-FALL1']);
    expect((await pending(w.aHome.token, { keyWord: 'ada' })).map((r) => r.deviceId)).toEqual(['HDL-FALL1']);
    expect((await pending(w.aHome.token, { alertType: 'SOS' })).map((r) => r.deviceId)).toEqual(['HDL-SOS3']);
    expect(await pending(w.aHome.token, { startTime: now + 60 })).toEqual([]);
    expect((await pending(w.aHome.token, { startTime: now - 60, endTime: now + 60 })).length).toBe(2);
    expect(await pending(w.aHome.token, { alertLevel: 2 })).toEqual([]);
  });

  it('the bell shows its dot while an alarm is pending', async () => {
    const res = await app.call(alertFlag, {}, { token: w.aHome.token });
    expect(res.data).toMatchObject({ flag: true });
    expect(res.data?.count).toBeGreaterThanOrEqual(1);
    // Another provider sees none of them.
    expect((await app.call(alertFlag, {}, { token: w.bGroup.token })).data).toEqual({ flag: false, count: 0 });
  });

  it('handles an alarm: it moves to the processed list with its handler, reason, result and details', async () => {
    await press('HDL-SOS1');
    const [alarm] = await pendingOf(carerA, 'HDL-SOS1');
    clock.advance(90_000);
    const res = await app.call(
      alarmRelieve,
      { id: alarm?.id ?? 0, reason: 'CHECKED', result: 'NO_ABNORMALITY', details: 'Pressed by mistake' },
      { token: carerA },
    );
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      isRelieve: true,
      releaseKind: 1,
      relieveReason: 'CHECKED',
      remark: 'Pressed by mistake',
    });
    // Its text is what happened, not rewritten by the handling (issue 29).
    expect(res.data?.text).toBe('Device HDL-SOS1: pressed the emergency button');
    expect(res.data?.releaseText).toBeNull();
    expect(await pendingOf(carerA, 'HDL-SOS1')).toEqual([]);
    const processed = await app.call(alarmLog, { keyWord: 'HDL-SOS1' }, { token: carerB });
    expect(processed.data?.rows[0]).toMatchObject({
      id: alarm?.id,
      handlerName: expect.any(String),
      dealResult: 'NO_ABNORMALITY',
    });
    expect((processed.data?.rows[0]?.dealTime ?? 0) - (alarm?.timeStamp ?? 0)).toBe(90);
    const timeline = await app.call(alarmTimeline, { id: alarm?.id ?? 0 }, { token: carerB });
    expect(timeline.data?.map((t) => [t.step, t.who])).toEqual([
      ['raised', null],
      ['handled', 'hdlCarerA'],
    ]);
    expect(published.some((e) => e.type === ALARM_EVENT.handled && e.payload.alarm.id === alarm?.id)).toBe(true);
  });

  it('of two terminals handling one alarm at once, exactly one wins; the other is told, in each of 20 trials', async () => {
    for (let trial = 0; trial < 20; trial++) {
      await press('HDL-SOS2');
      const [alarm] = await pendingOf(carerA, 'HDL-SOS2');
      const id = alarm?.id ?? 0;
      const both = await Promise.all(
        [carerA, carerB].map((token) => app.call(alarmRelieve, { id, reason: 'CHECKED' }, { token })),
      );
      expect(both.map((r) => r.status).sort()).toEqual([200, 300]);
      const loser = both.find((r) => r.status !== 200);
      expect(loser).toMatchObject({
        msgKey: 'alarm.handledElsewhere',
        msg: 'This alarm has already been handled on another terminal.',
      });
      const state = await app.call(alarmDealStatus, { id }, { token: carerA });
      expect(state.data).toMatchObject({ isRelieve: true, releaseKind: 1 });
    }
  });

  it('another provider can neither read nor handle the alarm: it does not exist for them', async () => {
    const [alarm] = await pendingOf(w.aHome.token, 'HDL-FALL1');
    const id = alarm?.id ?? 0;
    for (const res of [
      await app.call(alarmDealStatus, { id }, { token: w.bGroup.token }),
      await app.call(alarmRelieve, { id, reason: 'TEST' }, { token: w.bGroup.token }),
      await app.call(alarmTimeline, { id }, { token: w.bGroup.token }),
    ])
      expect(res).toMatchObject({ msgKey: 'alarm.notFound' });
    expect(await pendingOf(w.bGroup.token, 'HDL-FALL1')).toEqual([]);
  });

  it('refuses a handling reason outside the spec’s list with a clear message', async () => {
    const res = await app.call(alarmRelieve, { id: 1, reason: 'BORED' as 'TEST' }, { token: carerA });
    expect(res.status).not.toBe(200);
    expect(res.msg).toMatch(/reason/i);
  });

  it('exports the processed log as .xlsx in the caller’s language', async () => {
    const file = await app.download(alarmExport, { deal: 'processed', keyWord: 'HDL-SOS1' }, { token: carerA });
    const rows = sheetRows(file);
    expect(rows[0]?.slice(0, 4)).toEqual(['Raised at', 'Alarm type', 'Alarm level', 'Alarm']);
    expect(rows[1]).toEqual(
      expect.arrayContaining([
        'Emergency call',
        'Level 1 (red)',
        'HDL-SOS1',
        'Handled',
        'Checked on site',
        'No abnormality',
      ]),
    );
    expect(rows[1]?.[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  // Issue 29, point 6: the handler shown everywhere is the person, never the care home.
  it('names who handled an alarm as a person: a provider’s own account by its login, never the provider’s name', async () => {
    await press('HDL-SOS4');
    const [alarm] = await pendingOf(w.aHome.token, 'HDL-SOS4');
    const id = alarm?.id ?? 0;
    const res = await app.call(alarmRelieve, { id, reason: 'CHECKED' }, { token: w.aHome.token });
    expect(res.data?.handlerName).toBe(w.aHome.userName);
    expect(res.data?.handlerName).not.toBe('Hdl Home A');
    const processed = await app.call(alarmLog, { keyWord: 'HDL-SOS4' }, { token: carerB });
    expect(processed.data?.rows[0]?.handlerName).toBe(w.aHome.userName);
    const timeline = await app.call(alarmTimeline, { id }, { token: carerB });
    expect(timeline.data?.find((t) => t.step === 'handled')?.who).toBe(w.aHome.userName);
    const file = await app.download(alarmExport, { deal: 'processed', keyWord: 'HDL-SOS4' }, { token: carerA });
    const [header, row] = sheetRows(file);
    const column = header?.indexOf('Handled by') ?? -1;
    expect(column).toBeGreaterThanOrEqual(0);
    expect(row?.[column]).toBe(w.aHome.userName);
  });

  it('names a caregiver who handled an alarm from the app by the caregiver’s name, on the record and the timeline', async () => {
    const made = await makeCaregiver(app, w.aHome.token, 'Chen Jing');
    const carer = await appSessionAfterPasswordChange(app, made.userName, made.initialPassword);
    await press('HDL-SOS5');
    const [alarm] = await pendingOf(carerA, 'HDL-SOS5');
    const id = alarm?.id ?? 0;
    const res = await app.call(alarmRelieve, { id, reason: 'CHECKED' }, { token: carer });
    expect(res.status).toBe(200);
    expect(res.data?.handlerName).toBe('Chen Jing');
    const timeline = await app.call(alarmTimeline, { id }, { token: carerA });
    expect(timeline.data?.find((t) => t.step === 'handled')?.who).toBe('Chen Jing');
  });

  it('adds a note to a handled alarm’s timeline, names its author and tells the consoles', async () => {
    await press('HDL-SOS6');
    const [alarm] = await pendingOf(carerA, 'HDL-SOS6');
    const id = alarm?.id ?? 0;
    expect((await app.call(alarmRelieve, { id, reason: 'CHECKED' }, { token: carerA })).status).toBe(200);
    clock.advance(30_000);
    // Typed on the second console while the first handled it: still kept.
    const res = await app.call(alarmAddNote, { id, note: '  Gave her water, calm now  ' }, { token: carerB });
    expect(res.status).toBe(200);
    const at = clock.now().getTime() / 1000;
    expect(res.data).toEqual({ at, step: 'note', who: 'hdlCarerB', detail: { note: 'Gave her water, calm now' } });
    const timeline = await app.call(alarmTimeline, { id }, { token: carerA });
    expect(timeline.data?.map((t) => [t.step, t.who])).toEqual([
      ['raised', null],
      ['handled', 'hdlCarerA'],
      ['note', 'hdlCarerB'],
    ]);
    expect(timeline.data?.at(-1)?.detail).toEqual({ note: 'Gave her water, calm now' });
    // The handling is unchanged: a note is no second handling.
    const state = await app.call(alarmDealStatus, { id }, { token: carerA });
    expect(state.data).toMatchObject({ handlerName: 'hdlCarerA', remark: null, releaseKind: 1 });
    const pushed = published.find((e) => e.type === ALARM_EVENT.noted);
    expect(pushed).toMatchObject({
      providerId: w.aHome.id,
      payload: { note: { id, at, who: 'hdlCarerB', note: 'Gave her water, calm now' } },
    });
  });

  it('refuses an empty or too long note with a localised message naming the field, and adds nothing', async () => {
    const [alarm] = await pendingOf(w.aHome.token, 'HDL-FALL1');
    const id = alarm?.id ?? 0;
    const before = (await app.call(alarmTimeline, { id }, { token: carerA })).data?.length;
    const blank = await app.call(alarmAddNote, { id, note: '   ' }, { token: carerA });
    expect(blank).toMatchObject({ status: 400, msg: 'Note is required.' });
    const zh = await app.call(alarmAddNote, { id, note: '' }, { token: carerA, lang: 'zh-CN' });
    expect(zh.msg).toContain('补充记录');
    const long = await app.call(alarmAddNote, { id, note: 'x'.repeat(201) }, { token: carerA });
    expect(long).toMatchObject({ status: 400, msg: 'Note must be at most 200 characters.' });
    const noId = await app.call(alarmAddNote, { note: 'Checked' } as { id: number; note: string }, { token: carerA });
    expect(noId.status).toBe(400);
    expect((await app.call(alarmTimeline, { id }, { token: carerA })).data?.length).toBe(before);
  });

  it('another provider cannot add a note to an alarm it does not see, nor to one that does not exist', async () => {
    const [alarm] = await pendingOf(w.aHome.token, 'HDL-FALL1');
    const id = alarm?.id ?? 0;
    const noted = published.filter((e) => e.type === ALARM_EVENT.noted).length;
    for (const res of [
      await app.call(alarmAddNote, { id, note: 'Not mine' }, { token: w.bGroup.token }),
      await app.call(alarmAddNote, { id: 987_654_321, note: 'Nobody' }, { token: carerA }),
    ])
      expect(res).toMatchObject({ msgKey: 'alarm.notFound', msg: 'The alarm does not exist.' });
    const timeline = await app.call(alarmTimeline, { id }, { token: carerA });
    expect(timeline.data?.some((t) => t.step === 'note')).toBe(false);
    expect(published.filter((e) => e.type === ALARM_EVENT.noted)).toHaveLength(noted);
  });

  it('names the sheet and the file after the tab it exports, and sizes each column to its content', async () => {
    const zh = { token: w.aHome.token, lang: 'zh-CN' } as const;
    const pendingFile = await app.download(alarmExport, { deal: 'pending', keyWord: 'HDL-FALL1' }, zh);
    const resolvedFile = await app.download(alarmExport, { deal: 'processed', keyWord: 'HDL-SOS1' }, zh);
    expect(pendingFile.filename).toMatch(/^待处理告警 \d{4}-\d\d-\d\d\.xlsx$/);
    expect(resolvedFile.filename).toMatch(/^已处理告警 \d{4}-\d\d-\d\d\.xlsx$/);
    const en = await app.download(alarmExport, { deal: 'pending', keyWord: 'HDL-FALL1' }, { token: w.aHome.token });
    expect(en.filename).toMatch(/^Pending alarms \d{4}-\d\d-\d\d\.xlsx$/);

    const book = XLSX.read(pendingFile.bytes, { type: 'buffer', cellStyles: true });
    expect(book.SheetNames).toEqual(['待处理告警']);
    expect(XLSX.read(resolvedFile.bytes, { type: 'buffer' }).SheetNames).toEqual(['已处理告警']);
    // Every column as wide as its widest cell (a Chinese character counting two): the raised time,
    // the place and the text read whole when the file opens.
    const rows = sheetRows(pendingFile);
    const widths = book.Sheets['待处理告警']?.['!cols']?.map((c) => c.wch ?? 0) ?? [];
    const shown = (text: string) => [...text].reduce((n, ch) => n + (ch.charCodeAt(0) > 0x2e80 ? 2 : 1), 0);
    expect(widths).toHaveLength(rows[0]?.length ?? -1);
    rows[0]?.forEach((_, col) => {
      const widest = Math.max(...rows.map((row) => shown(row[col] ?? '')));
      expect(widths[col], rows[0]?.[col]).toBeGreaterThanOrEqual(Math.min(60, widest));
    });
  });
});
