import type { LiveResident } from '@vigil/contract/browser';
import { Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { ListQuery } from '../../shared/ui/list-state.tsx';
import { HelpTitle, withUnit } from '../../shared/ui/column-title.tsx';
import { PagedTable, type ListPage } from '../../shared/ui/PagedTable.tsx';
import type { CardLayout } from '../../shared/ui/ResponsiveTable.tsx';
import { AlarmBadge } from './AlarmBadge.tsx';
import { FocusStar } from './FocusStar.tsx';
import { liveRate, placeOf, rateText, sampleTime } from './live-model.ts';
import { LIST_PAGE_SIZES } from './list-view.ts';
import { LiveStatusTag } from './LiveStatusTag.tsx';
import { MovementText } from './MovementText.tsx';

/**
 * The resident list's rows, live: focus star, who, where, state, rates, movement, alarms; a row
 * opens the resident. On a phone each resident is a card: name and state over place, rates and movement.
 */
export const LiveResidentTable = (props: {
  rows: LiveResident[];
  total: number;
  page: ListPage;
  onPage: (page: ListPage) => void;
  query: ListQuery;
  filtered: boolean;
  onClearFilters: () => void;
  changingFocus: number | null;
  onFocus: (resident: LiveResident) => void;
  onOpen: (resident: LiveResident) => void;
}) => {
  const { t } = useTranslation('real-monitor');
  const star = (row: LiveResident) => (
    <FocusStar
      userId={row.userId}
      focus={row.focus}
      loading={props.changingFocus === row.userId}
      onToggle={() => props.onFocus(row)}
    />
  );
  const name = (row: LiveResident) => (
    <Space size={4} wrap>
      <Typography.Text strong>{row.userName}</Typography.Text>
      {row.away && <Tag color="blue">{t('status.away')}</Tag>}
    </Space>
  );
  const columns: ColumnsType<LiveResident> = [
    { key: 'focus', width: 48, fixed: 'left', render: (_, row) => star(row) },
    { title: t('field.resident'), dataIndex: 'userName', width: 170, render: (_, row) => name(row) },
    { title: t('field.age'), dataIndex: 'age', width: 60, render: (age: number | null) => age ?? '—' },
    { title: t('field.place'), key: 'place', width: 200, render: (_, row) => placeOf(row) ?? t('noBed') },
    { title: t('field.state'), key: 'state', width: 110, render: (_, row) => <LiveStatusTag resident={row} /> },
    {
      title: withUnit(t, t('vital.heartRate'), t('unit.bpm')),
      key: 'heartRate',
      width: 100,
      align: 'right',
      render: (_, row) => <span data-testid={`heart-rate-${row.userId}`}>{rateText(liveRate(row, 'heartRate'))}</span>,
    },
    {
      title: withUnit(t, t('vital.breathRate'), t('unit.rpm')),
      key: 'breathRate',
      width: 110,
      align: 'right',
      render: (_, row) => (
        <span data-testid={`breath-rate-${row.userId}`}>{rateText(liveRate(row, 'breathRate'))}</span>
      ),
    },
    {
      title: <HelpTitle title={t('vital.movement')} help={t('vital.movementHelp')} testId="movement-help" />,
      key: 'move',
      width: 110,
      render: (_, row) => <MovementText resident={row} labelled={false} />,
    },
    { title: t('field.alarms'), key: 'alarms', width: 130, render: (_, row) => <AlarmBadge resident={row} /> },
    {
      title: t('field.sampleTime'),
      key: 'ts',
      width: 100,
      render: (_, row) => sampleTime(row.vitals?.ts),
    },
  ];
  const cards: CardLayout<LiveResident> = {
    title: (row) => (
      <Space size={4} align="center">
        {star(row)}
        {name(row)}
      </Space>
    ),
    state: (row) => (
      <Space size={4} wrap>
        <LiveStatusTag resident={row} />
        <AlarmBadge resident={row} />
      </Space>
    ),
    fields: ['place', 'heartRate', 'breathRate', 'move', 'ts'],
  };
  return (
    <PagedTable<LiveResident>
      rowKey="userId"
      size="middle"
      data-testid="monitor-residents"
      columns={columns}
      // Fixed widths: the headers with their units wrap, and the whole list fits beside the sidebar at 1440 px.
      scroll={{ x: columns.reduce((sum, c) => sum + Number(c.width ?? 0), 0) }}
      cards={cards}
      dataSource={props.rows}
      total={props.total}
      page={props.page}
      onPage={props.onPage}
      pageSizeOptions={LIST_PAGE_SIZES}
      query={props.query}
      filters={{ filtered: props.filtered, onClearFilters: props.onClearFilters }}
      onRow={(row) => ({ onClick: () => props.onOpen(row), style: { cursor: 'pointer' } })}
    />
  );
};
