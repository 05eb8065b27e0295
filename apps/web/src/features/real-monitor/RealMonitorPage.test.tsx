import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { dealResultsFor, alarmDealStatus, focusUsers } from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LiveVitalsContext } from '../../shared/live/live-vitals.tsx';
import { VitalsStore } from '../../shared/live/vitals-store.ts';
import { sessionStore } from '../../shared/session/session-store.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { okFor } from '../../test/typed-answers.ts';
import { installFakeApi, lastJson, requestsTo, signInAs, type FakeApi } from '../devices/test-server.ts';
import RealMonitorPage from './RealMonitorPage.tsx';
import { liveResident, LocationProbe, vitals } from './test-fixtures.tsx';

const FOCUS = '/monitor/focusUsers';
const DELETE = '/monitor/deleteFocusUser';

const ADA = liveResident(3, { userName: 'Ada', focus: true, alertLevel: 1, pendingAlarms: 2 });
const BEN = liveResident(5, {
  userName: 'Ben',
  focus: true,
  vitals: vitals(5, { inBed: false, heartRate: 0, breathRate: null }),
});
const CLEO = liveResident(8, { userName: 'Cleo', focus: true, vitals: null });

let fake: FakeApi;
let i18n: I18n;
let store: VitalsStore;
const realFetch = globalThis.fetch;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  fake = installFakeApi();
  fake.routes.set(FOCUS, () => okFor(focusUsers, { rows: [ADA, BEN, CLEO] }));
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
        <RealMonitorPage />
        <LocationProbe />
      </LiveVitalsContext.Provider>,
      '/realMonitor/index',
    ),
  );
  return screen.findByTestId('focus-card-3');
};

describe('Real-time monitoring: focus residents (/realMonitor/index)', () => {
  it('shows a card per focus resident: bed, state, rates (a dash when not measured), movement and alarms', async () => {
    const ada = within(await show());
    expect(screen.getByText('Focus residents (3/60)')).toBeInTheDocument();
    expect(ada.getByText('Ada')).toBeInTheDocument();
    expect(ada.getByText('101 / 3')).toBeInTheDocument();
    expect(ada.getByText('In bed')).toBeInTheDocument();
    expect(ada.getByTestId('heart-rate-3')).toHaveTextContent('68');
    expect(ada.getByTestId('breath-rate-3')).toHaveTextContent('15');
    expect(ada.getByTestId('movement-3')).toHaveTextContent('Movement: still');
    expect(ada.getByTestId('alarm-badge-3')).toHaveTextContent('Level 1 · 2 open');
    expect(ada.getByTestId('alarm-badge-3')).toHaveClass('ant-tag-red');

    const ben = within(screen.getByTestId('focus-card-5'));
    expect(ben.getByText('Out of bed')).toBeInTheDocument();
    expect(ben.getByTestId('heart-rate-5')).toHaveTextContent('—');
    expect(ben.getByTestId('breath-rate-5')).toHaveTextContent('—');
    expect(ben.queryByTestId('alarm-badge-5')).toBeNull();
    expect(within(screen.getByTestId('focus-card-8')).getByText('No monitor')).toBeInTheDocument();
  });

  it('follows the residents with a monitor and shows their vitals as the socket pushes them', async () => {
    await show();
    await waitFor(() => expect(store.followed()).toEqual([3, 5]));
    act(() => store.receive([vitals(3, { heartRate: 91, breathRate: 22, move: 4, ts: 1_790_000_060 })]));
    expect(screen.getByTestId('heart-rate-3')).toHaveTextContent('91');
    expect(screen.getByTestId('breath-rate-3')).toHaveTextContent('22');
    expect(screen.getByTestId('movement-3')).toHaveTextContent('moving (4)');
    act(() => store.receive([vitals(5, { online: false, inBed: null })]));
    expect(within(screen.getByTestId('focus-card-5')).getByText('Offline')).toBeInTheDocument();
    // Restarting to install a firmware upgrade: monitoring paused, not merely offline.
    act(() => store.receive([vitals(5, { online: false, inBed: null, upgrading: true })]));
    expect(
      within(screen.getByTestId('focus-card-5')).getByText('Monitoring paused: firmware upgrade'),
    ).toBeInTheDocument();
  });

  it('removes a resident from the focus residents, and opens a resident from the card', async () => {
    fake.routes.set(DELETE, () => ({ data: null }));
    await show();
    fake.routes.set(FOCUS, () => okFor(focusUsers, { rows: [BEN, CLEO] }));
    fireEvent.click(screen.getByTestId('focus-remove-3'));
    await waitFor(() => expect(lastJson(fake, DELETE)).toEqual({ userId: 3 }));
    await waitFor(() => expect(screen.queryByTestId('focus-card-3')).toBeNull());
    expect(requestsTo(fake, FOCUS).length).toBeGreaterThanOrEqual(2);
    expect(screen.getByTestId('location')).toHaveTextContent('/realMonitor/index');

    fireEvent.click(screen.getByTestId('focus-card-5'));
    expect(screen.getByTestId('location')).toHaveTextContent('/realMonitor/resident?userId=5');
  });

  it('without focus residents, sends the user to the list of all residents to choose some', async () => {
    fake.routes.set(FOCUS, () => okFor(focusUsers, { rows: [] }));
    render(
      inTestShell(
        i18n,
        <>
          <RealMonitorPage />
          <LocationProbe />
        </>,
      ),
    );
    const empty = await screen.findByTestId('no-focus');
    fireEvent.click(within(empty).getByText('Choose focus residents'));
    expect(screen.getByTestId('location')).toHaveTextContent('/realMonitor/residentList');
  });

  // Issue 29, point 12: the bell lists pending alarms of any age; the live list holds the last hour.
  it('opens the handling of an alarm the bell names even when it is not among the live cards', async () => {
    const older = okFor(alarmDealStatus, {
      id: 42,
      alertRecordId: 42,
      type: 'sleep',
      deviceId: 'SLP-42',
      deviceType: 52,
      alertType: 'LEAVE_BED',
      status: 1,
      bunk: '3',
      floorArea: 'Building A / Floor 1',
      room: '101',
      userName: 'Zhang Min',
      userId: 9,
      alertLevel: 2,
      timeStamp: 1_790_000_000,
      lastTime: 1_790_000_000,
      count: 1,
      duration: 600,
      text: '101 3: Zhang Min has left the bed and not come back',
      voiceWay: 2,
      isRelieve: false,
      releaseKind: 0,
      relieveReason: null,
      dealResult: null,
      handlerName: null,
      dealTime: null,
      remark: null,
      speechCount: 0,
      speechStartTime: null,
      providerId: 7,
      awaitingAck: false,
      clearedTime: null,
      releaseText: null,
      measure: null,
      measureText: null,
      resultOptions: [...dealResultsFor('LEAVE_BED')],
    });
    fake.routes.set('/alarm/dealStatus', () => older);
    render(
      inTestShell(
        i18n,
        <LiveVitalsContext.Provider value={store}>
          <RealMonitorPage />
          <LocationProbe />
        </LiveVitalsContext.Provider>,
        '/realMonitor/index?handle=42',
      ),
    );
    const form = await screen.findByTestId('alarm-handle-form');
    expect(form).toBeInTheDocument();
    expect(screen.getByText('101 3: Zhang Min has left the bed and not come back')).toBeInTheDocument();
    expect(lastJson(fake, '/alarm/dealStatus')).toEqual({ id: 42 });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/realMonitor\/index$/));
  });
});
