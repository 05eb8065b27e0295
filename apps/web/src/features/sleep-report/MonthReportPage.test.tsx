import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { monthReport, monthReportTimes } from '@vigil/contract/browser';
import { getInstanceByDom, type ECElementEvent } from 'echarts/core';
import { describe, expect, it, vi } from 'vitest';
import { okFor } from '../../test/typed-answers.ts';
import { choose, lastQuery, requestsTo, type FakeApi } from '../devices/test-server.ts';
import MonthReportPage from './MonthReportPage.tsx';
import { month, summary } from './test-fixtures.ts';
import { catchPdfDownload, setUpReportScreens } from './test-support.tsx';
import { reportView } from './view-state.ts';

// Whole screens with tables and charts: slow on a shared 2-core machine under load.
vi.setConfig({ testTimeout: 120_000 });
const TIMES = '/report/getMonthReportTimes';
const MONTH = '/report/getMonthReport';
const PDF = '/report/monthPdf';

let fake: FakeApi;
const { renderPage, renderWithLocation } = setUpReportScreens({
  canvas: true,
  routes: (api) => {
    fake = api;
    fake.routes.set(TIMES, () => okFor(monthReportTimes, ['2026-03', '2026-02']));
    fake.routes.set(MONTH, ({ url }) =>
      okFor(
        monthReport,
        url.searchParams.get('month') === '2026-02'
          ? month({ month: '2026-02', nights: [summary('2026-02-27')] })
          : month(),
      ),
    );
  },
});

const show = async (path = '/sleep-report/monthDetails?userId=5') => {
  renderWithLocation(<MonthReportPage />, path);
  await screen.findByTestId('month-nights');
};
const rowOf = (night: string) => within(screen.getByText(night).closest('tr') as HTMLElement);
type Series = { name?: string; data: unknown[] }[];
const chartOf = (testId: string) => getInstanceByDom(screen.getByTestId(testId));
const seriesOf = (testId: string) => (chartOf(testId)?.getOption() as { series: Series } | undefined)?.series;

describe('Monthly report (/sleep-report/monthDetails)', () => {
  it('opens the newest month, with the nights scored, the averages and the risk grades', async () => {
    await show();
    expect(lastQuery(fake, TIMES)).toEqual({ userId: '5' });
    expect(lastQuery(fake, MONTH)).toEqual({ userId: '5', month: '2026-03' });
    expect(screen.getByTestId('month-title')).toHaveTextContent('Monthly report 2026-03');
    expect(screen.getByTestId('month-nights-count')).toHaveTextContent('Nights scored: 8 · without a score: 1');
    expect(within(screen.getByTestId('report-resident')).getByText('Li Wei')).toBeInTheDocument();

    const averages = (key: string) => screen.getByTestId(`average-${key}`);
    expect(averages('score')).toHaveTextContent('79');
    expect(averages('totalSleep')).toHaveTextContent('7 h 23 min');
    expect(averages('efficiency')).toHaveTextContent('84%');
    expect(averages('deepShare')).toHaveTextContent('19%');
    expect(averages('ahi')).toHaveTextContent('9.6 events/h');
    expect(averages('heartAvg')).toHaveTextContent('59 bpm');
    expect(averages('breathAvg')).toHaveTextContent('15.2 /min');
    expect(averages('rmssd')).toHaveTextContent('28 ms');
    expect(averages('movementPerHour')).toHaveTextContent('6.1 /h');
    expect(averages('leaveBedCount')).toHaveTextContent('1.8');

    expect(screen.getByTestId('risk-nights-low')).toHaveTextContent('Low risk: 5');
    expect(screen.getByTestId('risk-nights-medium')).toHaveTextContent('Medium risk: 3');
    expect(screen.getByTestId('risk-nights-high')).toHaveTextContent('High risk: 0');
    const reasons = within(screen.getByTestId('month-reasons'));
    expect(
      within(reasons.getByText('Atrial fibrillation possible').closest('tr') as HTMLElement).getByText('3'),
    ).toBeInTheDocument();
    expect(reasons.getByText('Poor sleep')).toBeInTheDocument();
  });

  it('averages nothing into a month without scored nights: dashes, not zeros', async () => {
    fake.routes.set(MONTH, () =>
      okFor(
        monthReport,
        month({
          scoredNights: 0,
          insufficientNights: 0,
          nights: [],
          averages: {
            score: null,
            totalSleep: null,
            efficiency: null,
            deepShare: null,
            awakenings: null,
            movementPerHour: null,
            ahi: null,
            leaveBedCount: null,
            heartAvg: null,
            breathAvg: null,
            rmssd: null,
          },
          riskNights: { low: 0, medium: 0, high: 0 },
          riskReasons: [],
        }),
      ),
    );
    await show();
    for (const key of ['score', 'totalSleep', 'efficiency', 'ahi', 'heartAvg', 'rmssd', 'leaveBedCount']) {
      expect(screen.getByTestId(`average-${key}`).textContent, key).toMatch(/—$/);
    }
    expect(screen.getByText('No risk reasons this month.')).toBeInTheDocument();
    expect(screen.queryByTestId('trend-score')).toBeNull();
  });

  it('lists the nights, a night without data with its reason, and opens a night from its row', async () => {
    await show();
    const scored = rowOf('2026-03-01');
    expect(scored.getByText(/ bpm$/)).toBeInTheDocument();
    const noData = rowOf('2026-03-04');
    expect(noData.getByText('No data')).toHaveAttribute('title', 'No data from the sleep monitor this night');
    expect(noData.getAllByText('—')).toHaveLength(4);
    fireEvent.click(noData.getByText('No data'));
    expect(screen.getByTestId('location')).toHaveTextContent(
      /^\/sleep-report\/dailyDetails\/reportDetails\?userId=5&date=2026-03-04$/,
    );
  });

  it('draws the month’s trends with gaps for nights without a score, and a point opens its night', async () => {
    await show();
    await waitFor(() => expect(seriesOf('trend-score')?.[0]?.data).toHaveLength(9));
    const scores = seriesOf('trend-score')?.[0]?.data ?? [];
    expect(scores[3]).toBeNull();
    expect(scores[0]).toBe(month().nights[0]?.score);
    expect(seriesOf('trend-vitals')?.map((s) => s.name)).toEqual(['Heart rate', 'Breathing rate']);
    const hours = seriesOf('trend-sleep')?.[0]?.data[0];
    expect(hours).toBeCloseTo((month().nights[0]?.totalSleep ?? 0) / 3600, 1);

    // jsdom draws no canvas to click on: the chart is told of the click as ECharts would tell it.
    const click = { type: 'click', componentType: 'series', seriesType: 'line', name: '2026-03-07', dataIndex: 6 };
    act(() => {
      chartOf('trend-ahi')?.trigger('click', click as unknown as ECElementEvent);
    });
    expect(screen.getByTestId('location')).toHaveTextContent(
      /^\/sleep-report\/dailyDetails\/reportDetails\?userId=5&date=2026-03-07$/,
    );
  });

  it('changes month with the picker, keeping it in the address', async () => {
    await show();
    await choose('month-pick', '2026-02');
    await waitFor(() => expect(lastQuery(fake, MONTH)).toEqual({ userId: '5', month: '2026-02' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/sleep-report\/monthDetails\?userId=5&month=2026-02$/);
    expect(await screen.findByText('2026-02-27')).toBeInTheDocument();
  });

  it('opens the month the address names', async () => {
    await show('/sleep-report/monthDetails?userId=5&month=2026-02');
    expect(lastQuery(fake, MONTH)).toEqual({ userId: '5', month: '2026-02' });
  });

  it('keeps the page of the nights table in the view state', async () => {
    fake.routes.set(MONTH, () =>
      okFor(
        monthReport,
        month({ nights: Array.from({ length: 15 }, (_, i) => summary(`2026-03-${String(i + 1).padStart(2, '0')}`)) }),
      ),
    );
    await show();
    fireEvent.click(within(screen.getByTestId('month-nights')).getByTitle('2'));
    expect(await screen.findByText('2026-03-15')).toBeInTheDocument();
    expect(reportView.get().selectedReportPage).toBe(2);
  });

  it('says when the resident has no monthly report yet', async () => {
    fake.routes.set(TIMES, () => okFor(monthReportTimes, []));
    renderPage(<MonthReportPage />, '/sleep-report/monthDetails?userId=5');
    expect(await screen.findByTestId('month-none')).toHaveTextContent(
      "No monthly report yet: the first comes with the resident's first daily report.",
    );
    expect(requestsTo(fake, MONTH)).toHaveLength(0);
  });

  it('downloads the month as PDF', async () => {
    await show();
    const { saved, restore } = catchPdfDownload(fake, PDF);
    try {
      fireEvent.click(screen.getByTestId('report-pdf'));
      // Without a name from the server, the resident's name and the month.
      await waitFor(() => expect(saved).toEqual(['Li Wei-2026-03.pdf']));
      expect(lastQuery(fake, PDF)).toEqual({ userId: '5', month: '2026-03', lang: 'en-US' });
    } finally {
      restore();
    }
  });
});
