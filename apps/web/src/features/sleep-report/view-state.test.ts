import { beforeEach, describe, expect, it } from 'vitest';
import { INITIAL_VIEW, reportView } from './view-state.ts';

const LI = { userId: 5, userName: 'Li Wei', gender: '1', age: 86, bunk: '1', room: '203', floorArea: null };
const ZHANG = { ...LI, userId: 6, userName: 'Zhang Min' };

beforeEach(() => reportView.reset());

describe('the sleep-report view state', () => {
  it('starts with nobody chosen and every page at 1', () => {
    expect(reportView.get()).toEqual(INITIAL_VIEW);
    expect(INITIAL_VIEW).toMatchObject({
      selectedUserInfo: null,
      selectedUserPage: 1,
      selectedReportListPage: 1,
      selectedReportPage: 1,
    });
  });

  it('keeps the pages of the same resident and starts another resident’s lists afresh', () => {
    reportView.update({ selectedUserPage: 3 });
    reportView.choose(LI);
    reportView.update({ selectedReportListPage: 4, reportRiskGrade: 'high', selectedReportPage: 2 });
    reportView.choose(LI);
    expect(reportView.get()).toMatchObject({
      selectedReportListPage: 4,
      reportRiskGrade: 'high',
      selectedReportPage: 2,
    });

    reportView.choose(ZHANG);
    expect(reportView.get()).toMatchObject({
      selectedUserInfo: ZHANG,
      selectedUserPage: 3,
      selectedReportListPage: 1,
      reportRiskGrade: undefined,
      selectedReportPage: 1,
    });
  });

  it('survives moving between the sleep-report screens, and a refreshed tag', () => {
    reportView.choose(LI);
    reportView.update({ selectedUserPage: 2, selectedReportListPage: 3 });
    for (const path of [
      '/sleep-report/index',
      '/sleep-report/dailyDetails/reportDetails',
      '/redirect/sleep-report/monthDetails',
    ]) {
      reportView.left(path);
    }
    expect(reportView.get()).toMatchObject({ selectedUserInfo: LI, selectedUserPage: 2, selectedReportListPage: 3 });
  });

  it('starts afresh when the user leaves for another menu entry or signs out', () => {
    for (const path of ['/realMonitor/index', '/login']) {
      reportView.choose(LI);
      reportView.update({ selectedUserPage: 2, userKeyWord: '203', selectedReportPage: 4 });
      reportView.left(path);
      expect(reportView.get(), path).toEqual(INITIAL_VIEW);
    }
  });

  it('starts afresh when the session changes provider, not when it first names one', () => {
    reportView.inProvider('7');
    reportView.choose(LI);
    reportView.inProvider('7');
    expect(reportView.get().selectedUserInfo).toEqual(LI);
    reportView.inProvider('8');
    expect(reportView.get()).toEqual(INITIAL_VIEW);
  });

  it('tells its subscribers of each change', () => {
    let calls = 0;
    const stop = reportView.subscribe(() => calls++);
    reportView.update({ selectedUserPage: 2 });
    reportView.reset();
    stop();
    reportView.update({ selectedUserPage: 3 });
    expect(calls).toBe(2);
  });
});
