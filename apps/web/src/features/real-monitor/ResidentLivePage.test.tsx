import { act, render, screen, waitFor, within } from '@testing-library/react';
import { residentLive, type AlarmRecord, type VitalsMinute } from '@vigil/contract/browser';
import { getInstanceByDom } from 'echarts/core';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LiveVitalsContext } from '../../shared/live/live-vitals.tsx';
import { VitalsStore } from '../../shared/live/vitals-store.ts';
import { sessionStore } from '../../shared/session/session-store.ts';
import { installFakeCanvas } from '../../test/fake-canvas.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { okFor } from '../../test/typed-answers.ts';
import { installFakeApi, lastQuery, signInAs, type FakeApi } from '../devices/test-server.ts';
import ResidentLivePage from './ResidentLivePage.tsx';
import { liveResident, vitals } from './test-fixtures.tsx';

const RESIDENT = '/monitor/resident';
const T0 = 1_790_000_000 - (1_790_000_000 % 60);

const HISTORY: VitalsMinute[] = [
  { ts: T0, heartRate: 70.4, breathRate: 15, inBedSeconds: 60 },
  { ts: T0 + 60, heartRate: null, breathRate: null, inBedSeconds: 0 },
  { ts: T0 + 120, heartRate: 72, breathRate: 16, inBedSeconds: 60 },
];
const ALARM: AlarmRecord = {
  id: 41,
  alertRecordId: 41,
  type: 'sleep',
  deviceId: 'SLP-3',
  deviceType: 52,
  alertType: 'LEAVE_BED',
  status: 0,
  bunk: '3',
  floorArea: 'Building A / Floor 1',
  room: '101',
  userName: 'Ada',
  userId: 3,
  alertLevel: 2,
  timeStamp: T0,
  lastTime: T0,
  count: 1,
  duration: 0,
  text: 'Building A / Floor 1 / 101 / 3: Ada has left the bed',
  voiceWay: 0,
  isRelieve: true,
  releaseKind: 1,
  relieveReason: 'CHECKED',
  dealResult: null,
  handlerName: 'Nurse Chen',
  dealTime: T0 + 60,
  remark: null,
  speechCount: 0,
  speechStartTime: null,
  providerId: 7,
  awaitingAck: false,
  clearedTime: null,
  releaseText: null,
  measure: null,
  measureText: null,
  resultOptions: ['NO_ABNORMALITY', 'DOCTOR_INFORMED', 'FAMILY_CONTACTED'],
};

let fake: FakeApi;
let i18n: I18n;
let store: VitalsStore;
let restoreCanvas: () => void;
const realFetch = globalThis.fetch;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  fake = installFakeApi();
  fake.routes.set(RESIDENT, () =>
    okFor(residentLive, {
      resident: liveResident(3, { userName: 'Ada', focus: true, communityName: 'Maple' }),
      devices: [
        {
          deviceId: 'SLP-3',
          deviceType: 52,
          online: true,
          battery: null,
          lastSeen: T0 + 170,
          installed: true,
          installState: 'bed',
          paired: false,
          pairState: null,
          sensorInitialised: true,
          sensorState: 'initialised',
          signal: -64,
          signalUnit: 'dBm',
        },
        {
          deviceId: 'SOS-9',
          deviceType: 20993,
          online: false,
          battery: 35,
          lastSeen: null,
          installed: false,
          installState: 'none',
          paired: false,
          pairState: null,
          sensorInitialised: false,
          sensorState: null,
          signal: null,
          signalUnit: null,
        },
      ],
      history: HISTORY,
      alarmsToday: [ALARM, { ...ALARM, id: 42, alertRecordId: 42, isRelieve: false, releaseKind: 0, alertLevel: 1 }],
      limits: { heartMin: 50, heartMax: 100, breathMin: 10, breathMax: 25 },
    }),
  );
  store = new VitalsStore();
  restoreCanvas = installFakeCanvas();
  signInAs('TWO_ROLE');
});
afterEach(() => {
  restoreCanvas();
  globalThis.fetch = realFetch;
  sessionStore.reset();
});

const show = async (path = '/realMonitor/resident?userId=3') => {
  render(
    inTestShell(
      i18n,
      <LiveVitalsContext.Provider value={store}>
        <ResidentLivePage />
      </LiveVitalsContext.Provider>,
      path,
    ),
  );
};

type SeriesData = { series: { data: [number, number | null][] }[] };
const chartData = (testId: string) =>
  (getInstanceByDom(screen.getByTestId(testId))?.getOption() as SeriesData | undefined)?.series[0]?.data;

describe('A resident, live (/realMonitor/resident?userId=N)', () => {
  it('shows the resident, the devices of the bed and today’s alarms', async () => {
    await show();
    const header = within(await screen.findByTestId('resident-header'));
    expect(lastQuery(fake, RESIDENT)).toEqual({ userId: '3' });
    expect(header.getByText('Ada')).toBeInTheDocument();
    expect(header.getByText('82 years · Building A / Floor 1 / 101 / 3 · Maple')).toBeInTheDocument();
    expect(header.getByText('In bed')).toBeInTheDocument();
    expect(header.getByTestId('focus-toggle-3')).toHaveAttribute('aria-pressed', 'true');

    const devices = within(screen.getByTestId('resident-devices'));
    const pad = within(devices.getByText('SLP-3').closest('tr') as HTMLElement);
    expect(pad.getByText('M8701W')).toBeInTheDocument();
    // Each device's state as the device list and the bed list show it (decision 0034), with units.
    const tags = (row: typeof pad) =>
      row.getAllByTestId(/^device-(online|install|pair|sensor)$/).map((tag) => tag.textContent);
    expect(tags(pad)).toEqual(['Online', 'Installed at its bed', 'Sensor initialised']);
    expect(pad.getByText('-64')).toBeInTheDocument();
    expect(devices.getByRole('columnheader', { name: 'Signal (dBm)' })).toBeInTheDocument();
    const button = within(devices.getByText('SOS-9').closest('tr') as HTMLElement);
    expect(tags(button)).toEqual(['Offline', 'Not installed']);
    expect(button.getByText('35')).toBeInTheDocument();
    expect(devices.getByRole('columnheader', { name: 'Battery (%)' })).toBeInTheDocument();

    const alarms = within(screen.getByTestId('resident-alarms'));
    const rows = alarms.getAllByText(ALARM.text).map((cell) => within(cell.closest('tr') as HTMLElement));
    expect(rows[0]?.getByText('Level 2')).toHaveClass('ant-tag-orange');
    expect(rows[0]?.getByText('Handled')).toBeInTheDocument();
    expect(rows[1]?.getByText('Level 1')).toHaveClass('ant-tag-red');
    expect(rows[1]?.getByText('Pending')).toBeInTheDocument();
  });

  it('charts the last hour’s minutes, then the live samples as they are pushed', async () => {
    await show();
    await screen.findByTestId('resident-header');
    await waitFor(() =>
      expect(chartData('heart-rate-chart')).toEqual([
        [T0 * 1000, 70.4],
        [(T0 + 60) * 1000, null],
        [(T0 + 120) * 1000, 72],
      ]),
    );
    await waitFor(() => expect(store.followed()).toEqual([3]));
    // The bed's limits from the server, shaded on each chart.
    const bandOf = (testId: string) =>
      (
        getInstanceByDom(screen.getByTestId(testId))?.getOption() as {
          series: { markArea?: { data: [{ yAxis: number }, { yAxis: number }][] } }[];
        }
      ).series[0]?.markArea?.data[0]?.map((edge) => edge.yAxis);
    expect(bandOf('heart-rate-chart')).toEqual([50, 100]);
    expect(bandOf('breath-rate-chart')).toEqual([10, 25]);

    act(() => store.receive([vitals(3, { heartRate: 80, breathRate: 18, ts: T0 + 150 })]));
    act(() => store.receive([vitals(3, { heartRate: 0, breathRate: 19, ts: T0 + 151 })]));
    // An offline notice brings no sample: it ends the line just after the last one.
    act(() => store.receive([vitals(3, { online: false, ts: T0 + 151 })]));
    act(() => store.receive([vitals(4, { heartRate: 99, ts: T0 + 152 })]));
    await waitFor(() =>
      expect(chartData('heart-rate-chart')?.slice(3)).toEqual([
        [(T0 + 150) * 1000, 80],
        [(T0 + 151) * 1000, null],
        [(T0 + 152) * 1000, null],
      ]),
    );
    expect(chartData('breath-rate-chart')?.slice(2)).toEqual([
      [(T0 + 120) * 1000, 16],
      [(T0 + 150) * 1000, 18],
      [(T0 + 151) * 1000, 19],
      [(T0 + 152) * 1000, null],
    ]);
    expect(screen.getByTestId('resident-header')).toHaveTextContent('Offline');
  });

  it('says so when no resident is chosen', async () => {
    await show('/realMonitor/resident');
    expect(await screen.findByText('No resident chosen')).toBeInTheDocument();
  });
});
