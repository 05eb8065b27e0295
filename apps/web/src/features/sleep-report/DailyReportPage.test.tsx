import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { dailyReport, dailyReportData, timePeriod } from '@vigil/contract/browser';
import { getInstanceByDom } from 'echarts/core';
import { describe, expect, it, vi } from 'vitest';
import { okFor } from '../../test/typed-answers.ts';
import { expectRefusal, lastQuery, requestsTo, type FakeApi } from '../devices/test-server.ts';
import DailyReportPage from './DailyReportPage.tsx';
import { COMPUTING_POLL_MS } from './report-model.ts';
import { FIGURES, INSUFFICIENT, period, report, reportData, WINDOW_START } from './test-fixtures.ts';
import { catchPdfDownload, setUpReportScreens } from './test-support.tsx';
import { reportView } from './view-state.ts';

// Whole screens with tables and charts: slow on a shared 2-core machine under load.
vi.setConfig({ testTimeout: 120_000 });
const REPORT = '/report/getDailyReport';
const DATA = '/report/getDailyReportData';
const PERIOD = '/report/getTimePeriod';
const PDF = '/report/dailyPdf';
const PATH = '/sleep-report/dailyDetails/reportDetails?userId=5&date=2026-03-09';

let fake: FakeApi;
const { renderPage, renderWithLocation } = setUpReportScreens({
  canvas: true,
  routes: (api) => {
    fake = api;
    fake.routes.set(REPORT, () => okFor(dailyReport, report()));
    fake.routes.set(DATA, () => okFor(dailyReportData, reportData()));
    fake.routes.set(PERIOD, () => okFor(timePeriod, period()));
  },
});

const show = async (path = PATH) => {
  renderWithLocation(<DailyReportPage />, path);
  await screen.findByTestId('report-night');
};
const metric = (key: string) => screen.getByTestId(`metric-${key}`);
const metricValue = (key: string) => screen.getByTestId(`metric-${key}-value`).textContent;
type Series = { name?: string; data: unknown[]; markArea?: { data: unknown[] } }[];
const seriesOf = (testId: string) =>
  (getInstanceByDom(screen.getByTestId(testId))?.getOption() as { series: Series } | undefined)?.series;

describe('A night’s report (/sleep-report/dailyDetails/reportDetails)', () => {
  it('shows who, which night, the window analysed and when it was made, in the platform’s time zone', async () => {
    await show();
    expect(lastQuery(fake, REPORT)).toEqual({ userId: '5', date: '2026-03-09' });
    const banner = within(screen.getByTestId('report-resident'));
    expect(await banner.findByText('Li Wei')).toBeInTheDocument();
    expect(
      banner.getByText('Female · 86 years · Building A / Floor 2 · 203 · 1 · Provider: Sunrise Care'),
    ).toBeInTheDocument();
    expect(banner.getByText('Night of 2026-03-09')).toBeInTheDocument();
    expect(await banner.findByTestId('report-window')).toHaveTextContent(
      'Analysed 19:00 – 07:10 · made at 2026-03-09 07:14',
    );
  });

  it('shows the coverage, the score with its parts, the risk grade with its reasons and the night’s times', async () => {
    await show();
    expect(await screen.findByTestId('report-coverage')).toHaveTextContent(
      'Data coverage 93% of the night · valid heart signal 88% of time in bed',
    );
    expect(screen.queryByTestId('report-low-coverage')).toBeNull();
    expect(screen.getByTestId('report-score-value')).toHaveTextContent('78');
    const score = within(screen.getByTestId('report-score'));
    for (const [part, points] of [
      ['Duration', '24 / 30'],
      ['Efficiency', '17 / 20'],
      ['Depth', '16 / 20'],
      ['Continuity', '11 / 20'],
      ['Falling asleep', '10 / 10'],
    ]) {
      expect(score.getByText(part ?? '')).toBeInTheDocument();
      expect(score.getByText(points ?? '')).toBeInTheDocument();
    }
    const risk = within(screen.getByTestId('report-risk'));
    expect(risk.getByText('Medium risk')).toHaveClass('ant-tag-orange');
    expect(
      risk.getByText('Atrial fibrillation is possible: the heartbeat was irregular for part of the night.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('time-bedTime')).toHaveTextContent('21:30');
    expect(screen.getByTestId('time-sleepOnset')).toHaveTextContent('21:48');
    expect(screen.getByTestId('time-wakeTime')).toHaveTextContent('06:20');
    expect(screen.getByTestId('time-getUpTime')).toHaveTextContent('06:35');
  });

  it('explains every figure beside its value and unit', async () => {
    await show();
    await screen.findByTestId('report-metrics');
    expect(metricValue('totalSleep')).toBe('7 h 32 min');
    expect(metricValue('timeInBed')).toBe('9 h 5 min');
    expect(metricValue('efficiency')).toBe('83%');
    expect(metricValue('latency')).toBe('18 min');
    expect(metricValue('deepShare')).toBe('20%');
    expect(metricValue('continuity')).toBe('78%');
    expect(metricValue('awakenings')).toBe('3');
    expect(metricValue('wakeAfterOnset')).toBe('35 min');
    expect(metricValue('movement')).toBe('6.4/h');
    expect(metricValue('ahi')).toBe('7.2events/h');
    expect(within(metric('ahi')).getByText('mild · 54 events')).toBeInTheDocument();
    expect(
      within(metric('ahi')).getByText(/under 5 normal, 5–15 mild, 15–30 moderate, 30 or more severe/),
    ).toBeInTheDocument();
    expect(metricValue('leaveBed')).toBe('2 times');
    expect(within(metric('leaveBed')).getByText('9 min in all')).toBeInTheDocument();
    expect(metricValue('hrv')).toBe('RMSSD 28 · SDNN 41 ms');
    expect(metricValue('heart')).toBe('min 51 · avg 58 · max 84bpm');
    expect(metricValue('breath')).toBe('min 12 · avg 15 · max 19/min');
    expect(metricValue('af')).toBe('Possible');
    expect(within(metric('af')).getByText('AF in 6% of the night · longest 12 min')).toBeInTheDocument();
    expect(within(metric('af')).getByText(/A screening, not a diagnosis/)).toBeInTheDocument();
  });

  it('draws the hypnogram, the curves with apnea events and times out of bed, and the movement', async () => {
    await show();
    await waitFor(() => expect(lastQuery(fake, DATA)).toEqual({ userId: '5', date: '2026-03-09' }));
    const shares = within(await screen.findByTestId('report-stage-shares'));
    expect(shares.getByText('Deep: 90 min · 18%')).toBeInTheDocument();
    expect(shares.getByText('Awake: 35 min · 7%')).toBeInTheDocument();
    await waitFor(() => expect(seriesOf('hypnogram-chart')?.[0]?.data.length).toBeGreaterThan(10));
    expect(seriesOf('hypnogram-chart')?.[0]?.data[0]).toEqual([WINDOW_START * 1000, null]);
    const data = reportData();
    await waitFor(() => expect(seriesOf('heart-chart')?.length).toBe(3));
    const heart = seriesOf('heart-chart');
    expect(heart?.map((s) => s.name)).toEqual(['Heart rate', 'Apnea events', 'Out of bed']);
    expect(heart?.[1]?.markArea?.data).toHaveLength(data.apneaEvents.length);
    expect(heart?.[2]?.markArea?.data).toHaveLength(2);
    const breath = seriesOf('breath-chart');
    expect(breath?.map((s) => s.name)).toEqual(['Breathing rate', 'Apnea events', 'Out of bed']);
    // Gaps stay gaps: the null minutes of the fixture are drawn as null, not 0.
    for (const series of [heart?.[0], breath?.[0]]) {
      expect(series?.data.filter((p) => (p as [number, number | null])[1] === null).length).toBeGreaterThan(0);
      expect(series?.data.some((p) => (p as [number, number | null])[1] === 0)).toBe(false);
    }
    expect(seriesOf('movement-chart')?.[0]?.data).toHaveLength(data.minutes.length);
  });

  it('gives a night that cannot be scored its reason and dashes, never zeros', async () => {
    fake.routes.set(REPORT, () => okFor(dailyReport, report({ figures: INSUFFICIENT })));
    fake.routes.set(DATA, () =>
      okFor(
        dailyReportData,
        reportData({ hypnogram: Array(1460).fill(255), minutes: [], apneaEvents: [], leaveBed: [] }),
      ),
    );
    await show();
    const notice = await screen.findByTestId('report-insufficient');
    expect(notice).toHaveTextContent('Too little valid signal to score this night');
    expect(screen.getByTestId('report-coverage')).toHaveTextContent(
      'Data coverage 41% of the night · valid heart signal 12%',
    );
    expect(screen.getByTestId('report-score')).toHaveTextContent('No score this night');
    expect(screen.queryByTestId('report-score-value')).toBeNull();
    expect(screen.getByTestId('report-risk')).toHaveTextContent("No risk grade: the night's data cannot support one.");
    for (const key of ['totalSleep', 'efficiency', 'ahi', 'heart', 'hrv', 'af', 'leaveBed', 'movement']) {
      expect(metricValue(key), key).toBe('—');
    }
    expect(screen.getByTestId('time-bedTime')).toHaveTextContent('—');
    expect(within(screen.getByTestId('report-metrics')).queryByText(/\b0\b/)).toBeNull();
    await waitFor(() => expect(requestsTo(fake, DATA)).toHaveLength(1));
    expect(await screen.findByText('No curves for this night.')).toBeInTheDocument();
    expect(screen.queryByTestId('report-hypnogram')).toBeNull();
  });

  it('asks to read a thinly covered night with care', async () => {
    fake.routes.set(REPORT, () => okFor(dailyReport, report({ figures: { ...FIGURES, coverage: 0.55 } })));
    await show();
    expect(await screen.findByTestId('report-low-coverage')).toHaveTextContent(/^Read with care/);
  });

  it('says a report is being made and asks again until it is ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fake.routes.set(REPORT, () =>
        okFor(dailyReport, report({ state: 'computing', computeTime: null, figures: null })),
      );
      await show();
      expect(await screen.findByTestId('report-computing')).toHaveTextContent('This report is being made.');
      expect(within(screen.getByTestId('report-resident')).getByText('Being made')).toBeInTheDocument();
      expect(requestsTo(fake, DATA)).toHaveLength(0);
      await expectRefusal(screen.getByTestId('report-pdf'), 'The PDF can be downloaded once the report is ready.');

      const asked = requestsTo(fake, REPORT).length;
      await vi.advanceTimersByTimeAsync(COMPUTING_POLL_MS);
      await waitFor(() => expect(requestsTo(fake, REPORT).length).toBeGreaterThan(asked));
      expect(screen.getByTestId('report-computing')).toBeInTheDocument();

      fake.routes.set(REPORT, () => okFor(dailyReport, report()));
      await vi.advanceTimersByTimeAsync(COMPUTING_POLL_MS);
      expect(await screen.findByTestId('report-score-value')).toHaveTextContent('78');
      await waitFor(() => expect(requestsTo(fake, DATA)).toHaveLength(1));
      // A ready report is not asked for again.
      const done = requestsTo(fake, REPORT).length;
      await vi.advanceTimersByTimeAsync(COMPUTING_POLL_MS * 3);
      expect(requestsTo(fake, REPORT)).toHaveLength(done);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says when the report could not be made', async () => {
    fake.routes.set(REPORT, () => okFor(dailyReport, report({ state: 'failed', computeTime: null, figures: null })));
    await show();
    expect(await screen.findByTestId('report-failed')).toHaveTextContent(
      'The report of this night could not be made. It is tried again automatically.',
    );
  });

  it('says there is no report for a past night, and when the next one is due', async () => {
    fake.routes.set(REPORT, ({ url }) =>
      okFor(dailyReport, url.searchParams.get('date') === '2026-03-09' ? report() : null),
    );
    await show('/sleep-report/dailyDetails/reportDetails?userId=5&date=2026-03-05');
    const none = await screen.findByTestId('report-none');
    expect(none).toHaveTextContent('There is no report for the night of 2026-03-05.');
    await waitFor(() =>
      expect(none).toHaveTextContent('The next report is due at 2026-03-10 07:15 (sleep window 21:00–07:00).'),
    );
    // Nobody chosen (a link, a reload): the latest night's report names the resident.
    expect(await within(screen.getByTestId('report-resident')).findByText('Li Wei')).toBeInTheDocument();
    expect(lastQuery(fake, REPORT)).toEqual({ userId: '5', date: '2026-03-09' });
  });

  it('says the coming night’s report is not made yet', async () => {
    fake.routes.set(REPORT, () => okFor(dailyReport, null));
    reportView.choose({ userId: 5, userName: 'Li Wei', gender: '1', age: 86, bunk: '1', room: '203', floorArea: null });
    await show('/sleep-report/dailyDetails/reportDetails?userId=5&date=2026-03-10');
    const none = await screen.findByTestId('report-none');
    await waitFor(() => expect(none).toHaveTextContent('The report of the night of 2026-03-10 has not been made yet.'));
    // Without a report, the resident chosen in the list names the page.
    expect(within(screen.getByTestId('report-resident')).getByText('Li Wei')).toBeInTheDocument();
    await expectRefusal(screen.getByTestId('night-next'), 'The next night’s report is not made yet.');
  });

  it('steps to the previous and next night, as far as the first report and the next one due', async () => {
    await show();
    await waitFor(() => expect(screen.getByTestId('night-previous')).toBeEnabled());
    expect(screen.getByTestId('night-next')).toBeEnabled();
    fireEvent.click(screen.getByTestId('night-previous'));
    expect(screen.getByTestId('location')).toHaveTextContent(
      /^\/sleep-report\/dailyDetails\/reportDetails\?userId=5&date=2026-03-08$/,
    );
  });

  it('cannot step back before the first report', async () => {
    fake.routes.set(PERIOD, () => okFor(timePeriod, period({ firstNight: '2026-03-09' })));
    await show();
    // The window in the platform's zone: the time period has been read.
    expect(await screen.findByText(/Analysed 19:00/)).toBeInTheDocument();
    await expectRefusal(screen.getByTestId('night-previous'), 'There is no earlier report.');
    expect(screen.getByTestId('night-next')).toBeEnabled();
  });

  it('downloads the PDF in the interface language under the server’s file name', async () => {
    await show();
    await screen.findByTestId('report-score-value');
    const { saved, restore } = catchPdfDownload(fake, PDF, {
      'Content-Disposition': "attachment; filename*=UTF-8''Li%20Wei-2026-03-09.pdf",
    });
    try {
      fireEvent.click(screen.getByTestId('report-pdf'));
      await waitFor(() => expect(saved).toEqual(['Li Wei-2026-03-09.pdf']));
      expect(lastQuery(fake, PDF)).toEqual({ userId: '5', date: '2026-03-09', lang: 'en-US' });
    } finally {
      restore();
    }
  });

  it('shows the server’s refusal of the PDF', async () => {
    fake.routes.set(PDF, () => ({
      status: 400,
      msgKey: 'report.notFound',
      msg: 'There is no finished report for this night yet.',
    }));
    await show();
    await screen.findByTestId('report-score-value');
    fireEvent.click(screen.getByTestId('report-pdf'));
    expect(await screen.findByText('There is no finished report for this night yet.')).toBeInTheDocument();
  });

  it('says so when the address names no resident or night', async () => {
    renderPage(<DailyReportPage />, '/sleep-report/dailyDetails/reportDetails?userId=5&date=2026-02-30');
    expect(await screen.findByText('No resident or night chosen')).toBeInTheDocument();
    expect(requestsTo(fake, REPORT)).toHaveLength(0);
  });
});
