import { residentList } from '@vigil/contract/browser';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../shared/api/client.ts';
import { AbsenceDialog } from './AbsenceDialog.tsx';
import { CheckInDialog } from './CheckInDialog.tsx';
import { formatTime } from './format.ts';
import {
  listRequest,
  PAGE_SIZES,
  readListView,
  writeListView,
  type ListView,
  type ResidentFilters,
} from './list-params.ts';
import { ResidentFilterBar } from './ResidentFilterBar.tsx';
import { ResidentRowActions } from './ResidentRowActions.tsx';
import { ResidentSummaryBar } from './ResidentSummaryBar.tsx';
import { ResidentTransfer } from './ResidentTransfer.tsx';
import { EDIT_PATH, placeOf, STATE_COLOURS, type ResidentRow, type ReturnState } from './resident-model.ts';
import { PagedTable } from '../../shared/ui/PagedTable.tsx';
import type { CardLayout } from '../../shared/ui/ResponsiveTable.tsx';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

const CARERS_SHOWN = 3;

/**
 * Resident management (/people-manage/userManage): counts, filters, the paged list and the
 * lifecycle actions. Filters and page live in the address (see list-params.ts).
 */
const ResidentManagePage = () => {
  const { t } = useTranslation('residents');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readListView(params), [params]);
  const [checkingIn, setCheckingIn] = useState<ResidentRow | null>(null);
  const [absent, setAbsent] = useState<ResidentRow | null>(null);

  const show = (next: ListView) => setParams(writeListView(next));
  /** A narrower list may not have the current page, so every filter change starts at page 1. */
  const search = (filters: ResidentFilters) => show({ ...view, filters, pageNum: 1 });

  const list = useQuery({
    queryKey: ['residents', 'list', view],
    queryFn: () => api(residentList, listRequest(view)),
    placeholderData: keepPreviousData,
  });

  const edit = (id?: number) => {
    const state: ReturnState = { listSearch: params.toString() };
    void navigate(id === undefined ? EDIT_PATH : `${EDIT_PATH}?id=${id}`, { state });
  };

  const nameOf = (row: ResidentRow) => (
    <Space size={4} wrap>
      <span>{row.name}</span>
      {row.priority && <Tag color="red">{t('tag.priority')}</Tag>}
      {row.away && <Tag color="orange">{t('tag.away')}</Tag>}
    </Space>
  );
  const stateOf = (row: ResidentRow) => <Tag color={STATE_COLOURS[row.state]}>{t(`state.${row.state}`)}</Tag>;
  const columns: ColumnsType<ResidentRow> = [
    { title: t('field.name'), dataIndex: 'name', render: (_, row) => nameOf(row) },
    { title: t('field.gender'), dataIndex: 'gender', render: (g: 0 | 1) => t(`gender.${g}`) },
    { title: t('field.age'), dataIndex: 'age' },
    { title: t('field.state'), dataIndex: 'state', render: (_, row) => stateOf(row) },
    {
      title: t('field.place'),
      key: 'place',
      render: (_, row) => (row.state === 'loggedOff' ? '' : placeOf(row)),
    },
    {
      // Checked-in residents show their admission, checked-out ones when they left.
      title: t('field.stateSince'),
      key: 'since',
      render: (_: unknown, r: ResidentRow) =>
        formatTime(r.state === 'checkedIn' ? r.admittedAt : r.state === 'checkedOut' ? r.checkedOutAt : null),
    },
    {
      title: t('field.carers'),
      dataIndex: 'carers',
      render: (carers: ResidentRow['carers']) =>
        carers.length > CARERS_SHOWN
          ? t('list.moreCarers', {
              names: carers
                .slice(0, CARERS_SHOWN)
                .map((c) => c.name)
                .join(', '),
              count: carers.length - CARERS_SHOWN,
            })
          : carers.map((c) => c.name).join(', '),
    },
    { title: t('field.community'), dataIndex: 'communityName' },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <ResidentRowActions row={row} onEdit={(r) => edit(r.id)} onCheckIn={setCheckingIn} onAbsence={setAbsent} />
      ),
    },
  ];
  // On a phone: who, their state, where they are and since when, then the rest.
  const cards: CardLayout<ResidentRow> = {
    title: nameOf,
    state: stateOf,
    fields: ['place', 'since', 'gender', 'age', 'carers', 'communityName'],
    actions: 'actions',
  };

  return (
    <div>
      <ScreenTitle route="PeopleManage" />
      <ResidentSummaryBar onState={(state) => search({ ...view.filters, state })} />
      <ResidentFilterBar filters={view.filters} onSearch={search} />
      <Space style={{ marginBottom: 16 }} wrap>
        <Button type="primary" data-testid="resident-create" onClick={() => edit()}>
          {t('list.create')}
        </Button>
        <ResidentTransfer filters={view.filters} />
      </Space>
      <PagedTable<ResidentRow>
        data-testid="resident-table"
        rowKey="id"
        query={list}
        filters={{
          filtered: Object.values(view.filters).some((value) => value !== undefined),
          onClearFilters: () => search({}),
        }}
        columns={columns}
        cards={cards}
        dataSource={list.data?.rows ?? []}
        page={view}
        total={list.data?.total ?? 0}
        pageSizeOptions={[...PAGE_SIZES]}
        onPage={(page) => show({ ...view, ...page })}
      />
      <CheckInDialog resident={checkingIn} onClose={() => setCheckingIn(null)} />
      <AbsenceDialog resident={absent} onClose={() => setAbsent(null)} />
    </div>
  );
};

export default ResidentManagePage;
