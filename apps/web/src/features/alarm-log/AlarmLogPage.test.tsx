import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { alertFlag, type AlarmRecord, type EndpointResult } from '@vigil/contract/browser';
import dayjs from 'dayjs';
import type { i18n as I18n } from 'i18next';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCall } from '../../shared/api/use-call.ts';
import { sessionStore } from '../../shared/session/session-store.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import {
  choose,
  dialogButton,
  formErrors,
  installFakeApi,
  lastJson,
  lastQuery,
  page,
  requestsTo,
  signInAs,
  type FakeApi,
} from '../devices/test-server.ts';
import { restoreWindowWidth, setWindowWidth } from '../../test/window-width.ts';
import AlarmLogPage from './AlarmLogPage.tsx';
import { alarmColumns } from './AlarmTable.tsx';
import { DEFAULT_SORT, formatSeconds } from './alarm-model.ts';
import { fallAlarmRecord } from '../../test/alarm-record.ts';

vi.setConfig({ testTimeout: 120_000 });

const PENDING = '/alarmLog/unDeal';
const RESOLVED = '/alarmLog';
const RELIEVE = '/alarmLog/relieveAlert';
const TIMELINE = '/alarmLog/timeline';
const EXPORT = '/alarmLog/exportAlarmLog';
const FLAG = '/monitor/alertFlag';
const DAY = 86_400;
const RAISED = 1_773_050_400; // 2026-03-09 10:00 UTC

const alarm = (id: number, overrides: Partial<AlarmRecord> = {}): AlarmRecord =>
  fallAlarmRecord(id, { timeStamp: RAISED, lastTime: RAISED + 60, count: 3, voiceWay: 3, ...overrides });

const FALL = alarm(11);
const LEFT_BED = alarm(12, {
  type: 'sleep',
  deviceId: 'SLP-1001',
  deviceType: 52,
  alertType: 'LEAVE_BED',
  alertLevel: 2,
  count: 1,
  bunk: '3',
  userName: 'Zhang Min',
  text: 'Building A / Floor 1 / 101 / 3: Zhang Min has left the bed',
});
const HANDLED = alarm(21, {
  isRelieve: true,
  status: 0,
  releaseKind: 1,
  relieveReason: 'CHECKED',
  dealResult: 'SIT_ASIDE_BED',
  handlerName: 'Nurse Chen',
  dealTime: RAISED + 300,
  remark: 'Helped back to bed',
  text: 'Building A / Floor 1 / 101 / 2: Li Wei was helped up',
});
const CLEARED = alarm(22, {
  isRelieve: true,
  status: 0,
  alertType: 'CONNECTION',
  type: 'device',
  alertLevel: 2,
  releaseKind: 2,
  userName: null,
  bunk: null,
  room: null,
  floorArea: null,
  dealTime: RAISED + 120,
  text: 'Device ED-7001: the device is online again',
});

let fake: FakeApi;
let i18n: I18n;
const realFetch = globalThis.fetch;
beforeAll(async () => {
  fake = installFakeApi();
  i18n = await englishI18n();
});
afterAll(() => {
  globalThis.fetch = realFetch;
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.routes.clear();
  fake.routes.set(PENDING, () => ({ data: page([FALL, LEFT_BED]) }));
  fake.routes.set(RESOLVED, () => ({ data: page([HANDLED, CLEARED]) }));
  fake.routes.set(FLAG, () => ({ data: { flag: true, count: 2 } satisfies EndpointResult<typeof alertFlag> }));
  signInAs('CARER');
});
afterEach(() => {
  sessionStore.reset();
  restoreWindowWidth();
});

/** Stands in for the navbar bell: reads the flag as the navbar does, so its refresh can be seen. */
const BellProbe = () => {
  useCall(alertFlag, {});
  return null;
};

const show = async () => {
  render(
    inTestShell(
      i18n,
      <>
        <AlarmLogPage />
        <BellProbe />
      </>,
    ),
  );
  await screen.findByText(FALL.text);
};
const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** The startTime of the latest list request, as seconds before now. */
const lookback = (path: string) => nowSeconds() - Number(lastJson(fake, path).startTime);

describe('Alarm log (/alarm-log/alarmIndex)', () => {
  it('lists the pending alarms of the last month: level tags, type, the server’s text, place and resident', async () => {
    await show();
    expect(screen.getByText('Alarm log')).toBeInTheDocument();
    const sent = lastJson(fake, PENDING);
    expect(sent).toMatchObject({ pageNum: 1, pageSize: 10, orderBy: 'timeStamp', order: 'desc' });
    expect(sent).not.toHaveProperty('endTime');
    expect(lookback(PENDING)).toBeGreaterThanOrEqual(30 * DAY);
    expect(lookback(PENDING)).toBeLessThan(30 * DAY + 60);

    const fall = within(rowOf(FALL.text));
    const red = fall.getByText('Level 1');
    expect(red).toHaveClass('ant-tag-red');
    for (const text of ['Fall', 'Building A / Floor 1 / 101 / 2', 'Li Wei', '3', formatSeconds(RAISED)]) {
      expect(fall.getByText(text)).toBeInTheDocument();
    }
    const leftBed = within(rowOf(LEFT_BED.text));
    expect(leftBed.getByText('Level 2')).toHaveClass('ant-tag-orange');
    expect(leftBed.getByText('Left the bed')).toBeInTheDocument();
    expect(leftBed.getByText('Handle')).toBeInTheDocument();
  });

  it('counts the period back from now: a week once chosen, 24 hours, and sends key word, type and level', async () => {
    await show();
    await choose('alarm-filter-period', 'Last week');
    await waitFor(() => expect(lookback(PENDING)).toBeGreaterThanOrEqual(7 * DAY));
    expect(lookback(PENDING)).toBeLessThan(7 * DAY + 60);

    await choose('alarm-filter-period', 'Last 24 hours');
    await waitFor(() => expect(lookback(PENDING)).toBeLessThan(DAY + 60));
    expect(lookback(PENDING)).toBeGreaterThanOrEqual(DAY);

    const search = screen.getByPlaceholderText('Resident, bed, room or device ID');
    fireEvent.change(search, { target: { value: ' li wei ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(lastJson(fake, PENDING)).toMatchObject({ keyWord: 'li wei' }));
    await choose('alarm-filter-type', 'Fall');
    await waitFor(() => expect(lastJson(fake, PENDING)).toMatchObject({ keyWord: 'li wei', alertType: 'FALL' }));
    await choose('alarm-filter-level', 'Level 1 (red)');
    await waitFor(() =>
      expect(lastJson(fake, PENDING)).toMatchObject({ keyWord: 'li wei', alertType: 'FALL', alertLevel: 1 }),
    );
  });

  it('narrows to a room or a floor with the place filter (issue 27)', async () => {
    fake.routes.set('/userBunk/getConfiguration', () => ({
      data: {
        mattresses: [],
        deviceTypes: [],
        areas: [
          {
            id: 20,
            name: 'Building A',
            providerId: 7,
            floors: [{ id: 21, name: 'Floor 1', rooms: [{ id: 11, name: '102', beds: [] }] }],
          },
        ],
      },
    }));
    await show();
    const pick = async (labels: string[]) => {
      const filter = screen.getByTestId('alarm-filter-place');
      fireEvent.mouseDown(filter.querySelector('input') ?? filter);
      for (const label of labels) {
        const item = await waitFor(() => {
          const found = [...document.querySelectorAll<HTMLElement>('.ant-cascader-menu-item')]
            .reverse()
            .find((i) => i.textContent === label);
          if (!found) throw new Error(`no ${label}`);
          return found;
        });
        fireEvent.click(item);
      }
    };
    await pick(['Building A', 'Floor 1', '102']);
    await waitFor(() => expect(lastJson(fake, PENDING)).toMatchObject({ roomId: 11 }));
    expect(lastJson(fake, PENDING)).not.toHaveProperty('areaId');
    await pick(['Building A', 'Floor 1']);
    await waitFor(() => expect(lastJson(fake, PENDING)).toMatchObject({ areaId: 21 }));
    expect(lastJson(fake, PENDING)).not.toHaveProperty('roomId');
  });

  it('handles an alarm with a reason, a result and details, then refreshes the lists and the bell', async () => {
    fake.routes.set(RELIEVE, () => ({ data: { ...FALL, isRelieve: true, releaseKind: 1, relieveReason: 'CHECKED' } }));
    await show();
    fireEvent.click(within(rowOf(FALL.text)).getByText('Handle'));
    const form = await screen.findByTestId('alarm-handle-form');
    expect(screen.getByText('Handle the alarm')).toBeInTheDocument();

    // The reason is required.
    fireEvent.click(await dialogButton('Handle'));
    await waitFor(() => expect(formErrors()).toContain('Required'));
    expect(requestsTo(fake, RELIEVE)).toHaveLength(0);

    fireEvent.click(within(form).getByText('Checked on site'));
    await choose('alarm-handle-result', 'Sitting beside the bed');
    fireEvent.change(within(form).getByPlaceholderText('What you found and did'), {
      target: { value: '  Helped back to bed  ' },
    });
    const listed = requestsTo(fake, PENDING).length;
    const flagged = requestsTo(fake, FLAG).length;
    fireEvent.click(await dialogButton('Handle'));

    await waitFor(() =>
      expect(lastJson(fake, RELIEVE)).toEqual({
        id: 11,
        reason: 'CHECKED',
        result: 'SIT_ASIDE_BED',
        details: 'Helped back to bed',
      }),
    );
    expect(await screen.findByText('The alarm is handled.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('alarm-handle-form')).not.toBeInTheDocument());
    await waitFor(() => expect(requestsTo(fake, PENDING).length).toBeGreaterThan(listed));
    await waitFor(() => expect(requestsTo(fake, FLAG).length).toBeGreaterThan(flagged));
  });

  it('shows what and how much: the figure under the text, the time waited, the live chart (issue 29, point 4)', async () => {
    const heart = alarm(13, {
      type: 'sleep',
      alertType: 'HEART_ABNORMAL',
      alertLevel: 2,
      userName: 'Margaret Ellis',
      userId: 9,
      text: '101 2: Margaret Ellis has an abnormal heart rate',
      measure: { quantity: 'heartRate', value: 58, limit: 75, side: 'below', seconds: 120 },
      measureText: 'heart rate 58 /min · below the limit 75 · for 2 min',
    });
    const raised = nowSeconds() - 125;
    fake.routes.set(PENDING, () => ({ data: page([FALL, { ...heart, timeStamp: raised }]) }));
    await show();
    const row = within(rowOf(heart.text));
    expect(row.getByTestId('alarm-measure')).toHaveTextContent('heart rate 58 /min · below the limit 75 · for 2 min');
    expect(row.getByTestId('alarm-elapsed')).toHaveTextContent(/^2 min \d+ s ago$/);
    expect(row.getByTestId('alarm-live-chart')).toHaveAttribute('href', '/realMonitor/resident?userId=9');
    // An event alarm shows no figure, and no empty line for one.
    expect(within(rowOf(FALL.text)).queryByTestId('alarm-measure')).toBeNull();

    fireEvent.click(row.getByText('Handle'));
    const dialog = within((await screen.findByTestId('alarm-handle-form')).closest('.ant-modal') as HTMLElement);
    expect(dialog.getByTestId('alarm-measure')).toHaveTextContent(
      'heart rate 58 /min · below the limit 75 · for 2 min',
    );
    expect(dialog.getByTestId('alarm-elapsed')).toHaveTextContent(/ago$/);
    expect(dialog.getByTestId('alarm-live-chart')).toHaveAttribute('href', '/realMonitor/resident?userId=9');
  });

  it('offers the results that fit the alarm: the radar’s postures for a fall, not for a heart rate (issue 29, point 7)', async () => {
    const heart = alarm(14, {
      type: 'sleep',
      alertType: 'HEART_ABNORMAL',
      text: 'Margaret Ellis: abnormal heart rate',
    });
    fake.routes.set(PENDING, () => ({ data: page([FALL, heart]) }));
    fake.routes.set(RELIEVE, () => ({ data: { ...heart, isRelieve: true, releaseKind: 1, relieveReason: 'CHECKED' } }));
    const offered = async (text: string) => {
      fireEvent.click(within(rowOf(text)).getByText('Handle'));
      await screen.findByTestId('alarm-handle-form');
      fireEvent.mouseDown(screen.getByTestId('alarm-handle-result'));
      await waitFor(() => expect(document.querySelectorAll('.ant-select-item-option').length).toBeGreaterThan(0));
      return [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent);
    };
    await show();
    expect(await offered(heart.text)).toEqual(['No abnormality', 'Doctor informed', 'Family contacted']);
    await choose('alarm-handle-result', 'Doctor informed');
    fireEvent.click(within(screen.getByTestId('alarm-handle-form')).getByText('Checked on site'));
    fireEvent.click(await dialogButton('Handle'));
    await waitFor(() =>
      expect(lastJson(fake, RELIEVE)).toEqual({ id: 14, reason: 'CHECKED', result: 'DOCTOR_INFORMED' }),
    );
    await waitFor(() => expect(screen.queryByTestId('alarm-handle-form')).not.toBeInTheDocument());

    expect(await offered(FALL.text)).toEqual([
      'No abnormality',
      'Propped up in bed',
      'Sitting beside the bed',
      'Lying or sitting at the foot of the bed',
      'Doctor informed',
      'Family contacted',
    ]);
  });

  it('sends only the reason when nothing else is given', async () => {
    fake.routes.set(RELIEVE, () => ({ data: { ...LEFT_BED, isRelieve: true, releaseKind: 1, relieveReason: 'TEST' } }));
    await show();
    fireEvent.click(within(rowOf(LEFT_BED.text)).getByText('Handle'));
    const form = await screen.findByTestId('alarm-handle-form');
    fireEvent.click(within(form).getByText('Test'));
    fireEvent.click(await dialogButton('Handle'));
    await waitFor(() => expect(lastJson(fake, RELIEVE)).toEqual({ id: 12, reason: 'TEST' }));
  });

  it('shows the server’s message when another terminal handled the alarm first, and refreshes', async () => {
    const elsewhere = 'This alarm has already been handled on another terminal.';
    fake.routes.set(RELIEVE, () => ({ status: 300, msgKey: 'alarm.handledElsewhere', msg: elsewhere }));
    await show();
    fireEvent.click(within(rowOf(FALL.text)).getByText('Handle'));
    const form = await screen.findByTestId('alarm-handle-form');
    fireEvent.click(within(form).getByText('False alarm: checked again'));
    const listed = requestsTo(fake, PENDING).length;
    fireEvent.click(await dialogButton('Handle'));
    expect(await screen.findByText(elsewhere)).toBeInTheDocument();
    expect(lastJson(fake, RELIEVE)).toEqual({ id: 11, reason: 'MISTAKE_RECHECK' });
    await waitFor(() => expect(screen.queryByTestId('alarm-handle-form')).not.toBeInTheDocument());
    await waitFor(() => expect(requestsTo(fake, PENDING).length).toBeGreaterThan(listed));
  });

  it('keeps the dialog open on any other refusal, with the server’s message', async () => {
    fake.routes.set(RELIEVE, () => ({ status: 300, msgKey: 'alarm.notFound', msg: 'The alarm does not exist.' }));
    await show();
    fireEvent.click(within(rowOf(FALL.text)).getByText('Handle'));
    const form = await screen.findByTestId('alarm-handle-form');
    fireEvent.click(within(form).getByText('Device removed'));
    fireEvent.click(await dialogButton('Handle'));
    expect(await screen.findByText('The alarm does not exist.')).toBeInTheDocument();
    expect(screen.getByTestId('alarm-handle-form')).toBeInTheDocument();
  });

  it('shows the resolved alarms with how, by whom, why and when they were released', async () => {
    await show();
    fireEvent.click(screen.getByRole('tab', { name: 'Resolved' }));
    await screen.findByText(HANDLED.text);
    expect(lookback(RESOLVED)).toBeGreaterThanOrEqual(30 * DAY);
    expect(lookback(RESOLVED)).toBeLessThan(30 * DAY + 60);

    const handled = within(rowOf(HANDLED.text));
    for (const text of [
      'Handled',
      'Nurse Chen',
      'Checked on site',
      'Sitting beside the bed',
      'Helped back to bed',
      formatSeconds(RAISED + 300),
    ]) {
      expect(handled.getByText(text)).toBeInTheDocument();
    }
    expect(handled.queryByText('Handle')).not.toBeInTheDocument();
    const cleared = within(rowOf(CLEARED.text));
    expect(cleared.getByText('Cleared automatically')).toBeInTheDocument();
    expect(cleared.getByText('Device offline')).toBeInTheDocument();
  });

  it('shows an alarm’s timeline with the times and who acted', async () => {
    fake.routes.set(TIMELINE, () => ({
      data: [
        { at: RAISED, step: 'raised', who: null, detail: {} },
        { at: RAISED + 2.5, step: 'played', who: 'carer01', detail: {} },
        { at: RAISED + 300, step: 'handled', who: 'chen', detail: { reason: 'CHECKED', result: 'SIT_ASIDE_BED' } },
      ],
    }));
    await show();
    fireEvent.click(within(rowOf(FALL.text)).getByText('Timeline'));
    const timeline = await screen.findByTestId('alarm-timeline');
    expect(lastQuery(fake, TIMELINE)).toEqual({ id: '11' });
    const shown = within(timeline);
    for (const text of [
      'Raised',
      'Announced aloud',
      'by carer01',
      'by chen',
      'Checked on site · Sitting beside the bed',
    ]) {
      expect(shown.getByText(text)).toBeInTheDocument();
    }
    expect(shown.getByText(`${formatSeconds(RAISED)}:00`)).toBeInTheDocument();
    expect(shown.getByText(`${formatSeconds(RAISED + 300)}:00`)).toBeInTheDocument();
  });

  // Issue 29, point 6: an alarm spoken by 16 consoles was 16 rows of its timeline.
  it('shows what many consoles reported alike as one row that opens to each console, and notes with their text', async () => {
    const spoken = Array.from({ length: 16 }, (_, i) => ({
      at: RAISED + 1 + i,
      step: 'played' as const,
      who: `nurse${String(i + 1).padStart(2, '0')}`,
      detail: { console: 'playAlarm' },
    }));
    fake.routes.set(TIMELINE, () => ({
      data: [
        { at: RAISED, step: 'raised', who: null, detail: {} },
        { at: RAISED + 0.5, step: 'delivered', who: 'nurse01', detail: { console: 'newAlarm' } },
        { at: RAISED + 0.7, step: 'delivered', who: 'nurse02', detail: { console: 'newAlarm' } },
        ...spoken,
        { at: RAISED + 300, step: 'handled', who: 'Chen Jing', detail: { reason: 'CHECKED', result: null } },
        { at: RAISED + 310, step: 'delivered', who: 'nurse03', detail: { console: 'relieveAlarm' } },
        { at: RAISED + 320, step: 'note', who: 'nurse02', detail: { note: 'Gave her water, calm now' } },
      ],
    }));
    await show();
    fireEvent.click(within(rowOf(FALL.text)).getByText('Timeline'));
    const timeline = await screen.findByTestId('alarm-timeline');
    const shown = within(timeline);
    expect(timeline.querySelectorAll('.ant-timeline-item')).toHaveLength(6);
    const played = within(shown.getByTestId('timeline-consoles-playAlarm'));
    expect(played.getByText('Announced aloud on 16 consoles')).toBeInTheDocument();
    expect(shown.getByTestId('timeline-consoles-newAlarm')).toHaveTextContent('Shown on 2 consoles');
    expect(shown.queryByText(/nurse16/)).not.toBeInTheDocument();
    // One console's report stays a plain step.
    expect(shown.getByText('Shown on a console')).toBeInTheDocument();
    expect(shown.getByText('by nurse03')).toBeInTheDocument();

    fireEvent.click(played.getByRole('button', { name: 'Show each console' }));
    expect(played.getByText(`${dayjs.unix(RAISED + 16).format('HH:mm:ss')} · by nurse16`)).toBeInTheDocument();
    expect(played.getAllByText(/ · by nurse\d\d$/)).toHaveLength(16);
    fireEvent.click(played.getByRole('button', { name: 'Hide' }));
    expect(played.queryByText(/nurse16/)).not.toBeInTheDocument();

    for (const text of ['Note added', 'by nurse02', 'Gave her water, calm now', 'by Chen Jing']) {
      expect(shown.getByText(text)).toBeInTheDocument();
    }
  });

  it('exports the current tab with the current filters', async () => {
    fake.routes.set(EXPORT, () => ({ status: 400, msgKey: 'export.tooMany', msg: 'Too many rows to export.' }));
    await show();
    await choose('alarm-filter-period', 'Last 3 months');
    await choose('alarm-filter-level', 'Level 2 (orange)');
    fireEvent.click(screen.getByTestId('export'));
    await waitFor(() => expect(requestsTo(fake, EXPORT)).toHaveLength(1));
    const pending = lastQuery(fake, EXPORT);
    expect(pending).toMatchObject({ deal: 'pending', alertLevel: '2' });
    expect(nowSeconds() - Number(pending.startTime)).toBeGreaterThanOrEqual(90 * DAY);
    expect(nowSeconds() - Number(pending.startTime)).toBeLessThan(90 * DAY + 60);
    expect(pending).not.toHaveProperty('pageNum');
    expect(pending).not.toHaveProperty('period');
    expect(pending).not.toHaveProperty('endTime');
    // A refusal of the export shows as the server words it.
    expect(await screen.findByText('Too many rows to export.')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: 'Resolved' }));
    await screen.findByText(HANDLED.text);
    await waitFor(() => expect(screen.getByTestId('export')).not.toHaveClass('ant-btn-loading'));
    fireEvent.click(screen.getByTestId('export'));
    await waitFor(() => expect(requestsTo(fake, EXPORT)).toHaveLength(2));
    expect(lastQuery(fake, EXPORT)).toMatchObject({ deal: 'processed', alertLevel: '2' });
  });

  it('shows each alarm as a card on a phone: type, level and state over the resident, the place and the text', async () => {
    setWindowWidth(390);
    await show();
    const cardOf = (text: string) => screen.getByText(text).closest('[data-testid="list-card"]') as HTMLElement;
    const fall = cardOf(FALL.text);
    expect(fall.querySelector('[data-card="title"]')).toHaveTextContent('Fall');
    expect(within(fall).getByTestId('alarm-level-1')).toHaveTextContent('Level 1');
    expect(within(fall).getByTestId('alarm-state')).toHaveTextContent('Pending');
    const line = (card: HTMLElement, field: string) => card.querySelector(`[data-field="${field}"]`);
    expect(line(fall, 'resident')).toHaveTextContent('Li Wei');
    expect(line(fall, 'place')).toHaveTextContent('Building A / Floor 1 / 101 / 2');
    expect(line(fall, 'timeStamp')).toHaveTextContent(formatSeconds(RAISED));
    expect(line(fall, 'count')).toHaveTextContent('3');
    expect(document.querySelector('table')).toBeNull();

    fireEvent.click(within(fall).getByText('Handle'));
    expect(await screen.findByTestId('alarm-handle-form')).toBeInTheDocument();
  });

  it('shows a handled alarm’s card with how, by whom, why and with what result it was handled', async () => {
    setWindowWidth(390);
    await show();
    fireEvent.click(screen.getByRole('tab', { name: 'Resolved' }));
    await screen.findByText(HANDLED.text);
    const handled = screen.getByText(HANDLED.text).closest('[data-testid="list-card"]') as HTMLElement;
    expect(within(handled).getByTestId('alarm-state')).toHaveTextContent('Handled');
    const line = (field: string) => handled.querySelector(`[data-field="${field}"]`);
    expect(line('resident')).toHaveTextContent('Li Wei');
    expect(line('place')).toHaveTextContent('Building A / Floor 1 / 101 / 2');
    expect(line('released')).toHaveTextContent(formatSeconds(RAISED + 300));
    expect(line('handlerName')).toHaveTextContent('Nurse Chen');
    expect(line('reasonResult')).toHaveTextContent('Checked on site');
    expect(line('reasonResult')).toHaveTextContent('Sitting beside the bed');
    expect(line('remark')).toHaveTextContent('Helped back to bed');
  });

  it('fits how each alarm was handled beside the sidebar of a 1440 px window', () => {
    const t = i18n.getFixedT('en-US', 'alarm-log');
    const columns = alarmColumns(t, 'resolved', DEFAULT_SORT, () => null);
    const headers = columns.map((c) => c.title);
    expect(headers).toEqual(expect.arrayContaining(['Released', 'Handled by', 'Reason and result', 'Details']));
    const width = columns.reduce((sum, c) => sum + Number(c.width), 0);
    // The list's width beside the sidebar at 1440 px (about 1158 px measured in the browser).
    expect(width).toBeLessThanOrEqual(1150);
  });
});
