import { dailyReportPageList, RISK_GRADES, type DailyReportRow } from '@vigil/contract/browser';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Result, Select, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../shared/api/client.ts';
import { callKey } from '../../shared/api/use-call.ts';
import { PagedTable } from '../../shared/ui/PagedTable.tsx';
import { lastNights, today } from './report-format.ts';
import { DEFAULT_NIGHTS, type RiskGrade } from './report-model.ts';
import { dailyDetailPath, monthPath, readUserId } from './report-paths.ts';
import { BackToReportList, ResidentBanner, RiskTag, ScoreCell, StateTag } from './report-ui.tsx';
import { useResidentWithoutReport } from './useChosenResident.ts';
import { useReportFormat } from './useReportFormat.ts';
import { REPORT_PAGE_SIZES, reportView, useReportView, useSleepReportScope } from './view-state.ts';
import './sleep-report.css';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

const NIGHT_FORMAT = 'YYYY-MM-DD';

/** The rows of one resident's daily list: each night's state, score (or why none) and main figures. */
const DailyReports = ({ userId }: { userId: number }) => {
  const { t } = useTranslation('sleep-report');
  const navigate = useNavigate();
  const format = useReportFormat();
  const view = useReportView();
  const resident = useResidentWithoutReport(userId);
  const range = view.reportRange ?? lastNights(today(), DEFAULT_NIGHTS);
  const request = {
    pageNum: view.selectedReportListPage,
    pageSize: view.reportListPageSize,
    userId,
    startDate: range[0],
    endDate: range[1],
    ...(view.reportRiskGrade === undefined ? {} : { riskGrade: view.reportRiskGrade }),
  };
  const list = useQuery({
    queryKey: callKey(dailyReportPageList, request),
    queryFn: () => api(dailyReportPageList, request),
    placeholderData: keepPreviousData,
  });
  const filtered = view.reportRange !== undefined || view.reportRiskGrade !== undefined;
  const presets = (nights: number) => {
    const [from, to] = lastNights(today(), nights);
    return [dayjs(from), dayjs(to)] as [Dayjs, Dayjs];
  };
  /** A figure of a scored night; nights without a score show nothing but their reason. */
  const scored = (row: DailyReportRow, text: string) => (row.state === 'ready' && !row.insufficient ? text : '—');

  const columns: ColumnsType<DailyReportRow> = [
    {
      title: t('column.night'),
      dataIndex: 'night',
      render: (night: string) => (
        <Link to={dailyDetailPath(userId, night)} onClick={(event) => event.stopPropagation()}>
          {night}
        </Link>
      ),
    },
    { title: t('column.state'), dataIndex: 'state', render: (_, row) => <StateTag state={row.state} /> },
    {
      title: t('column.score'),
      key: 'score',
      align: 'right',
      render: (_, row) => <ScoreCell night={row} stateShown />,
    },
    {
      title: t('column.totalSleep'),
      key: 'totalSleep',
      render: (_, row) => scored(row, format.duration(row.totalSleep)),
    },
    {
      title: t('column.efficiency'),
      key: 'efficiency',
      align: 'right',
      render: (_, row) => scored(row, format.percent(row.efficiency)),
    },
    {
      title: t('column.deepShare'),
      key: 'deepShare',
      align: 'right',
      render: (_, row) => scored(row, format.percent(row.deepShare)),
    },
    { title: t('column.ahi'), key: 'ahi', align: 'right', render: (_, row) => scored(row, format.number(row.ahi)) },
    {
      title: t('column.heartAvg'),
      key: 'heartAvg',
      align: 'right',
      render: (_, row) => scored(row, row.heartAvg === null ? '—' : `${format.whole(row.heartAvg)} ${t('unit.bpm')}`),
    },
    { title: t('column.riskGrade'), key: 'riskGrade', render: (_, row) => <RiskTag grade={row.riskGrade} /> },
  ];

  return (
    <>
      <ResidentBanner
        resident={resident}
        extra={
          <>
            <Button onClick={() => void navigate(monthPath(userId))} data-testid="open-month">
              {t('action.monthReport')}
            </Button>
            <BackToReportList />
          </>
        }
      />
      <Space wrap style={{ marginBottom: 16 }}>
        <DatePicker.RangePicker
          data-testid="daily-filter-range"
          aria-label={t('filter.nights')}
          allowClear={false}
          format={NIGHT_FORMAT}
          value={[dayjs(range[0]), dayjs(range[1])]}
          presets={[
            { label: t('filter.last7'), value: () => presets(7) },
            { label: t('filter.last30'), value: () => presets(DEFAULT_NIGHTS) },
            { label: t('filter.last90'), value: () => presets(90) },
          ]}
          onChange={(values) => {
            const [from, to] = values ?? [];
            if (!from || !to) return;
            reportView.update({
              reportRange: [from.format(NIGHT_FORMAT), to.format(NIGHT_FORMAT)],
              selectedReportListPage: 1,
            });
          }}
        />
        <Select<RiskGrade>
          data-testid="daily-filter-risk"
          aria-label={t('filter.riskGrade')}
          placeholder={t('filter.riskGrade')}
          allowClear
          value={view.reportRiskGrade}
          style={{ minWidth: 160 }}
          options={RISK_GRADES.map((grade) => ({ value: grade, label: t(`risk.${grade}`) }))}
          onChange={(grade?: RiskGrade) => reportView.update({ reportRiskGrade: grade, selectedReportListPage: 1 })}
        />
      </Space>
      <PagedTable<DailyReportRow>
        className="sleep-report-clickable-rows"
        rowKey="night"
        columns={columns}
        dataSource={list.data?.rows ?? []}
        total={list.data?.total ?? 0}
        page={{ pageNum: view.selectedReportListPage, pageSize: view.reportListPageSize }}
        pageSizeOptions={REPORT_PAGE_SIZES}
        onPage={(page) =>
          reportView.update({ selectedReportListPage: page.pageNum, reportListPageSize: page.pageSize })
        }
        query={list}
        filters={{
          filtered,
          onClearFilters: () =>
            reportView.update({ reportRange: undefined, reportRiskGrade: undefined, selectedReportListPage: 1 }),
        }}
        onRow={(row) => ({ onClick: () => void navigate(dailyDetailPath(userId, row.night)) })}
      />
    </>
  );
};

/** One resident's daily reports (`/sleep-report/index?userId=N`), newest night first. */
const DailyReportListPage = () => {
  const { t } = useTranslation('sleep-report');
  useSleepReportScope();
  const [params] = useSearchParams();
  const userId = readUserId(params.get('userId'));
  return (
    <div data-testid="daily-report-list">
      <ScreenTitle route="dailyReportList" />
      {userId === undefined ? (
        <Result status="404" title={t('resident.missing')} extra={<BackToReportList />} />
      ) : (
        <DailyReports key={userId} userId={userId} />
      )}
    </div>
  );
};

export default DailyReportListPage;
