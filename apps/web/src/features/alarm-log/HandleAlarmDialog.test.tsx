import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { AlarmRecord, RelieveNotice } from '@vigil/contract/browser';
import dayjs from 'dayjs';
import type { i18n as I18n } from 'i18next';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveAlarms } from '../../shared/live/LiveAlarms.tsx';
import { sessionStore } from '../../shared/session/session-store.ts';
import { expectRefusal } from '../../test/refusal.ts';
import { loginResult } from '../../test/session-info.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { fallAlarmRecord } from '../../test/alarm-record.ts';
import {
  dialogButton,
  formErrors,
  installFakeApi,
  lastJson,
  page,
  requestsTo,
  type FakeApi,
} from '../devices/test-server.ts';
import { HandleAlarmDialog } from './HandleAlarmDialog.tsx';

vi.setConfig({ testTimeout: 60_000 });

// Issue 29, point 6: two consoles had the same alarm's dialog open; one handled it, the other
// learned of it only by a refusal after choosing a reason, and lost what had been typed.

/** A WebSocket the test plays the server of. */
class FakeWebSocket {
  static readonly OPEN = 1;
  static opened: FakeWebSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.opened.push(this);
    setTimeout(() => {
      this.readyState = 1;
      this.onopen?.();
    }, 0);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = 3;
  }
  say(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

const RELIEVE = '/alarmLog/relieveAlert';
const ADD_NOTE = '/alarmLog/addNote';
const DEAL_STATUS = '/alarm/dealStatus';
const NOW = Math.floor(Date.now() / 1000);

const FALL = fallAlarmRecord(11, { timeStamp: NOW - 120, lastTime: NOW - 120, voiceWay: 0 });
/** The same alarm as another console left it: handled by a caregiver a minute ago. */
const HANDLED: AlarmRecord = {
  ...FALL,
  isRelieve: true,
  status: 0,
  releaseKind: 1,
  relieveReason: 'CHECKED',
  dealResult: 'NO_ABNORMALITY',
  handlerName: 'Chen Jing',
  dealTime: NOW - 60,
  remark: 'Helped back to bed',
};
const released = (record: AlarmRecord): RelieveNotice => ({
  ...record,
  alertType: 'RELIVE_ALERT',
  relievedType: record.alertType,
});
const at = (seconds: number) => dayjs.unix(seconds).format('HH:mm');

let fake: FakeApi;
let i18n: I18n;
const realFetch = globalThis.fetch;
const realWebSocket = globalThis.WebSocket;
const onDone = vi.fn();
const onClose = vi.fn();
beforeAll(async () => {
  i18n = await englishI18n();
});
afterAll(() => {
  globalThis.fetch = realFetch;
  globalThis.WebSocket = realWebSocket;
});
beforeEach(() => {
  fake = installFakeApi();
  fake.routes.set('/alarmLog/unDeal', () => ({ data: page([FALL]) }));
  FakeWebSocket.opened = [];
  globalThis.WebSocket = FakeWebSocket as unknown as typeof WebSocket;
  onDone.mockClear();
  onClose.mockClear();
  sessionStore.signIn(
    loginResult({ role: 'TWO_ROLE', key: 'socket-key', menuList: ['RealTime', 'alarm'], providerId: 7 }),
  );
});
afterEach(() => {
  sessionStore.reset();
  window.localStorage.clear();
});

/** The dialog open on a console whose live socket is logged in; answers that socket. */
const openDialog = async (alarm: AlarmRecord = FALL) => {
  render(
    inTestShell(
      i18n,
      <LiveAlarms>
        <HandleAlarmDialog alarm={alarm} onDone={onDone} onClose={onClose} />
      </LiveAlarms>,
    ),
  );
  await waitFor(() => expect(FakeWebSocket.opened).toHaveLength(1));
  const ws = FakeWebSocket.opened[0] as FakeWebSocket;
  act(() => ws.say({ path: '/login', code: 200 }));
  const form = await screen.findByTestId('alarm-handle-form');
  return { ws, form: within(form) };
};
const details = () => screen.getByTestId('alarm-handle-details');
const type = (text: string) => fireEvent.change(details(), { target: { value: text } });

describe('The handle dialog while another terminal handles the alarm', () => {
  it('says at once who handled it, when and how, disables Handle, and adds what was typed to the timeline', async () => {
    fake.routes.set(ADD_NOTE, () => ({
      data: { at: NOW, step: 'note', who: 'nurse02', detail: { note: 'Gave her water' } },
    }));
    const { ws, form } = await openDialog();
    fireEvent.click(form.getByText('Checked on site'));
    type('  Gave her water  ');
    expect(screen.queryByTestId('alarm-handled-elsewhere')).not.toBeInTheDocument();

    // Another console handles it: the socket's release reaches this one.
    act(() => ws.say({ path: '/userStatusNotify', data: released(HANDLED) }));
    const notice = await screen.findByTestId('alarm-handled-elsewhere');
    expect(within(notice).getByTestId('alarm-handled-by')).toHaveTextContent(
      `Handled by Chen Jing at ${at(NOW - 60)}: Checked on site · No abnormality · Helped back to bed`,
    );
    expect(notice).toHaveTextContent('This alarm was handled elsewhere');
    const handle = await dialogButton('Handle');
    expect(handle).toBeDisabled();
    await expectRefusal(handle, 'Already handled elsewhere: an alarm is handled once.');
    // The reason can no longer be chosen; what was typed stays, and can still be changed.
    expect(form.getByLabelText('Checked on site')).toBeDisabled();
    expect(details()).not.toBeDisabled();
    expect(details()).toHaveValue('  Gave her water  ');

    fireEvent.click(screen.getByTestId('alarm-add-note'));
    await waitFor(() => expect(lastJson(fake, ADD_NOTE)).toEqual({ id: 11, note: 'Gave her water' }));
    expect(await screen.findByText('Your note is on the alarm’s timeline.')).toBeInTheDocument();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requestsTo(fake, RELIEVE)).toHaveLength(0);
  });

  it('offers no empty note, and shows the server’s refusal of a note on Details', async () => {
    fake.routes.set(ADD_NOTE, () => ({
      status: 400,
      msgKey: 'validation.maxLength',
      field: 'note',
      msg: 'Note must be at most 200 characters.',
    }));
    const { ws } = await openDialog();
    act(() => ws.say({ path: '/userStatusNotify', data: released(HANDLED) }));
    await screen.findByTestId('alarm-handled-elsewhere');
    const add = screen.getByTestId('alarm-add-note');
    expect(add).toBeDisabled();
    await expectRefusal(add, 'Write your note under Details first.');

    type('Called her daughter');
    await waitFor(() => expect(screen.getByTestId('alarm-add-note')).not.toBeDisabled());
    fireEvent.click(screen.getByTestId('alarm-add-note'));
    await waitFor(() => expect(formErrors()).toContain('Note must be at most 200 characters.'));
    expect(onClose).not.toHaveBeenCalled();
  });

  it('names a release at a nurse watch, at the device, or the condition clearing by itself', async () => {
    const { ws } = await openDialog();
    act(() =>
      ws.say({
        path: '/userStatusNotify',
        data: released({ ...FALL, isRelieve: true, status: 0, releaseKind: 4, dealTime: NOW - 30 }),
      }),
    );
    expect(await screen.findByTestId('alarm-handled-by')).toHaveTextContent(
      `Released at a nurse watch at ${at(NOW - 30)}`,
    );
    act(() =>
      ws.say({
        path: '/userStatusNotify',
        data: released({ ...FALL, isRelieve: true, status: 0, releaseKind: 3, dealTime: NOW - 20 }),
      }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('alarm-handled-by')).toHaveTextContent(`Released at the device at ${at(NOW - 20)}`),
    );
    // A level 2 alarm that does not latch is done once its condition clears.
    act(() =>
      ws.say({
        path: '/userStatusNotify',
        data: released({ ...FALL, alertLevel: 2, isRelieve: true, releaseKind: 2, clearedTime: NOW, dealTime: NOW }),
      }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('alarm-handled-by')).toHaveTextContent(`Cleared by itself at ${at(NOW)}`),
    );
  });

  it('stays open for handling when the condition cleared by itself but the alarm latches', async () => {
    const { ws } = await openDialog();
    act(() =>
      ws.say({
        path: '/userStatusNotify',
        data: released({ ...FALL, isRelieve: true, releaseKind: 2, awaitingAck: true, clearedTime: NOW - 10 }),
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('alarm-handled-elsewhere')).not.toBeInTheDocument();
    expect(await dialogButton('Handle')).not.toBeDisabled();
    expect(screen.queryByTestId('alarm-add-note')).not.toBeInTheDocument();
  });

  it('when the server refuses the handling as done elsewhere, asks how, says so, and keeps what was typed', async () => {
    fake.routes.set(RELIEVE, () => ({
      status: 300,
      msgKey: 'alarm.handledElsewhere',
      msg: 'This alarm has already been handled on another terminal.',
    }));
    fake.routes.set(DEAL_STATUS, () => ({ data: HANDLED }));
    const { form } = await openDialog();
    fireEvent.click(form.getByText('Checked on site'));
    type('Gave her water');
    fireEvent.click(await dialogButton('Handle'));
    expect(await screen.findByText('This alarm has already been handled on another terminal.')).toBeInTheDocument();
    expect(await screen.findByTestId('alarm-handled-by')).toHaveTextContent(`Handled by Chen Jing at ${at(NOW - 60)}`);
    expect(lastJson(fake, DEAL_STATUS)).toEqual({ id: 11 });
    expect(onDone).toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect(details()).toHaveValue('Gave her water');
    expect(await dialogButton('Handle')).toBeDisabled();
  });
});
