import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { focusUsers, getAreaWithRoomList, monitorUserList, type LiveResident } from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LiveVitalsContext } from '../../shared/live/live-vitals.tsx';
import { VitalsStore } from '../../shared/live/vitals-store.ts';
import { sessionStore } from '../../shared/session/session-store.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { restoreWindowWidth, setWindowWidth } from '../../test/window-width.ts';
import { okFor, pageOf } from '../../test/typed-answers.ts';
import { choose, installFakeApi, lastJson, requestsTo, signInAs, type FakeApi } from '../devices/test-server.ts';
import ResidentListPage from './ResidentListPage.tsx';
import { liveResident, LocationProbe, vitals } from './test-fixtures.tsx';

const LIST = '/monitor/userList';
const FOCUS = '/monitor/focusUsers';
const ADD = '/monitor/addFocusUser';
const DELETE = '/monitor/deleteFocusUser';
const PLACES = '/area/getAreaWithRoomList';

const ADA = liveResident(3, { userName: 'Ada', focus: true });
const BEN = liveResident(5, { userName: 'Ben', away: true, alertLevel: 2, pendingAlarms: 1 });

let fake: FakeApi;
let i18n: I18n;
let store: VitalsStore;
let rows: LiveResident[];
const realFetch = globalThis.fetch;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  rows = [ADA, BEN];
  fake = installFakeApi();
  fake.routes.set(LIST, () => okFor(monitorUserList, { ...pageOf(rows, 75), pageSize: 50 }));
  fake.routes.set(FOCUS, () => okFor(focusUsers, { rows: rows.filter((r) => r.focus) }));
  fake.routes.set(PLACES, () =>
    okFor(getAreaWithRoomList, [
      {
        id: 1,
        name: 'Building A',
        sort: 1,
        providerId: 7,
        providerName: 'Home',
        bedCount: 4,
        occupiedCount: 2,
        deviceCount: 2,
        freeCount: 2,
        floors: [
          {
            id: 11,
            name: 'Floor 1',
            sort: 1,
            bedCount: 4,
            occupiedCount: 2,
            deviceCount: 2,
            freeCount: 2,
            rooms: [],
          },
        ],
      },
    ]),
  );
  store = new VitalsStore();
  signInAs('TWO_ROLE');
});
afterEach(() => {
  globalThis.fetch = realFetch;
  sessionStore.reset();
});

const show = async () => {
  render(
    inTestShell(
      i18n,
      <LiveVitalsContext.Provider value={store}>
        <ResidentListPage />
        <LocationProbe />
      </LiveVitalsContext.Provider>,
      '/realMonitor/residentList',
    ),
  );
  await screen.findByText('Ada');
};
const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

describe('All residents (/realMonitor/residentList)', () => {
  it('lists the residents with their live state, 50 a page, and narrows by key word and state', async () => {
    await show();
    expect(lastJson(fake, LIST)).toEqual({ pageNum: 1, pageSize: 50 });
    expect(screen.getByText('75 in total')).toBeInTheDocument();
    const ada = within(rowOf('Ada'));
    expect(ada.getByText('Building A / Floor 1 / 101 / 3')).toBeInTheDocument();
    expect(ada.getByText('In bed')).toBeInTheDocument();
    expect(ada.getByTestId('heart-rate-3')).toHaveTextContent('68');
    const ben = within(rowOf('Ben'));
    expect(ben.getAllByText('Away').length).toBeGreaterThan(0);
    expect(ben.getByTestId('alarm-badge-5')).toHaveClass('ant-tag-orange');

    const search = screen.getByPlaceholderText('Resident, bed or room');
    fireEvent.change(search, { target: { value: ' 101 ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(lastJson(fake, LIST)).toEqual({ pageNum: 1, pageSize: 50, keyWord: '101' }));
    await choose('monitor-filter-state', 'With open alarms');
    await waitFor(() =>
      expect(lastJson(fake, LIST)).toEqual({ pageNum: 1, pageSize: 50, keyWord: '101', state: 'alarm' }),
    );
  });

  it('keeps the rows live from the socket', async () => {
    await show();
    await waitFor(() => expect(store.followed()).toEqual([3, 5]));
    act(() => store.receive([vitals(3, { heartRate: 103, inBed: false })]));
    const ada = within(rowOf('Ada'));
    expect(ada.getByTestId('heart-rate-3')).toHaveTextContent('103');
    expect(ada.getByText('Out of bed')).toBeInTheDocument();
  });

  it('stars a resident as a focus resident and unstars one, then reloads the list', async () => {
    fake.routes.set(ADD, () => ({ data: null }));
    fake.routes.set(DELETE, () => ({ data: null }));
    await show();
    const before = requestsTo(fake, LIST).length;
    expect(screen.getByTestId('focus-toggle-3')).toHaveAttribute('aria-pressed', 'true');
    rows = [ADA, { ...BEN, focus: true }];
    fireEvent.click(screen.getByTestId('focus-toggle-5'));
    await waitFor(() => expect(lastJson(fake, ADD)).toEqual({ userId: 5 }));
    await waitFor(() => expect(screen.getByTestId('focus-toggle-5')).toHaveAttribute('aria-pressed', 'true'));
    expect(requestsTo(fake, LIST).length).toBeGreaterThan(before);
    // The star does not open the resident.
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/realMonitor\/residentList$/);

    fireEvent.click(screen.getByTestId('focus-toggle-3'));
    await waitFor(() => expect(lastJson(fake, DELETE)).toEqual({ userId: 3 }));
    expect(requestsTo(fake, ADD)).toHaveLength(1);
  });

  it('shows the server’s refusal of a focus resident', async () => {
    const refusal = 'You can keep at most 60 focus residents. Remove one before adding another.';
    fake.routes.set(ADD, () => ({ status: 400, msgKey: 'monitor.focusLimit', msg: refusal }));
    await show();
    fireEvent.click(screen.getByTestId('focus-toggle-5'));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(screen.getByTestId('focus-toggle-5')).toHaveAttribute('aria-pressed', 'false');
  });

  it('refuses a focus resident beyond the limit without asking the server', async () => {
    const many = Array.from({ length: 60 }, (_, i) => liveResident(100 + i, { focus: true }));
    fake.routes.set(FOCUS, () => okFor(focusUsers, { rows: many }));
    await show();
    await waitFor(() => expect(requestsTo(fake, FOCUS)).toHaveLength(1));
    fireEvent.click(screen.getByTestId('focus-toggle-5'));
    expect(await screen.findByText('At most 60 focus residents: remove one first.')).toBeInTheDocument();
    expect(requestsTo(fake, ADD)).toHaveLength(0);
  });

  it('narrows by area or floor', async () => {
    await show();
    await waitFor(() => expect(requestsTo(fake, PLACES)).toHaveLength(1));
    fireEvent.mouseDown(
      screen.getByTestId('monitor-filter-area').querySelector('.ant-select-selector') ??
        screen.getByTestId('monitor-filter-area'),
    );
    fireEvent.click(await screen.findByText('Building A'));
    await waitFor(() => expect(lastJson(fake, LIST)).toEqual({ pageNum: 1, pageSize: 50, areaId: 1 }));
  });

  it('opens a resident from the row', async () => {
    await show();
    fireEvent.click(screen.getByText('Ada'));
    expect(screen.getByTestId('location')).toHaveTextContent('/realMonitor/resident?userId=3');
  });

  it('names the unit of each rate in its header and explains the movement figure', async () => {
    await show();
    expect(screen.getByRole('columnheader', { name: /^Heart rate \(bpm\)/ })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: /^Breathing rate \(br\/min\)/ })).toBeInTheDocument();
    fireEvent.mouseEnter(screen.getAllByTestId('movement-help')[0] as HTMLElement);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      "How much the resident moved in the monitor's latest reading, from 0 (lying still) to 100 (strong movement).",
    );
  });

  it('shows each resident as a card on a phone: name and live state over the place, rates and movement', async () => {
    setWindowWidth(390);
    try {
      await show();
      const card = screen.getByText('Ada').closest('[data-testid="list-card"]') as HTMLElement;
      expect(within(card).getByText('In bed')).toBeInTheDocument();
      const line = (field: string) => card.querySelector(`[data-field="${field}"]`);
      expect(line('place')).toHaveTextContent('PlaceBuilding A / Floor 1 / 101 / 3');
      expect(line('heartRate')).toHaveTextContent('Heart rate (bpm)68');
      expect(line('move')).toHaveTextContent('Movement');
      const ben = screen.getByText('Ben').closest('[data-testid="list-card"]') as HTMLElement;
      expect(within(ben).getByTestId('alarm-badge-5')).toHaveClass('ant-tag-orange');
      // The star does not open the resident; the card does.
      fireEvent.click(within(card).getByTestId('focus-toggle-3'));
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/realMonitor\/residentList$/);
      fireEvent.click(within(card).getByText('Place'));
      expect(screen.getByTestId('location')).toHaveTextContent('/realMonitor/resident?userId=3');
    } finally {
      restoreWindowWidth();
    }
  });
});
