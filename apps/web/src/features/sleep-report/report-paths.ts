/**
 * The sleep-report screens' addresses. Who and which night or month travel in the query, so a
 * link or a reload opens the same report (as /realMonitor/resident?userId=N does).
 */

export const REPORT_LIST_PATH = '/sleep-report/reportList';
export const DAILY_LIST_PATH = '/sleep-report/index';
export const DAILY_DETAIL_PATH = '/sleep-report/dailyDetails/reportDetails';
export const MONTH_PATH = '/sleep-report/monthDetails';

const SCREENS = [REPORT_LIST_PATH, DAILY_LIST_PATH, DAILY_DETAIL_PATH, MONTH_PATH];

/**
 * Whether a path is one of the sleep-report screens. The tags' Refresh passes through
 * /redirect/<path> and comes straight back, so that is not leaving them.
 */
export const isSleepReportPath = (pathname: string): boolean =>
  SCREENS.includes(pathname.replace(/^\/redirect(?=\/)/, '').replace(/\/+$/, ''));

export const dailyListPath = (userId: number): string => `${DAILY_LIST_PATH}?userId=${userId}`;
export const dailyDetailPath = (userId: number, night: string): string =>
  `${DAILY_DETAIL_PATH}?userId=${userId}&date=${night}`;
export const monthPath = (userId: number, month?: string): string =>
  month ? `${MONTH_PATH}?userId=${userId}&month=${month}` : `${MONTH_PATH}?userId=${userId}`;

/** A resident id from the address; undefined when it is not one the server could accept. */
export const readUserId = (value: string | null): number | undefined => {
  if (value === null || !/^\d{1,10}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 && n <= 2_147_483_647 ? n : undefined;
};

/** A night (YYYY-MM-DD) from the address; undefined unless it is a real calendar date. */
export const readNight = (value: string | null): string | undefined => {
  if (value === null) return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? value : undefined;
};

/** A month (YYYY-MM) from the address; undefined unless it is one. */
export const readMonth = (value: string | null): string | undefined =>
  value !== null && /^\d{4}-(0[1-9]|1[0-2])$/.test(value) ? value : undefined;
