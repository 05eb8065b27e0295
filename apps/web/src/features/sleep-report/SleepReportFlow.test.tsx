import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  dailyReport,
  dailyReportData,
  dailyReportPageList,
  getAreaWithRoomList,
  monthReport,
  monthReportTimes,
  sleepReportUserList,
  timePeriod,
} from '@vigil/contract/browser';
import { App as AntApp, Spin } from 'antd';
import type { i18n as I18n } from 'i18next';
import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { consolePages } from '../../pages.tsx';
import { sessionStore } from '../../shared/session/session-store.ts';
import { installFakeCanvas } from '../../test/fake-canvas.ts';
import { englishI18n } from '../../test/render.tsx';
import { okFor, pageOf } from '../../test/typed-answers.ts';
import { installFakeApi, lastJson, signInAs, type FakeApi } from '../devices/test-server.ts';
import { month, period, report, reportData, reportUser, row, summary } from './test-fixtures.ts';
import { INITIAL_VIEW, reportView } from './view-state.ts';

// Whole screens with tables and charts: slow on a shared 2-core machine under load.
vi.setConfig({ testTimeout: 120_000 });
const LIST = '/sleepReport/userList';
const DAILY = '/report/getDailyReportPageList';
const SLEEP_REPORT_SCREENS = ['SleepReport', 'dailyReportList', 'dailyReportDetails', 'monthReport'];

/** A button by its text (getByRole is slow on tables this size under load). */
const buttonIn = (scope: Pick<typeof screen, 'getByText'>, text: string) =>
  scope.getByText(text).closest('button') as HTMLButtonElement;

let fake: FakeApi;
let i18n: I18n;
let restoreCanvas: () => void;
const realFetch = globalThis.fetch;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  reportView.reset();
  fake = installFakeApi();
  fake.routes.set(LIST, () => okFor(sleepReportUserList, pageOf([reportUser()], 25)));
  fake.routes.set('/area/getAreaWithRoomList', () => okFor(getAreaWithRoomList, []));
  fake.routes.set(DAILY, () => okFor(dailyReportPageList, pageOf([row(summary('2026-03-09'))], 45)));
  fake.routes.set('/report/getDailyReport', () => okFor(dailyReport, report()));
  fake.routes.set('/report/getDailyReportData', () => okFor(dailyReportData, reportData()));
  fake.routes.set('/report/getTimePeriod', () => okFor(timePeriod, period()));
  fake.routes.set('/report/getMonthReportTimes', () => okFor(monthReportTimes, ['2026-03']));
  fake.routes.set('/report/getMonthReport', () =>
    okFor(
      monthReport,
      month({ nights: Array.from({ length: 15 }, (_, i) => summary(`2026-03-${String(i + 1).padStart(2, '0')}`)) }),
    ),
  );
  restoreCanvas = installFakeCanvas();
  signInAs('CARER');
});
afterEach(() => {
  cleanup();
  restoreCanvas();
  globalThis.fetch = realFetch;
  sessionStore.reset();
});

/**
 * The four screens as the console registers them (pages.tsx), in a browser router, beside a
 * screen of another menu entry: the state must follow real navigation, back included.
 */
const showConsole = async () => {
  window.history.replaceState(null, '', '/sleep-report/reportList');
  const router = createBrowserRouter([
    ...consolePages
      .filter(({ route }) => SLEEP_REPORT_SCREENS.includes(route.name))
      .map(({ route, Page }) => ({
        path: route.path,
        element: <Suspense fallback={<Spin />}>{<Page />}</Suspense>,
      })),
    { path: '/realMonitor/index', element: <div data-testid="elsewhere" /> },
  ]);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <I18nextProvider i18n={i18n}>
        <AntApp>
          <RouterProvider router={router} />
        </AntApp>
      </I18nextProvider>
    </QueryClientProvider>,
  );
  await screen.findByText('Li Wei', {}, { timeout: 15_000 });
  return router;
};
const activePage = (container: HTMLElement) =>
  container.querySelector('.ant-pagination-item-active')?.getAttribute('title') ?? null;
const go = (router: ReturnType<typeof createBrowserRouter>, to: string | number) =>
  act(async () => {
    await (typeof to === 'number' ? router.navigate(to) : router.navigate(to));
  });

describe('Moving between the sleep-report screens', () => {
  it('keeps the chosen resident and every page there and back, and starts afresh after another menu entry', async () => {
    const router = await showConsole();
    fireEvent.click(await screen.findByTitle('2'));
    await waitFor(() => expect(lastJson(fake, LIST)).toMatchObject({ pageNum: 2 }));

    // List → daily list (page 3) → a night → back → back.
    fireEvent.click(buttonIn(screen, 'Daily reports'));
    const daily = await screen.findByTestId('daily-report-list', {}, { timeout: 15_000 });
    await within(daily).findByText('2026-03-09');
    fireEvent.click(within(daily).getByTitle('3'));
    await waitFor(() => expect(lastJson(fake, DAILY)).toMatchObject({ userId: 5, pageNum: 3 }));
    fireEvent.click(within(daily).getByText('83%'));
    expect(await screen.findByTestId('daily-report', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/sleep-report/dailyDetails/reportDetails');
    expect(within(screen.getByTestId('report-resident')).getByText('Li Wei')).toBeInTheDocument();

    await go(router, -1);
    const back = await screen.findByTestId('daily-report-list');
    await waitFor(() => expect(activePage(back)).toBe('3'));
    expect(lastJson(fake, DAILY)).toMatchObject({ userId: 5, pageNum: 3 });
    expect(within(back).getByTestId('report-resident')).toHaveTextContent('Li Wei');

    await go(router, -1);
    const list = await screen.findByTestId('sleep-report-list');
    await waitFor(() => expect(activePage(list)).toBe('2'));
    expect(lastJson(fake, LIST)).toMatchObject({ pageNum: 2 });

    // List → month (page 2 of its nights) → a night → back.
    fireEvent.click(buttonIn(within(list), 'Monthly report'));
    const nights = await screen.findByTestId('month-nights', {}, { timeout: 15_000 });
    fireEvent.click(within(nights).getByTitle('2'));
    fireEvent.click(await within(nights).findByText('2026-03-12'));
    await screen.findByTestId('daily-report', {}, { timeout: 15_000 });
    await go(router, -1);
    await waitFor(() => expect(activePage(screen.getByTestId('month-nights'))).toBe('2'));
    expect(reportView.get()).toMatchObject({ selectedUserPage: 2, selectedReportListPage: 3, selectedReportPage: 2 });

    // Another menu entry: everything starts afresh, also when the user comes back.
    await go(router, '/realMonitor/index');
    await screen.findByTestId('elsewhere');
    expect(reportView.get()).toEqual(INITIAL_VIEW);
    await go(router, '/sleep-report/reportList');
    const again = await screen.findByTestId('sleep-report-list');
    await waitFor(() => expect(activePage(again)).toBe('1'));
    expect(lastJson(fake, LIST)).toMatchObject({ pageNum: 1 });
  });
});
