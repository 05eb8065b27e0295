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
import type { CardLayout } from '../../shared/ui/ResponsiveTable.tsx';
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

const secondary = (text: ReactNode) => <Typography.Text type="secondary">{text}</Typography.Text>;
/** One line of a cell: each its own element, so a narrow column wraps between them, not within. */
const line = (content: ReactNode) => <div>{content}</div>;

/**
 * The alarm's type, the server's text, the figure that raised it and, for a latched alarm, how its
 * condition cleared.
 */
const AlarmText = ({ row, t, withType }: { row: AlarmRecord; t: TFunction; withType: boolean }) => (
  <>
    {withType && line(<Typography.Text strong>{t(`alarmType.${row.alertType}`)}</Typography.Text>)}
    {line(row.text)}
    {row.measureText && line(<AlarmMeasure alarm={row} />)}
    {row.clearedTime !== null && line(<ClearedNote alarm={row} />)}
  </>
);

/** The resident's name and the way to their live chart; a dash when the alarm names nobody. */
const Resident = ({ row }: { row: AlarmRecord }) =>
  row.userName === null ? (
    dash
  ) : (
    <>
      {line(row.userName)}
      <LiveChartLink userId={row.userId} />
    </>
  );

/** Released how (handled by a person, cleared by itself …), and when. */
const releaseOf = (row: AlarmRecord, t: TFunction): string =>
  row.releaseKind >= 1 && row.releaseKind <= 4 ? t(`releaseKind.${row.releaseKind}`) : dash;

/**
 * Columns of a tab. The handled tab answers "how was it handled" (released how and when, by whom,
 * why, with what result, the handler's note) within a 1440 px window (issue 29, point 14): the
 * type goes over the alarm's text, and the place under the resident.
 */
export const alarmColumns = (
  t: TFunction,
  tab: AlarmTab,
  sort: AlarmSort,
  actions: (row: AlarmRecord) => ReactNode,
): ColumnsType<AlarmRecord> => [
  {
    title: t('field.time'),
    dataIndex: 'timeStamp',
    key: 'timeStamp',
    width: 105,
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
    width: 76,
    sorter: true,
    sortOrder: sortOrderOf(sort, 'alertLevel'),
    // Level 1 first is the useful order: ascending.
    sortDirections: ['ascend', 'descend', 'ascend'],
    render: (level: number) => <LevelTag level={level} t={t} />,
  },
  {
    title: t('field.text'),
    key: 'text',
    width: tab === 'pending' ? 300 : 185,
    render: (_, row) => (
      <>
        <AlarmText row={row} t={t} withType />
        {tab === 'resolved' && row.count > 1 && line(secondary(t('field.countTimes', { count: row.count })))}
      </>
    ),
  },
  {
    title: t('field.resident'),
    key: 'resident',
    width: tab === 'pending' ? 220 : 135,
    // The resident's name, where, and the way to the live chart.
    render: (_, row) => (
      <>
        {line(row.userName ?? dash)}
        {placeOf(row) !== null && line(secondary(placeOf(row)))}
        {row.userName !== null && <LiveChartLink userId={row.userId} />}
      </>
    ),
  },
  ...(tab === 'pending'
    ? ([{ title: t('field.count'), dataIndex: 'count', width: 90, align: 'right' }] satisfies ColumnsType<AlarmRecord>)
    : ([
        {
          title: t('field.released'),
          key: 'released',
          width: 150,
          render: (_, row) => (
            <>
              {line(releaseOf(row, t))}
              {row.dealTime !== null && line(secondary(formatSeconds(row.dealTime)))}
            </>
          ),
        },
        { title: t('field.handler'), dataIndex: 'handlerName', width: 110, render: (v: string | null) => v ?? dash },
        {
          title: t('field.reasonResult'),
          key: 'reasonResult',
          width: 160,
          render: (_, row) => (
            <>
              {line(row.relieveReason ? t(`relieve.${row.relieveReason}`) : dash)}
              {row.dealResult && line(secondary(t(`dealResult.${row.dealResult}`)))}
            </>
          ),
        },
        {
          title: t('field.details'),
          dataIndex: 'remark',
          width: 135,
          render: (remark: string | null) =>
            remark ? (
              <Typography.Paragraph ellipsis={{ rows: 3, tooltip: remark }} style={{ margin: 0 }}>
                {remark}
              </Typography.Paragraph>
            ) : (
              dash
            ),
        },
      ] satisfies ColumnsType<AlarmRecord>)),
  {
    title: t('common.actions'),
    key: 'actions',
    fixed: 'right',
    width: tab === 'pending' ? 140 : 90,
    render: (_, row) => actions(row),
  },
];

const LevelTag = ({ level, t }: { level: number; t: TFunction }) => {
  const tag = levelTag(level, t);
  return (
    <Tag color={tag.color} data-testid={`alarm-level-${level}`}>
      {tag.text}
    </Tag>
  );
};

/**
 * An alarm as a card on a phone: its type, level and state over the resident, the place, when it
 * was raised and what it says; a handled one also how, by whom and why.
 */
const cardsOf = (t: TFunction, tab: AlarmTab): CardLayout<AlarmRecord> => ({
  title: (row) => t(`alarmType.${row.alertType}`),
  state: (row) => (
    <Space size={4} wrap>
      <LevelTag level={row.alertLevel} t={t} />
      {tab === 'resolved' ? (
        <Tag color={row.releaseKind === 1 ? 'green' : 'default'} data-testid="alarm-state">
          {releaseOf(row, t)}
        </Tag>
      ) : row.awaitingAck ? (
        <Tag color="gold" data-testid="alarm-state">
          {t('cleared.awaiting')}
        </Tag>
      ) : (
        <Tag color="red" data-testid="alarm-state">
          {t('tab.pending')}
        </Tag>
      )}
    </Space>
  ),
  fields: [
    { key: 'resident', label: t('field.resident'), render: (row) => <Resident row={row} /> },
    { key: 'place', label: t('field.place'), render: (row) => placeOf(row) ?? dash },
    'timeStamp',
    { key: 'text', label: t('field.text'), render: (row) => <AlarmText row={row} t={t} withType={false} /> },
    ...(tab === 'pending' ? ['count'] : ['released', 'handlerName', 'reasonResult', 'remark']),
  ],
  actions: 'actions',
});

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
      columns={alarmColumns(t, tab, sort, actions)}
      cards={cardsOf(t, tab)}
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
