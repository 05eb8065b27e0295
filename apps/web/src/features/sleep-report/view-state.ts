import type { ReportResident } from '@vigil/contract/browser';
import { useEffect, useSyncExternalStore } from 'react';
import type { RiskGrade } from './report-model.ts';
import { useSession } from '../../shared/session/session-store.ts';
import { isSleepReportPath } from './report-paths.ts';

/** Who the screens are about, as the report list showed them; the report's own data when there is one. */
export type ChosenResident = Pick<
  ReportResident,
  'userId' | 'userName' | 'gender' | 'age' | 'bunk' | 'room' | 'floorArea'
> & { providerName?: string | null };

export const USER_PAGE_SIZES = [10, 20, 50, 100];
export const REPORT_PAGE_SIZES = [10, 20, 31, 50];

/**
 * The sleep-report screens' view state (spec document 1, section 3): the resident chosen in the
 * report list and the page of each list. It lives while the user moves between the four
 * sleep-report screens (list → daily list → report → back returns to the same pages) and starts
 * afresh when they leave for another menu entry. The filters of each list stay with its page:
 * page 3 means nothing without the filter it was a page of.
 */
export interface SleepReportView {
  selectedUserInfo: ChosenResident | null;
  /** The report list's page, its size and filters. */
  selectedUserPage: number;
  userPageSize: number;
  userKeyWord?: string;
  userAreaId?: number;
  /** The daily list's page, its size and filters; no range: the last 30 nights. */
  selectedReportListPage: number;
  reportListPageSize: number;
  reportRange?: [string, string];
  reportRiskGrade?: RiskGrade;
  /** The page of the monthly report's table of nights. */
  selectedReportPage: number;
}

export const INITIAL_VIEW: SleepReportView = {
  selectedUserInfo: null,
  selectedUserPage: 1,
  userPageSize: 10,
  selectedReportListPage: 1,
  reportListPageSize: 10,
  selectedReportPage: 1,
};

let view: SleepReportView = INITIAL_VIEW;
let provider: string | null | undefined;
const listeners = new Set<() => void>();
const set = (next: SleepReportView) => {
  view = next;
  for (const listener of listeners) listener();
};

export const reportView = {
  get: (): SleepReportView => view,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  update(change: Partial<SleepReportView>) {
    set({ ...view, ...change });
  },
  /**
   * The user opens one resident's reports from the list. Another resident's daily list and month
   * start on their first page and the default range; the same resident's keep theirs.
   */
  choose(resident: ChosenResident) {
    const same = view.selectedUserInfo?.userId === resident.userId;
    set({
      ...view,
      selectedUserInfo: resident,
      ...(same
        ? {}
        : {
            selectedReportListPage: 1,
            reportRange: undefined,
            reportRiskGrade: undefined,
            selectedReportPage: 1,
          }),
    });
  },
  reset() {
    set(INITIAL_VIEW);
  },
  /** A sleep-report screen has gone; `pathname` is where the user went. */
  left(pathname: string) {
    if (!isSleepReportPath(pathname)) reportView.reset();
  },
  /** The session's provider (null: the whole scope); another one's residents are not this one's. */
  inProvider(id: string | null) {
    if (provider !== undefined && provider !== id) reportView.reset();
    provider = id;
  },
};

export const useReportView = (): SleepReportView => useSyncExternalStore(reportView.subscribe, reportView.get);

/**
 * Every sleep-report screen calls this. When the screen goes, the router has already moved to
 * the next address, so window.location says whether the user stayed among the sleep reports
 * (another of the four screens) or left them (another menu entry, sign-out).
 */
export const useSleepReportScope = () => {
  const provider = useSession().info?.currentProvider?.id;
  const providerId = provider === undefined ? null : String(provider);
  useEffect(() => reportView.inProvider(providerId), [providerId]);
  useEffect(() => () => reportView.left(window.location.pathname), []);
};
