import { alarmLog, alarmLogUnDeal, type AlarmRecord } from '@vigil/contract/browser';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callKey } from '../../shared/api/use-call.ts';
import { Button, Space, Tag, Typography } from 'antd';
import type { ColumnsType, SortOrder } from 'antd/es/table/interface';
import type { TFunction } from 'i18next';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { PagedTable, type ListPage } from '../../shared/ui/PagedTable.tsx';
import { AlarmMeasure, ElapsedSince, LiveChartLink } from '../../shared/live/AlarmFigures.tsx';
import { ClearedNote } from './ClearedNote.tsx';
import {
  DEFAULT_SORT,
  formatSeconds,
  levelTag,
  listFilters,
  placeOf,
  type AlarmFilters,
  type AlarmSort,
  type AlarmTab,
} from './alarm-model.ts';

const dash = '—';
const CALLS = { pending: alarmLogUnDeal, resolved: alarmLog } as const;

const sortOrderOf = (sort: AlarmSort, column: AlarmSort['orderBy']): SortOrder =>
  sort.orderBy === column ? (sort.order === 'asc' ? 'ascend' : 'descend') : null;

const columnsOf = (
  t: TFunction,
  tab: AlarmTab,
  sort: AlarmSort,
  actions: (row: AlarmRecord) => ReactNode,
): ColumnsType<AlarmRecord> => [
  {
    title: t('field.time'),
    dataIndex: 'timeStamp',
    key: 'timeStamp',
    width: 150,
    sorter: true,
    sortOrder: sortOrderOf(sort, 'timeStamp'),
    sortDirections: ['descend', 'ascend', 'descend'],
    // A pending alarm says how long it has waited, ticking.
    render: (seconds: number) =>
      tab === 'pending' ? (
        <>
          <div>{formatSeconds(seconds)}</div>
          <Typography.Text type="secondary">
            <ElapsedSince since={seconds} />
          </Typography.Text>
        </>
      ) : (
        formatSeconds(seconds)
      ),
  },
  {
    title: t('field.level'),
    dataIndex: 'alertLevel',
    key: 'alertLevel',
    width: 90,
    sorter: true,
    sortOrder: sortOrderOf(sort, 'alertLevel'),
    // Level 1 first is the useful order: ascending.
    sortDirections: ['ascend', 'descend', 'ascend'],
    render: (level: number) => {
      const tag = levelTag(level, t);
      return (
        <Tag color={tag.color} data-testid={`alarm-level-${level}`}>
          {tag.text}
        </Tag>
      );
    },
  },
  { title: t('field.type'), dataIndex: 'alertType', width: 150, render: (type: string) => t(`alarmType.${type}`) },
  {
    title: t('field.text'),
    dataIndex: 'text',
    width: 280,
    render: (text: string, row) => (
      <>
        {text}
        {row.measureText && (
          <div>
            <AlarmMeasure alarm={row} />
          </div>
        )}
        {row.clearedTime !== null && (
          <div>
            <ClearedNote alarm={row} />
          </div>
        )}
      </>
    ),
  },
  { title: t('field.place'), key: 'place', width: 180, render: (_, row) => placeOf(row) ?? dash },
  {
    title: t('field.resident'),
    dataIndex: 'userName',
    width: 130,
    // The resident's name, and the way to the live chart.
    render: (name: string | null, row) =>
      name === null ? (
        dash
      ) : (
        <>
          <div>{name}</div>
          <LiveChartLink userId={row.userId} />
        </>
      ),
  },
  { title: t('field.count'), dataIndex: 'count', width: 90, align: 'right' },
  ...(tab === 'resolved'
    ? ([
        {
          title: t('field.releaseKind'),
          dataIndex: 'releaseKind',
          width: 150,
          render: (kind: number) => (kind >= 1 && kind <= 4 ? t(`releaseKind.${kind}`) : dash),
        },
        { title: t('field.handler'), dataIndex: 'handlerName', width: 110, render: (v: string | null) => v ?? dash },
        {
          title: t('field.reason'),
          dataIndex: 'relieveReason',
          width: 170,
          render: (reason: string | null) => (reason ? t(`relieve.${reason}`) : dash),
        },
        {
          title: t('field.result'),
          dataIndex: 'dealResult',
          width: 170,
          render: (result: string | null) => (result ? t(`dealResult.${result}`) : dash),
        },
        {
          title: t('field.details'),
          dataIndex: 'remark',
          width: 180,
          render: (remark: string | null) =>
            remark ? (
              <Typography.Text ellipsis={{ tooltip: remark }} style={{ maxWidth: 170 }}>
                {remark}
              </Typography.Text>
            ) : (
              dash
            ),
        },
        {
          title: t('field.dealTime'),
          dataIndex: 'dealTime',
          width: 150,
          render: (seconds: number | null) => formatSeconds(seconds, dash),
        },
      ] satisfies ColumnsType<AlarmRecord>)
    : []),
  { title: t('common.actions'), key: 'actions', fixed: 'right', width: 140, render: (_, row) => actions(row) },
];

/**
 * One tab of the alarm log: the pending (/alarmLog/unDeal) or processed (/alarmLog) alarms
 * matching the filters, server-paged and sorted by time (newest first) or level.
 */
export const AlarmTable = (props: {
  tab: AlarmTab;
  filters: AlarmFilters;
  filtered: boolean;
  onClearFilters: () => void;
  onHandle: (alarm: AlarmRecord) => void;
  onTimeline: (alarm: AlarmRecord) => void;
}) => {
  const { t } = useTranslation('alarm-log');
  const { tab, filters } = props;
  const [sort, setSort] = useState<AlarmSort>(DEFAULT_SORT);
  const [page, setPage] = useState<ListPage>({ pageNum: 1, pageSize: 10 });
  // A narrower list may not have the current page: new filters start again at page 1.
  const [pagedFilters, setPagedFilters] = useState(filters);
  if (pagedFilters !== filters) {
    setPagedFilters(filters);
    setPage((p) => ({ ...p, pageNum: 1 }));
  }

  const query = { ...filters, ...sort, ...page };
  const list = useQuery({
    queryKey: callKey(CALLS[tab], query),
    // The period counts back from the moment of the request, so a refresh moves it along.
    queryFn: () => api(CALLS[tab], { ...page, ...sort, ...listFilters(filters) }),
    placeholderData: keepPreviousData,
  });

  const actions = (row: AlarmRecord) => (
    <Space size={0}>
      {tab === 'pending' && (
        <Button type="link" size="small" data-testid="alarm-handle" onClick={() => props.onHandle(row)}>
          {t('action.handle')}
        </Button>
      )}
      <Button type="link" size="small" data-testid="alarm-timeline-open" onClick={() => props.onTimeline(row)}>
        {t('action.timeline')}
      </Button>
    </Space>
  );

  return (
    <PagedTable<AlarmRecord>
      data-testid={`alarm-table-${tab}`}
      rowKey="id"
      size="middle"
      query={list}
      filters={{ filtered: props.filtered, onClearFilters: props.onClearFilters }}
      columns={columnsOf(t, tab, sort, actions)}
      dataSource={list.data?.rows ?? []}
      page={page}
      total={list.data?.total ?? 0}
      onPage={setPage}
      onChange={(_pagination, _filters, sorter, extra) => {
        if (extra.action !== 'sort' || Array.isArray(sorter)) return;
        const orderBy = sorter.columnKey === 'alertLevel' ? 'alertLevel' : 'timeStamp';
        // Clearing a column's sort goes back to newest first.
        setSort(sorter.order ? { orderBy, order: sorter.order === 'ascend' ? 'asc' : 'desc' } : DEFAULT_SORT);
        setPage((p) => ({ ...p, pageNum: 1 }));
      }}
    />
  );
};
