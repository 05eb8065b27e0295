import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { getAreaWithRoomList, sleepReportUserList } from '@vigil/contract/browser';
import { describe, expect, it, vi } from 'vitest';
import { okFor, pageOf } from '../../test/typed-answers.ts';
import { expectRefusal, lastJson, requestsTo, type FakeApi } from '../devices/test-server.ts';
import ReportListPage from './ReportListPage.tsx';
import { NIGHT, reportUser, summary, unscored } from './test-fixtures.ts';
import { setUpReportScreens } from './test-support.tsx';
import { reportView } from './view-state.ts';

// Whole screens with tables and charts: slow on a shared 2-core machine under load.
vi.setConfig({ testTimeout: 120_000 });
const LIST = '/sleepReport/userList';
const PLACES = '/area/getAreaWithRoomList';

const LI = reportUser();
const ZHANG = reportUser({
  userId: 6,
  userName: 'Zhang Min',
  gender: '0',
  age: 79,
  bunk: '2',
  deviceId: 'SLP-1002',
  latest: unscored('2026-03-09', 'notInBed'),
  reports: 12,
});
const NEW = reportUser({
  userId: 7,
  userName: 'Chen Jie',
  gender: null,
  age: null,
  room: null,
  bunk: null,
  floorArea: null,
  deviceId: null,
  latest: null,
  reports: 0,
});
const BEING_MADE = reportUser({
  userId: 8,
  userName: 'Wang Fang',
  latest: summary(NIGHT, { state: 'computing', score: null }),
});

/** A button by its text (getByRole is slow on tables this size under load). */
const buttonIn = (scope: Pick<typeof screen, 'getByText'>, text: string) =>
  scope.getByText(text).closest('button') as HTMLButtonElement;

let fake: FakeApi;
const { renderPage, renderWithLocation } = setUpReportScreens({
  routes: (api) => {
    fake = api;
    fake.routes.set(LIST, () => okFor(sleepReportUserList, pageOf([LI, ZHANG, NEW, BEING_MADE], 25)));
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
              name: 'Floor 2',
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
  },
});

const show = async () => {
  renderWithLocation(<ReportListPage />, '/sleep-report/reportList');
  await screen.findByText('Li Wei');
};
const rowOf = (name: string) => within(screen.getByText(name).closest('tr') as HTMLElement);

describe('Sleep reports (/sleep-report/reportList)', () => {
  it('lists each resident with their place, monitor and latest night', async () => {
    await show();
    expect(lastJson(fake, LIST)).toEqual({ pageNum: 1, pageSize: 10 });
    expect(screen.getByText('Sleep reports')).toBeInTheDocument();

    const li = rowOf('Li Wei');
    for (const text of [
      'Female · 86 years',
      'Building A / Floor 2',
      '203 · 1',
      'SLP-1001',
      NIGHT,
      '78',
      'coverage 93%',
      '37',
    ]) {
      expect(li.getByText(text)).toBeInTheDocument();
    }
    expect(li.getByText('Medium risk')).toHaveClass('ant-tag-orange');

    // A night that could not be scored gives its reason, no score, grade or coverage.
    const zhang = rowOf('Zhang Min');
    expect(zhang.getByText('Not in bed')).toHaveAttribute('title', 'The resident was not in bed this night');
    expect(zhang.queryByText(/coverage/)).toBeNull();
    expect(zhang.queryByText(/risk/)).toBeNull();

    const fresh = rowOf('Chen Jie');
    expect(fresh.getByText('No report yet — the first comes after the next wake time')).toBeInTheDocument();
    expect(fresh.getByText('No bed')).toBeInTheDocument();
    expect(fresh.getByText('None')).toBeInTheDocument();

    expect(rowOf('Wang Fang').getByText('Being made')).toBeInTheDocument();
  });

  it('offers a resident without reports only their daily list, saying why not the rest', async () => {
    await show();
    const fresh = rowOf('Chen Jie');
    expect(buttonIn(fresh, 'Daily reports')).toBeEnabled();
    const latest = buttonIn(fresh, 'Latest report');
    expect(latest).toBeDisabled();
    expect(buttonIn(fresh, 'Monthly report')).toBeDisabled();
    await expectRefusal(latest, 'This resident has no report yet.');
  });

  it('opens the daily list, the latest night and the month of a resident, remembering who was chosen', async () => {
    await show();
    fireEvent.click(buttonIn(rowOf('Li Wei'), 'Daily reports'));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/sleep-report\/index\?userId=5$/);
    expect(reportView.get().selectedUserInfo).toEqual({
      userId: 5,
      userName: 'Li Wei',
      gender: '1',
      age: 86,
      bunk: '1',
      room: '203',
      floorArea: 'Building A / Floor 2',
    });

    fireEvent.click(buttonIn(rowOf('Zhang Min'), 'Latest report'));
    expect(screen.getByTestId('location')).toHaveTextContent(
      /^\/sleep-report\/dailyDetails\/reportDetails\?userId=6&date=2026-03-09$/,
    );
    expect(reportView.get().selectedUserInfo?.userName).toBe('Zhang Min');

    fireEvent.click(buttonIn(rowOf('Li Wei'), 'Monthly report'));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/sleep-report\/monthDetails\?userId=5$/);
  });

  it('finds residents by key word and area, starting again at page 1, and keeps the page in the view state', async () => {
    await show();
    fireEvent.click(await screen.findByTitle('2'));
    await waitFor(() => expect(lastJson(fake, LIST)).toEqual({ pageNum: 2, pageSize: 10 }));
    expect(reportView.get().selectedUserPage).toBe(2);

    const search = screen.getByPlaceholderText('Resident, bed or room');
    fireEvent.change(search, { target: { value: ' 203 ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(lastJson(fake, LIST)).toEqual({ pageNum: 1, pageSize: 10, keyWord: '203' }));

    await waitFor(() => expect(requestsTo(fake, PLACES)).toHaveLength(1));
    fireEvent.mouseDown(
      screen.getByTestId('report-filter-area').querySelector('.ant-select-selector') ??
        screen.getByTestId('report-filter-area'),
    );
    fireEvent.click(await screen.findByText('Building A'));
    await waitFor(() => expect(lastJson(fake, LIST)).toEqual({ pageNum: 1, pageSize: 10, keyWord: '203', areaId: 1 }));
  });

  it('says when the filters leave nobody, and clears them', async () => {
    reportView.update({ userKeyWord: 'nobody' });
    fake.routes.set(LIST, () => okFor(sleepReportUserList, pageOf([])));
    renderPage(<ReportListPage />, '/sleep-report/reportList');
    fireEvent.click(await screen.findByTestId('list-clear-filters'));
    await waitFor(() => expect(lastJson(fake, LIST)).toEqual({ pageNum: 1, pageSize: 10 }));
  });
});
