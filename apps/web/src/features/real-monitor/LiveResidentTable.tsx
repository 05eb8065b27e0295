import type { LiveResident } from '@vigil/contract/browser';
import { Grid, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { ListQuery } from '../../shared/ui/list-state.tsx';
import { PagedTable, type ListPage } from '../../shared/ui/PagedTable.tsx';
import { AlarmBadge } from './AlarmBadge.tsx';
import { FocusStar } from './FocusStar.tsx';
import { bedOf, liveRate, placeOf, rateText, sampleTime } from './live-model.ts';
import { LIST_PAGE_SIZES } from './list-view.ts';
import { LiveStatusTag } from './LiveStatusTag.tsx';
import { MovementText } from './MovementText.tsx';

/** The resident list's rows, live: focus star, who, where, state, rates, movement, alarms; a row opens the resident. */
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
  const wide = Grid.useBreakpoint().md ?? true;
  const columns: ColumnsType<LiveResident> = [
    {
      key: 'focus',
      width: 48,
      fixed: 'left',
      render: (_, row) => (
        <FocusStar
          userId={row.userId}
          focus={row.focus}
          loading={props.changingFocus === row.userId}
          onToggle={() => props.onFocus(row)}
        />
      ),
    },
    {
      title: t('field.resident'),
      dataIndex: 'userName',
      render: (name: string, row) => (
        <>
          <Space size={4} wrap>
            <Typography.Text strong>{name}</Typography.Text>
            {row.away && <Tag color="blue">{t('status.away')}</Tag>}
          </Space>
          {/* Narrow screens leave out the place column: the room and bed go under the name. */}
          {!wide && (
            <div>
              <Typography.Text type="secondary">{bedOf(row) ?? t('noBed')}</Typography.Text>
            </div>
          )}
        </>
      ),
    },
    { title: t('field.age'), dataIndex: 'age', responsive: ['lg'], render: (age: number | null) => age ?? '—' },
    { title: t('field.place'), key: 'place', responsive: ['md'], render: (_, row) => placeOf(row) ?? t('noBed') },
    { title: t('field.state'), key: 'state', render: (_, row) => <LiveStatusTag resident={row} /> },
    {
      title: t('vital.heartRate'),
      key: 'heartRate',
      align: 'right',
      render: (_, row) => <span data-testid={`heart-rate-${row.userId}`}>{rateText(liveRate(row, 'heartRate'))}</span>,
    },
    {
      title: t('vital.breathRate'),
      key: 'breathRate',
      align: 'right',
      render: (_, row) => (
        <span data-testid={`breath-rate-${row.userId}`}>{rateText(liveRate(row, 'breathRate'))}</span>
      ),
    },
    {
      title: t('vital.movement'),
      key: 'move',
      responsive: ['md'],
      render: (_, row) => <MovementText resident={row} labelled={false} />,
    },
    { title: t('field.alarms'), key: 'alarms', render: (_, row) => <AlarmBadge resident={row} /> },
    {
      title: t('field.sampleTime'),
      key: 'ts',
      responsive: ['lg'],
      render: (_, row) => sampleTime(row.vitals?.ts),
    },
  ];
  return (
    <PagedTable<LiveResident>
      rowKey="userId"
      size="middle"
      data-testid="monitor-residents"
      columns={columns}
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
