import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { dailyReport, dailyReportPageList, timePeriod } from '@vigil/contract/browser';
import { describe, expect, it, vi } from 'vitest';
import { okFor, pageOf } from '../../test/typed-answers.ts';
import { choose, lastJson, lastQuery, requestsTo, type FakeApi } from '../devices/test-server.ts';
import DailyReportListPage from './DailyReportListPage.tsx';
import { addDays, today } from './report-format.ts';
import { period, report, RESIDENT, row, summary, unscored } from './test-fixtures.ts';
import { setUpReportScreens } from './test-support.tsx';
import { reportView } from './view-state.ts';

// Whole screens with tables and charts: slow on a shared 2-core machine under load.
vi.setConfig({ testTimeout: 120_000 });
const LIST = '/report/getDailyReportPageList';
const REPORT = '/report/getDailyReport';
const PERIOD = '/report/getTimePeriod';

const SCORED = row(summary('2026-03-09'));
const NO_DATA = row(unscored('2026-03-08', 'noData'));
const BEING_MADE = row(summary('2026-03-10', { state: 'computing', score: null, riskGrade: null }));

let fake: FakeApi;
const { renderPage, renderWithLocation } = setUpReportScreens({
  routes: (api) => {
    fake = api;
    fake.routes.set(LIST, () => okFor(dailyReportPageList, pageOf([BEING_MADE, SCORED, NO_DATA], 45)));
    fake.routes.set(PERIOD, () => okFor(timePeriod, period()));
    fake.routes.set(REPORT, () => okFor(dailyReport, report()));
  },
});

const show = async (path = '/sleep-report/index?userId=5') => {
  renderWithLocation(<DailyReportListPage />, path);
  await screen.findByText('2026-03-09');
};
const rowOf = (night: string) => within(screen.getByText(night).closest('tr') as HTMLElement);
const chooseLi = () =>
  reportView.choose({
    userId: 5,
    userName: 'Li Wei',
    gender: '1',
    age: 86,
    bunk: '1',
    room: '203',
    floorArea: 'Building A / Floor 2',
  });

describe('Daily reports (/sleep-report/index?userId=N)', () => {
  it('lists the resident’s last 30 nights under the resident chosen in the report list', async () => {
    chooseLi();
    await show();
    const end = today();
    expect(lastJson(fake, LIST)).toEqual({
      pageNum: 1,
      pageSize: 10,
      userId: 5,
      startDate: addDays(end, -29),
      endDate: end,
    });
    const banner = within(screen.getByTestId('report-resident'));
    expect(banner.getByText('Li Wei')).toBeInTheDocument();
    expect(banner.getByText('Female · 86 years · Building A / Floor 2 · 203 · 1')).toBeInTheDocument();
    // The chosen resident is enough: nothing is asked to name them.
    expect(requestsTo(fake, REPORT)).toHaveLength(0);

    const scored = rowOf('2026-03-09');
    for (const text of ['Ready', '78', '7 h 32 min', '83%', '20%', '7.2', '58 bpm']) {
      expect(scored.getByText(text)).toBeInTheDocument();
    }
    expect(scored.getByText('Medium risk')).toHaveClass('ant-tag-orange');
  });

  it('shows a night without a score with its reason and dashes, never zeros', async () => {
    chooseLi();
    await show();
    const noData = rowOf('2026-03-08');
    expect(noData.getByText('No data')).toHaveAttribute('title', 'No data from the sleep monitor this night');
    expect(noData.getAllByText('—')).toHaveLength(5);
    expect(noData.queryByText(/^0/)).toBeNull();
    const beingMade = rowOf('2026-03-10');
    expect(beingMade.getAllByText('Being made')).toHaveLength(1);
    expect(beingMade.getAllByText('—')).toHaveLength(6);
  });

  it('filters by risk grade and range, starting again at page 1', async () => {
    chooseLi();
    await show();
    fireEvent.click(await screen.findByTitle('2'));
    await waitFor(() => expect(lastJson(fake, LIST)).toMatchObject({ pageNum: 2 }));
    expect(reportView.get().selectedReportListPage).toBe(2);

    await choose('daily-filter-risk', 'High risk');
    await waitFor(() => expect(lastJson(fake, LIST)).toMatchObject({ pageNum: 1, riskGrade: 'high' }));

    const [from, to] = screen.getAllByTestId('daily-filter-range');
    if (!from || !to) throw new Error('no range inputs');
    fireEvent.mouseDown(from);
    fireEvent.change(from, { target: { value: '2026-02-01' } });
    fireEvent.keyDown(from, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.change(to, { target: { value: '2026-02-28' } });
    fireEvent.keyDown(to, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(lastJson(fake, LIST)).toEqual({
        pageNum: 1,
        pageSize: 10,
        userId: 5,
        startDate: '2026-02-01',
        endDate: '2026-02-28',
        riskGrade: 'high',
      }),
    );
  });

  it('opens a night’s report from its row, and the month from the header', async () => {
    chooseLi();
    await show();
    fireEvent.click(rowOf('2026-03-09').getByText('83%'));
    expect(screen.getByTestId('location')).toHaveTextContent(
      /^\/sleep-report\/dailyDetails\/reportDetails\?userId=5&date=2026-03-09$/,
    );
    fireEvent.click(screen.getByTestId('open-month'));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/sleep-report\/monthDetails\?userId=5$/);
  });

  it('after a reload, names the resident from their latest report', async () => {
    await show();
    await waitFor(() => expect(lastQuery(fake, REPORT)).toEqual({ userId: '5', date: '2026-03-09' }));
    expect(lastQuery(fake, PERIOD)).toEqual({ userId: '5' });
    const banner = within(screen.getByTestId('report-resident'));
    expect(await banner.findByText(RESIDENT.userName)).toBeInTheDocument();
    expect(banner.getByText(/Provider: Sunrise Care/)).toBeInTheDocument();
  });

  it('says so when no resident is chosen', async () => {
    renderPage(<DailyReportListPage />, '/sleep-report/index?userId=abc');
    expect(await screen.findByText('No resident chosen')).toBeInTheDocument();
    expect(requestsTo(fake, LIST)).toHaveLength(0);
  });
});
