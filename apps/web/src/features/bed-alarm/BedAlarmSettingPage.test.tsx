import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  bedAlarmSetting,
  queryNursingList,
  saveBedAlarmSetting,
  type BedAlarmRules,
  type EndpointRequest,
  type EndpointResult,
} from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { Route, Routes } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { dirtyForms } from '../../shared/ui/dirty-forms.ts';
import { checkFakeAnswer } from '../../test/contract-fakes.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { caregiverRow } from '../caregivers/test-support.ts';
import { defaultRules } from './bed-alarm-model.ts';
import BedAlarmSettingPage from './BedAlarmSettingPage.tsx';
import { expectRefusal } from '../../test/refusal.ts';

type Setting = EndpointResult<typeof bedAlarmSetting>;
type SaveBody = EndpointRequest<typeof saveBedAlarmSetting>;

const USER_ID = 7;
const SAVED_AT = '2026-05-04T08:30:00.000Z';

const PROVIDER_ID = 2;
const COMMUNITY_RECEIVERS = { receiverIds: [5], notify: ['sms' as const, 'page' as const] };
/** A resident with no rules of their own; the community's receivers apply. */
/** Where the resident lies, as the server names it. */
const PLACE = { bedId: 31, bunk: '2', room: '101', floorArea: 'Building A / 1F' };
const defaults = (): Setting => ({
  userId: USER_ID,
  userName: 'Zhang Min',
  ...PLACE,
  providerId: PROVIDER_ID,
  receiverNames: [{ id: 5, name: 'Wang Fang' }],
  rules: defaultRules(),
  custom: false,
  receivers: null,
  communityReceivers: COMMUNITY_RECEIVERS,
  updateTime: null,
});
/** A resident whose own rules switch FENCE and SMOKE off and watch the night only for leaving the bed. */
const ownRules = (): Setting => {
  const rules = defaultRules();
  return {
    userId: USER_ID,
    userName: 'Zhang Min',
    ...PLACE,
    providerId: PROVIDER_ID,
    receiverNames: [{ id: 5, name: 'Wang Fang' }],
    receivers: null,
    communityReceivers: COMMUNITY_RECEIVERS,
    rules: {
      ...rules,
      off: ['SMOKE', 'FENCE'],
      ranges: { ...rules.ranges, LEAVE_BED: { start: '21:00', end: '07:00' } },
      breathMax: 26,
    },
    custom: true,
    updateTime: SAVED_AT,
  };
};

interface Refusal {
  status: number;
  msg: string;
  msgKey?: string;
  field?: string;
}

/** What the fake server holds, and how it answers a save when a test says so. */
const state = {
  setting: defaults(),
  refuseSave: null as null | Refusal,
};

const envelope = (path: string, data: unknown, refusal?: Refusal) => {
  const body = refusal ? { ...refusal, data: null } : { status: 200, msg: 'ok', data };
  // A fake answers only what the real server may: checked against the contract's call.
  checkFakeAnswer(path, body);
  return new Response(JSON.stringify(body), { status: 200 });
};

const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
  const { pathname, searchParams } = new URL(url, 'http://localhost');
  if (pathname === bedAlarmSetting.path) {
    expect(searchParams.get('userId')).toBe(String(USER_ID));
    return envelope(pathname, structuredClone(state.setting));
  }
  if (pathname === saveBedAlarmSetting.path) {
    if (state.refuseSave) return envelope(pathname, null, state.refuseSave);
    const body = JSON.parse(String(init?.body)) as SaveBody;
    const kept = state.setting;
    if (body.rules !== undefined)
      state.setting = body.rules
        ? { ...kept, rules: body.rules as BedAlarmRules, custom: true, updateTime: SAVED_AT }
        : { ...kept, rules: defaultRules(), custom: false };
    if (body.receivers !== undefined) state.setting = { ...state.setting, receivers: body.receivers };
    state.setting.updateTime = state.setting.custom || state.setting.receivers ? SAVED_AT : null;
    return envelope(pathname, null);
  }
  if (pathname === queryNursingList.path) {
    const rows = [
      caregiverRow({ id: 5, name: 'Wang Fang' }),
      caregiverRow({ id: 6, name: 'Night Nurse', phone: '13900000006' }),
    ];
    return envelope(pathname, { rows, total: rows.length, pageNum: 1, pageSize: 1000 });
  }
  throw new Error(`unexpected call ${pathname}`);
});

const realFetch = globalThis.fetch;
let i18n: I18n;
beforeAll(async () => {
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  i18n = await englishI18n();
});
afterAll(() => {
  globalThis.fetch = realFetch;
});
beforeEach(() => {
  state.setting = defaults();
  state.refuseSave = null;
  fetchMock.mockClear();
});

const requestsTo = (path: string) =>
  fetchMock.mock.calls.filter(([url]) => new URL(url, 'http://localhost').pathname === path);
const saveBodies = () =>
  requestsTo(saveBedAlarmSetting.path).map(([, init]) => JSON.parse(String(init?.body)) as unknown);

const renderPage = (path = `/BunkManage/alarmSetting/${USER_ID}`) =>
  render(
    inTestShell(
      i18n,
      <Routes>
        <Route path="/BunkManage/alarmSetting/:userId" element={<BedAlarmSettingPage />} />
      </Routes>,
      path,
    ),
  );
const show = async () => {
  renderPage();
  await screen.findByTestId('bed-alarm-form');
};

const watchedSwitch = (label: string) => screen.getByRole('switch', { name: label });
const durationInput = (label: string) => screen.getByLabelText(`${label}: Raised after`);
const saveButton = () => screen.getByTestId('bed-alarm-save');
const typeInto = (input: HTMLElement, value: string) => {
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};

describe('BedAlarmSettingPage', () => {
  it('shows the defaults of a resident with no rules of their own', async () => {
    await show();
    expect(screen.getByTestId('bed-alarm-state')).toHaveTextContent('Defaults');
    expect(screen.queryByTestId('bed-alarm-updated')).not.toBeInTheDocument();
    // Opened by its address (a reload, a link): the server names the resident and the bed, never an id.
    const resident = screen.getByTestId('bed-alarm-resident');
    expect(resident).toHaveTextContent('Zhang Min');
    expect(resident).toHaveTextContent('Bed: Building A / 1F / 101 / 2');
    expect(document.body.textContent).not.toMatch(/Resident ID|#\d/);
    expect(screen.getByTestId('bed-alarm-back')).toHaveAttribute('href', '/BunkManage/index');

    // The seven sleep-monitor alarms, each watched all day with its default duration.
    expect(document.querySelectorAll('tr[data-row-key]')).toHaveLength(7);
    expect(watchedSwitch('Breathing stopped')).toBeChecked();
    expect(durationInput('Left the bed')).toHaveValue('600');
    expect(screen.getByText('10 min')).toBeInTheDocument();
    expect(screen.getByTestId('range-LEAVE_BED-allDay')).toBeChecked();
    // The door watches the night; the other sensors are all watched.
    expect(screen.getByTestId('range-door-allDay')).not.toBeChecked();
    expect(within(screen.getByTestId('range-door')).getByText('past midnight')).toBeInTheDocument();
    expect(within(screen.getByTestId('bed-alarm-others')).getAllByRole('switch')).toHaveLength(14);
    expect(watchedSwitch('Smoke')).toBeChecked();
    expect(screen.getByLabelText('Breathing rate at most')).toHaveValue('30');
    expect(screen.getByRole('radio', { name: '12 h' })).toBeChecked();

    await expectRefusal(saveButton(), 'Nothing to save: nothing has changed.');
    // Nothing of their own to drop.
    await expectRefusal(
      screen.getByTestId('bed-alarm-defaults'),
      'This resident already has the default alarm settings.',
    );
    expect(requestsTo(bedAlarmSetting.path)).toHaveLength(1);
  });

  it('shows own rules with when they were saved', async () => {
    state.setting = ownRules();
    await show();
    expect(screen.getByTestId('bed-alarm-state')).toHaveTextContent('Own settings');
    expect(screen.getByTestId('bed-alarm-updated')).toHaveTextContent(/^Saved \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(watchedSwitch('Smoke')).not.toBeChecked();
    expect(screen.getByTestId('range-LEAVE_BED-allDay')).not.toBeChecked();
    expect(screen.getByTestId('bed-alarm-defaults')).toBeEnabled();
  });

  it('sends the whole rules with the changes, says so, and is clean again', async () => {
    await show();
    fireEvent.click(watchedSwitch('Breathing stopped'));
    typeInto(durationInput('Left the bed'), '60');
    expect(await screen.findByTestId('bed-alarm-unsaved')).toBeInTheDocument();
    expect(dirtyForms.any()).toBe(true);
    // An alarm not watched keeps its values, shown but not editable.
    expect(durationInput('Breathing stopped')).toBeDisabled();
    await waitFor(() => expect(saveButton()).toBeEnabled());
    fireEvent.click(saveButton());

    expect(await screen.findByText('Saved')).toBeInTheDocument();
    const rules = defaultRules();
    expect(saveBodies()).toEqual([
      {
        userId: USER_ID,
        rules: { ...rules, off: ['BREATH_STOP'], durations: { ...rules.durations, leftBedTime: 60 } },
      },
    ]);
    // The settings are read again: now the resident's own.
    await waitFor(() => expect(requestsTo(bedAlarmSetting.path)).toHaveLength(2));
    await waitFor(() => expect(screen.getByTestId('bed-alarm-state')).toHaveTextContent('Own settings'));
    expect(watchedSwitch('Breathing stopped')).not.toBeChecked();
    expect(durationInput('Left the bed')).toHaveValue('60');
    await waitFor(() => expect(saveButton()).toBeDisabled());
    expect(screen.queryByTestId('bed-alarm-unsaved')).not.toBeInTheDocument();
    expect(dirtyForms.any()).toBe(false);
  });

  it('keeps FENCE switched off (it has its own settings) when saving other changes', async () => {
    state.setting = ownRules();
    await show();
    fireEvent.click(watchedSwitch('Smoke'));
    await waitFor(() => expect(saveButton()).toBeEnabled());
    fireEvent.click(saveButton());
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(saveBodies()).toEqual([{ userId: USER_ID, rules: { ...ownRules().rules, off: ['FENCE'] } }]);
  });

  it('checks limits in the form: out of range, and the lower limit not below the upper one', async () => {
    await show();
    typeInto(screen.getByLabelText('Breathing rate at least'), '40');
    typeInto(screen.getByLabelText('Breathing rate at most'), '35');
    typeInto(durationInput('Left the bed'), '5');
    fireEvent.click(saveButton());
    expect(await screen.findByText('The lower breathing limit must be below the upper one.')).toBeInTheDocument();
    expect(await screen.findByText('Enter a whole number from 10 to 86400.')).toBeInTheDocument();
    expect(saveBodies()).toEqual([]);

    // Raising the upper limit clears its message (it depends on the lower one).
    typeInto(screen.getByLabelText('Breathing rate at most'), '45');
    await waitFor(() =>
      expect(screen.queryByText('The lower breathing limit must be below the upper one.')).not.toBeInTheDocument(),
    );
  });

  it("shows the server's message when the save is refused, and keeps the changes", async () => {
    state.refuseSave = {
      status: 400,
      msg: 'The lower breathing limit must be below the upper one.',
      msgKey: 'alarm.breathLimits',
      field: 'rules.breathMax',
    };
    await show();
    typeInto(screen.getByLabelText('Breathing rate at most'), '20');
    await waitFor(() => expect(saveButton()).toBeEnabled());
    fireEvent.click(saveButton());
    // On the field the server names.
    expect(await screen.findByText('The lower breathing limit must be below the upper one.')).toBeInTheDocument();
    expect(saveBodies()).toHaveLength(1);
    expect(screen.getByLabelText('Breathing rate at most')).toHaveValue('20');
    expect(saveButton()).toBeEnabled();
    expect(dirtyForms.any()).toBe(true);
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });

  it('"Back to defaults" asks, drops the own rules and shows the defaults', async () => {
    state.setting = ownRules();
    await show();
    fireEvent.click(screen.getByTestId('bed-alarm-defaults'));
    expect((await screen.findAllByText('Go back to the default alarm settings?')).length).toBeGreaterThan(0);
    expect(saveBodies()).toEqual([]);
    fireEvent.click(screen.getByTestId('bed-alarm-defaults-ok'));

    expect(await screen.findByText('The default alarm settings apply again.')).toBeInTheDocument();
    expect(saveBodies()).toEqual([{ userId: USER_ID, rules: null }]);
    await waitFor(() => expect(screen.getByTestId('bed-alarm-state')).toHaveTextContent('Defaults'));
    expect(watchedSwitch('Smoke')).toBeChecked();
    expect(screen.getByTestId('range-LEAVE_BED-allDay')).toBeChecked();
    expect(screen.getByTestId('bed-alarm-defaults')).toBeDisabled();
    expect(dirtyForms.any()).toBe(false);
  });

  it('"All day" sets equal ends, and unticking it brings back the hours', async () => {
    state.setting = ownRules();
    await show();
    const allDay = screen.getByTestId('range-LEAVE_BED-allDay');
    fireEvent.click(allDay);
    await waitFor(() => expect(allDay).toBeChecked());
    fireEvent.click(allDay);
    await waitFor(() => expect(allDay).not.toBeChecked());
    // Back where it was loaded: nothing to save.
    await waitFor(() => expect(saveButton()).toBeDisabled());

    fireEvent.click(allDay);
    await waitFor(() => expect(saveButton()).toBeEnabled());
    fireEvent.click(saveButton());
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    const body = saveBodies()[0] as SaveBody;
    expect(body.rules?.ranges.LEAVE_BED).toEqual({ start: '00:00', end: '00:00' });
  });

  it('says so for an address that names no resident, and asks the server nothing', async () => {
    renderPage('/BunkManage/alarmSetting/abc');
    expect(await screen.findByTestId('bed-alarm-not-found')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the community's receivers, and saves the bed's own without touching the rules", async () => {
    await show();
    const card = screen.getByTestId('bed-receivers');
    expect(
      await within(card).findByText('Community receivers: Wang Fang, by SMS, Sound in the console.'),
    ).toBeVisible();
    fireEvent.click(within(card).getByRole('radio', { name: "This bed's own" }));
    // Starts from the community's choice; sound only, for this bed.
    fireEvent.click(await within(card).findByRole('checkbox', { name: 'SMS' }));
    fireEvent.click(within(card).getByTestId('bed-receivers-save'));
    await waitFor(() =>
      expect(saveBodies()).toEqual([{ userId: USER_ID, receivers: { receiverIds: [5], notify: ['page'] } }]),
    );
    expect(
      await within(screen.getByTestId('bed-receivers')).findByRole('radio', { name: "This bed's own" }),
    ).toBeChecked();

    // Back to the community's: null, and still no rules sent.
    fireEvent.click(within(screen.getByTestId('bed-receivers')).getByRole('radio', { name: 'Same as the community' }));
    fireEvent.click(within(screen.getByTestId('bed-receivers')).getByTestId('bed-receivers-save'));
    await waitFor(() => expect(saveBodies()[1]).toEqual({ userId: USER_ID, receivers: null }));
  });

  it('names a resident in no bed, and every receiver by name even beyond the caregivers offered', async () => {
    state.setting = {
      ...defaults(),
      bedId: null,
      bunk: null,
      room: null,
      floorArea: null,
      receivers: { receiverIds: [5, 9], notify: ['page'] },
      receiverNames: [
        { id: 9, name: 'Li Na' },
        { id: 5, name: 'Wang Fang' },
      ],
    };
    await show();
    expect(screen.getByTestId('bed-alarm-resident')).toHaveTextContent('Zhang MinIn no bed');
    const people = within(screen.getByTestId('bed-receivers')).getByTestId('bed-receivers-people');
    await waitFor(() => expect(people).toHaveTextContent('Li Na'));
    expect(people).toHaveTextContent('Wang Fang');
    expect(people.textContent).not.toMatch(/\b9\b/);
  });

  it('refuses to save own receivers with no way to notify', async () => {
    await show();
    const card = screen.getByTestId('bed-receivers');
    fireEvent.click(within(card).getByRole('radio', { name: "This bed's own" }));
    fireEvent.click(await within(card).findByRole('checkbox', { name: 'SMS' }));
    fireEvent.click(within(card).getByRole('checkbox', { name: 'Sound in the console' }));
    fireEvent.click(within(card).getByTestId('bed-receivers-save'));
    expect(await within(card).findByText('Choose at least one way to notify.')).toBeVisible();
    expect(saveBodies()).toEqual([]);
  });
});
