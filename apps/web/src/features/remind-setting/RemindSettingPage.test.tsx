import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  defaultAlarmLevels,
  queryAlertLevel,
  saveAlertLevel,
  type AlarmType,
  type AlertLevelSettings,
  type EndpointRequest,
} from '@vigil/contract/browser';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadForFrame } from '../../shared/api/use-call.ts';
import { dirtyForms } from '../../shared/ui/dirty-forms.ts';
import { checkFakeAnswer } from '../../test/contract-fakes.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import RemindSettingPage from './RemindSettingPage.tsx';
import { expectRefusal } from '../../test/refusal.ts';

type SaveBody = EndpointRequest<typeof saveAlertLevel>;

/** A provider that moved SOS to level 2 and CONNECTION to level 1, turned level 1 popups off and gave level 2 the tick. */
const stored = (): AlertLevelSettings => ({
  providerId: 7,
  alertTypeL1: { pc: false, globalVoiceWay: 3, latch: true, snoozeMinutes: 10 },
  alertTypeL2: { pc: true, globalVoiceWay: 1, latch: false, snoozeMinutes: 30 },
  levelMap: { ...defaultAlarmLevels(), SOS: 2, CONNECTION: 1 },
  voiceFlag: true,
});

/** What the fake server holds, and how it answers a save when a test says so. */
const state = {
  settings: stored(),
  refuseSave: null as null | { status: number; msg: string },
  refuseQuery: null as null | { status: number; msg: string },
};

const envelope = (path: string, data: unknown, status = 200, msg = 'ok') => {
  // A fake answers only what the real server may: checked against the contract's call.
  checkFakeAnswer(path, { status, data });
  return new Response(JSON.stringify({ status, msg, data }), { status: 200 });
};

const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
  const path = new URL(url, 'http://localhost').pathname;
  if (path === queryAlertLevel.path) {
    if (state.refuseQuery) return envelope(path, null, state.refuseQuery.status, state.refuseQuery.msg);
    return envelope(path, structuredClone(state.settings));
  }
  if (path === saveAlertLevel.path) {
    if (state.refuseSave) return envelope(path, null, state.refuseSave.status, state.refuseSave.msg);
    const body = JSON.parse(String(init?.body)) as SaveBody;
    const { settings } = state;
    state.settings = {
      ...settings,
      alertTypeL1: (body.alertTypeL1 as AlertLevelSettings['alertTypeL1'] | undefined) ?? settings.alertTypeL1,
      alertTypeL2: (body.alertTypeL2 as AlertLevelSettings['alertTypeL2'] | undefined) ?? settings.alertTypeL2,
      levelMap: { ...settings.levelMap, ...body.levelMap },
    };
    return envelope(path, structuredClone(state.settings));
  }
  throw new Error(`unexpected call ${path}`);
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
  state.settings = stored();
  state.refuseSave = null;
  state.refuseQuery = null;
  fetchMock.mockClear();
});

const requestsTo = (path: string) =>
  fetchMock.mock.calls.filter(([url]) => new URL(url, 'http://localhost').pathname === path);
const saveBodies = () => requestsTo(saveAlertLevel.path).map(([, init]) => JSON.parse(String(init?.body)) as unknown);

/** The page's query client, so a test can do what the live socket does when another console saves. */
let queryClient: QueryClient;
const ClientProbe = () => {
  queryClient = useQueryClient();
  return null;
};

const renderPage = () =>
  render(
    inTestShell(
      i18n,
      <>
        <RemindSettingPage />
        <ClientProbe />
      </>,
    ),
  );
const show = async () => {
  renderPage();
  await screen.findByTestId('remind-form');
};

const typeRow = (type: AlarmType): HTMLElement => {
  const row = document.querySelector<HTMLElement>(`tr[data-row-key="${type}"]`);
  if (!row) throw new Error(`no row for ${type}`);
  return row;
};
const levelRadio = (type: AlarmType, level: 1 | 2) =>
  within(typeRow(type)).getByRole('radio', { name: `Level ${level}` });
const levelCard = (level: 1 | 2) => screen.getByTestId(`remind-level-${level}`);
const voiceRadio = (level: 1 | 2, label: string) =>
  within(levelCard(level)).getByRole('radio', { name: new RegExp(`^${label}`) });
const popupSwitch = (level: 1 | 2) =>
  within(levelCard(level)).getByRole('switch', { name: 'Pop up on the web console' });
const saveButton = () => screen.getByTestId('remind-save');

describe('RemindSettingPage', () => {
  it("shows each type's level, grouped by source, and each level's popup and voice way", async () => {
    await show();
    expect(levelRadio('FALL', 1)).toBeChecked();
    expect(levelRadio('LEAVE_BED', 2)).toBeChecked();
    expect(levelRadio('SOS', 2)).toBeChecked();
    expect(levelRadio('CONNECTION', 1)).toBeChecked();
    expect(document.querySelectorAll('tr[data-row-key]')).toHaveLength(22);
    expect(within(typeRow('LEAVE_BED')).getByText('Left the bed')).toBeInTheDocument();
    for (const source of ['Sleep monitor', 'Fall radar', 'Calls', 'Security sensors', 'Device faults']) {
      expect(within(screen.getByTestId('remind-types')).getByText(source)).toBeInTheDocument();
    }

    expect(within(levelCard(1)).getByText('Level 1 alarms')).toBeInTheDocument();
    expect(within(levelCard(2)).getByText('Level 2 alarms')).toBeInTheDocument();
    // The spec's red and orange.
    expect(within(levelCard(1)).getByText('Level 1')).toHaveClass('ant-tag-red');
    expect(within(levelCard(2)).getByText('Level 2')).toHaveClass('ant-tag-orange');
    expect(within(levelCard(1)).getByText('Alarm types: 7')).toBeInTheDocument();
    expect(within(levelCard(2)).getByText('Alarm types: 15')).toBeInTheDocument();

    expect(popupSwitch(1)).not.toBeChecked();
    expect(popupSwitch(2)).toBeChecked();
    expect(voiceRadio(1, 'Repeated speech')).toBeChecked();
    expect(voiceRadio(2, 'Tick sound')).toBeChecked();
    expect(within(levelCard(1)).getAllByRole('radio')).toHaveLength(4);
    expect(
      within(levelCard(1)).getByText(
        'Each alarm is read aloud 5 times, then a 10 s pause, again until it is handled, for up to 60 minutes.',
      ),
    ).toBeInTheDocument();
    await expectRefusal(saveButton(), 'Nothing to save: nothing has changed.');
  });

  it('sends only what changed, says so, refreshes the settings and is clean again', async () => {
    await show();
    fireEvent.click(levelRadio('LEAVE_BED', 1));
    fireEvent.click(voiceRadio(2, 'Mute'));
    expect(await screen.findByTestId('remind-unsaved')).toBeInTheDocument();
    expect(dirtyForms.any()).toBe(true);
    await waitFor(() => expect(saveButton()).toBeEnabled());
    fireEvent.click(saveButton());

    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(saveBodies()).toEqual([
      { levelMap: { LEAVE_BED: 1 }, alertTypeL2: { pc: true, globalVoiceWay: 0, latch: false, snoozeMinutes: 30 } },
    ]);
    // The levels are read again, so the live alarms and every screen use the saved settings.
    await waitFor(() => expect(requestsTo(queryAlertLevel.path)).toHaveLength(2));
    expect(levelRadio('LEAVE_BED', 1)).toBeChecked();
    expect(voiceRadio(2, 'Mute')).toBeChecked();
    await waitFor(() => expect(saveButton()).toBeDisabled());
    expect(screen.queryByTestId('remind-unsaved')).not.toBeInTheDocument();
    expect(dirtyForms.any()).toBe(false);
  });

  it('restores the defaults in the form only, and Save sends their differences', async () => {
    await show();
    fireEvent.click(screen.getByTestId('remind-restore'));
    await waitFor(() => expect(levelRadio('SOS', 1)).toBeChecked());
    expect(levelRadio('CONNECTION', 2)).toBeChecked();
    expect(popupSwitch(1)).toBeChecked();
    expect(voiceRadio(2, 'Single speech')).toBeChecked();
    expect(saveBodies()).toEqual([]);
    expect(dirtyForms.any()).toBe(true);

    fireEvent.click(saveButton());
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(saveBodies()).toEqual([
      {
        levelMap: { SOS: 1, CONNECTION: 2 },
        alertTypeL1: { pc: true, globalVoiceWay: 3, latch: true, snoozeMinutes: 10 },
        alertTypeL2: { pc: true, globalVoiceWay: 2, latch: false, snoozeMinutes: 30 },
      },
    ]);
  });

  it('restoring defaults that are already stored leaves nothing to save', async () => {
    state.settings = {
      ...stored(),
      alertTypeL1: { pc: true, globalVoiceWay: 3, latch: true, snoozeMinutes: 10 },
      alertTypeL2: { pc: true, globalVoiceWay: 2, latch: false, snoozeMinutes: 30 },
      levelMap: defaultAlarmLevels(),
    };
    await show();
    fireEvent.click(screen.getByTestId('remind-restore'));
    expect(await screen.findByText('Defaults restored. Press Save to keep them.')).toBeInTheDocument();
    await waitFor(() => expect(dirtyForms.any()).toBe(false));
    expect(saveButton()).toBeDisabled();
  });

  it("shows the server's message when the save is refused and keeps the changes", async () => {
    state.refuseSave = { status: 300, msg: 'You may not change the alarm settings.' };
    await show();
    fireEvent.click(levelRadio('LEAVE_BED', 1));
    await waitFor(() => expect(saveButton()).toBeEnabled());
    fireEvent.click(saveButton());
    expect(await screen.findByText('You may not change the alarm settings.')).toBeInTheDocument();
    expect(saveBodies()).toEqual([{ levelMap: { LEAVE_BED: 1 } }]);
    expect(levelRadio('LEAVE_BED', 1)).toBeChecked();
    expect(saveButton()).toBeEnabled();
    expect(dirtyForms.any()).toBe(true);
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });

  it("shows the server's message when the settings cannot be loaded, and retries", async () => {
    state.refuseQuery = { status: 300, msg: 'Choose a provider first.' };
    renderPage();
    expect(await screen.findByText('Choose a provider first.')).toBeInTheDocument();
    expect(screen.queryByTestId('remind-form')).not.toBeInTheDocument();
    state.refuseQuery = null;
    fireEvent.click(screen.getByTestId('list-retry'));
    await screen.findByTestId('remind-form');
    expect(levelRadio('FALL', 1)).toBeChecked();
  });

  describe('when another console saves', () => {
    const otherConsoleSaves = async (change: Partial<AlertLevelSettings>) => {
      state.settings = { ...state.settings, ...change };
      // What the live socket does on /dataChange.
      await act(() => reloadForFrame(queryClient, { path: '/dataChange', data: { what: 'alarmSettings' } }));
    };

    it('an untouched form shows the new settings', async () => {
      await show();
      await otherConsoleSaves({ levelMap: { ...state.settings.levelMap, DOOR: 1 } });
      await waitFor(() => expect(levelRadio('DOOR', 1)).toBeChecked());
      expect(screen.queryByTestId('remind-newer')).not.toBeInTheDocument();
      expect(saveButton()).toBeDisabled();
    });

    it("an edited form keeps the user's changes, says so, and saves only them", async () => {
      await show();
      fireEvent.click(levelRadio('LEAVE_BED', 1));
      await otherConsoleSaves({ levelMap: { ...state.settings.levelMap, DOOR: 1 } });
      expect(await screen.findByTestId('remind-newer')).toBeInTheDocument();
      expect(levelRadio('LEAVE_BED', 1)).toBeChecked();
      expect(levelRadio('DOOR', 2)).toBeChecked();

      fireEvent.click(saveButton());
      expect(await screen.findByText('Saved')).toBeInTheDocument();
      expect(saveBodies()).toEqual([{ levelMap: { LEAVE_BED: 1 } }]);
      // The answer holds both consoles' changes.
      await waitFor(() => expect(levelRadio('DOOR', 1)).toBeChecked());
      expect(levelRadio('LEAVE_BED', 1)).toBeChecked();
      expect(screen.queryByTestId('remind-newer')).not.toBeInTheDocument();
    });

    it('an edited form can load the new settings instead', async () => {
      await show();
      fireEvent.click(levelRadio('LEAVE_BED', 1));
      await otherConsoleSaves({ levelMap: { ...state.settings.levelMap, DOOR: 1 } });
      fireEvent.click(await screen.findByTestId('remind-load-newer'));
      await waitFor(() => expect(levelRadio('DOOR', 1)).toBeChecked());
      expect(levelRadio('LEAVE_BED', 2)).toBeChecked();
      expect(screen.queryByTestId('remind-newer')).not.toBeInTheDocument();
      expect(dirtyForms.any()).toBe(false);
    });
  });
});
