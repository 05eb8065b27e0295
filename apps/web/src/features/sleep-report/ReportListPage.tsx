import { getAreaWithRoomList, sleepReportUserList, type ReportUser } from '@vigil/contract/browser';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Cascader, Input, Space, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../shared/api/client.ts';
import { callKey } from '../../shared/api/use-call.ts';
import { PagedTable } from '../../shared/ui/PagedTable.tsx';
import { RefusableButton } from '../../shared/ui/Refused.tsx';
import { areaOptions, areaPath } from '../real-monitor/list-view.ts';
import { placeOf } from './report-format.ts';
import { dailyDetailPath, dailyListPath, monthPath } from './report-paths.ts';
import { RiskTag, ScoreCell } from './report-ui.tsx';
import { useReportFormat } from './useReportFormat.ts';
import { reportView, USER_PAGE_SIZES, useReportView, useSleepReportScope } from './view-state.ts';
import './sleep-report.css';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

/** The latest night in the list: its date, score or why there is none, risk grade and coverage. */
const LatestNight = ({ user }: { user: ReportUser }) => {
  const { t } = useTranslation('sleep-report');
  const format = useReportFormat();
  const night = user.latest;
  // Long texts wrap here rather than push the actions out of sight.
  const box = { maxWidth: 240, whiteSpace: 'normal' } as const;
  if (!night) {
    return (
      <div style={box}>
        <Typography.Text type="secondary">{t('list.noReport')}</Typography.Text>
      </div>
    );
  }
  const scored = night.state === 'ready' && !night.insufficient;
  return (
    <div style={box}>
      <Space size={8} wrap>
        <Typography.Text>{night.night}</Typography.Text>
        {scored ? <RiskTag grade={night.riskGrade} /> : <ScoreCell night={night} />}
      </Space>
      {scored && (
        <div>
          <Space size={8} wrap>
            <Typography.Text>
              {t('column.score')} <Typography.Text strong>{night.score ?? '—'}</Typography.Text>
            </Typography.Text>
            {night.coverage !== null && (
              <Typography.Text type="secondary">
                {t('list.coverage', { percent: format.percent(night.coverage) })}
              </Typography.Text>
            )}
          </Space>
        </div>
      )}
    </div>
  );
};

/**
 * Sleep reports (`/sleep-report/reportList`): the residents whose bed has a sleep monitor or who
 * have reports, found by key word and area, each with their latest night; from here the daily
 * list, the latest report and the monthly report of a resident.
 */
const ReportListPage = () => {
  const { t } = useTranslation('sleep-report');
  const navigate = useNavigate();
  const format = useReportFormat();
  useSleepReportScope();
  const view = useReportView();

  const request = {
    pageNum: view.selectedUserPage,
    pageSize: view.userPageSize,
    ...(view.userKeyWord === undefined ? {} : { keyWord: view.userKeyWord }),
    ...(view.userAreaId === undefined ? {} : { areaId: view.userAreaId }),
  };
  const list = useQuery({
    queryKey: callKey(sleepReportUserList, request),
    queryFn: () => api(sleepReportUserList, request),
    placeholderData: keepPreviousData,
  });
  const places = useQuery({ queryKey: ['residents', 'places'], queryFn: () => api(getAreaWithRoomList, {}) });
  const options = useMemo(() => areaOptions(places.data ?? []), [places.data]);
  const filtered = view.userKeyWord !== undefined || view.userAreaId !== undefined;

  const open = (user: ReportUser, path: string) => {
    reportView.choose({
      userId: user.userId,
      userName: user.userName,
      gender: user.gender,
      age: user.age,
      bunk: user.bunk,
      room: user.room,
      floorArea: user.floorArea,
    });
    void navigate(path);
  };

  const columns: ColumnsType<ReportUser> = [
    {
      title: t('column.resident'),
      key: 'resident',
      render: (_, user) => (
        <>
          <Typography.Text strong>{user.userName}</Typography.Text>
          <div>
            <Typography.Text type="secondary">{format.person(user)}</Typography.Text>
          </div>
        </>
      ),
    },
    {
      title: t('column.place'),
      key: 'place',
      // Area and floor above room and bed: the list stays narrow enough to show every column.
      render: (_, user) => {
        const bed = placeOf({ floorArea: null, room: user.room, bunk: user.bunk });
        if (!user.floorArea && !bed) return t('resident.noBed');
        return (
          <>
            {user.floorArea && <div>{user.floorArea}</div>}
            {bed && <div>{bed}</div>}
          </>
        );
      },
    },
    {
      title: t('column.monitor'),
      dataIndex: 'deviceId',
      render: (deviceId: string | null) =>
        deviceId ?? <Typography.Text type="secondary">{t('list.noMonitor')}</Typography.Text>,
    },
    { title: t('column.latest'), key: 'latest', render: (_, user) => <LatestNight user={user} /> },
    { title: t('column.reports'), dataIndex: 'reports', align: 'right' },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, user) => {
        const none = user.latest ? undefined : t('action.noReportYet');
        return (
          <Space orientation="vertical" size={0} align="start">
            <Button type="link" size="small" onClick={() => open(user, dailyListPath(user.userId))}>
              {t('action.dailyReports')}
            </Button>
            <RefusableButton
              type="link"
              size="small"
              refusal={none}
              onClick={() => user.latest && open(user, dailyDetailPath(user.userId, user.latest.night))}
            >
              {t('action.latestReport')}
            </RefusableButton>
            <RefusableButton type="link" size="small" refusal={none} onClick={() => open(user, monthPath(user.userId))}>
              {t('action.monthReport')}
            </RefusableButton>
          </Space>
        );
      },
    },
  ];

  return (
    <div data-testid="sleep-report-list">
      <ScreenTitle route="SleepReport" />
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          key={view.userKeyWord ?? ''}
          defaultValue={view.userKeyWord}
          allowClear
          maxLength={64}
          placeholder={t('filter.keyword')}
          aria-label={t('filter.keyword')}
          enterButton={t('common.search')}
          style={{ width: 300, maxWidth: '100%' }}
          data-testid="report-filter-keyword"
          onSearch={(value) => reportView.update({ userKeyWord: value.trim() || undefined, selectedUserPage: 1 })}
        />
        <Cascader
          changeOnSelect
          allowClear
          showSearch
          value={areaPath(places.data ?? [], view.userAreaId)}
          placeholder={t('filter.area')}
          aria-label={t('filter.area')}
          style={{ minWidth: 200 }}
          data-testid="report-filter-area"
          loading={places.isFetching}
          options={options}
          onChange={(path?: number[]) => reportView.update({ userAreaId: path?.at(-1), selectedUserPage: 1 })}
        />
      </Space>
      <PagedTable<ReportUser>
        rowKey="userId"
        columns={columns}
        dataSource={list.data?.rows ?? []}
        total={list.data?.total ?? 0}
        page={{ pageNum: view.selectedUserPage, pageSize: view.userPageSize }}
        pageSizeOptions={USER_PAGE_SIZES}
        onPage={(page) => reportView.update({ selectedUserPage: page.pageNum, userPageSize: page.pageSize })}
        query={list}
        filters={{
          filtered,
          onClearFilters: () =>
            reportView.update({ userKeyWord: undefined, userAreaId: undefined, selectedUserPage: 1 }),
        }}
      />
    </div>
  );
};

export default ReportListPage;
