/**
 * Caregiver management (/nurse-manage/nurseManage). Two variants share this page and its calls
 * (spec doc 1 §2: "a different variant is used when the overseas flag is stored"; the server
 * decides the flag, decision 0033):
 * - domestic: "caregivers" (护理员), mainland mobile numbers;
 * - overseas (session info `abroad`, mirrored to isAbroad): the wording of an international care home
 *   ("care staff", 护理人员), international numbers.
 * Only wording differs on the list; the phone entry and the app hint differ on the edit page.
 */
import { queryNursingList } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { Button, Input, Select, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../shared/api/client.ts';
import { EnabledTag } from '../../shared/ui/crud.tsx';
import { CAREGIVER_LEVELS, type CaregiverFilters, type CaregiverLevel, type CaregiverRow } from './caregiver-model.ts';
import { CaregiverRowActions } from './CaregiverRowActions.tsx';
import { CaregiverTransfer } from './CaregiverTransfer.tsx';
import { EDIT_PATH } from './paths.ts';
import { useCaregiverTexts } from './useCaregiverTexts.ts';
import { PagedTable } from '../../shared/ui/PagedTable.tsx';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

type EnabledChoice = 'enabled' | 'disabled';

/** Linked residents as a count; their names on hover. */
const ResidentsCell = ({ residents }: { residents: CaregiverRow['residents'] }) => {
  const { t } = useCaregiverTexts();
  if (residents.length === 0) return <Typography.Text type="secondary">0</Typography.Text>;
  return (
    <Tooltip title={residents.map((r) => r.name).join(t('list.nameSeparator'))}>
      <Typography.Link data-testid="resident-count">{residents.length}</Typography.Link>
    </Tooltip>
  );
};

const CaregiverManagePage = () => {
  const { t, v, levelLabel } = useCaregiverTexts();
  const navigate = useNavigate();
  const [filters, setFilters] = useState<CaregiverFilters>({});
  /** Bumped to empty the filter inputs when the filters are cleared. */
  const [filterInputs, setFilterInputs] = useState(0);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });

  /** A narrower list may not have the current page, so every filter change starts at page 1. */
  const filter = (change: CaregiverFilters) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage((p) => ({ ...p, pageNum: 1 }));
  };

  const list = useQuery({
    queryKey: ['caregivers', 'list', filters, page],
    queryFn: () => api(queryNursingList, { ...page, ...filters }),
  });
  const filtered = Object.values(filters).some((value) => value !== undefined);
  const clearFilters = () => {
    setFilterInputs((n) => n + 1);
    setFilters({});
    setPage((p) => ({ ...p, pageNum: 1 }));
  };

  const columns: ColumnsType<CaregiverRow> = [
    { title: v('field.name'), dataIndex: 'name' },
    { title: t('field.phone'), dataIndex: 'phone' },
    {
      title: t('list.userName'),
      dataIndex: 'userName',
      render: (userName: string | null) => userName ?? '—',
    },
    { title: v('field.job'), dataIndex: 'job', render: (job: string | null) => job ?? '—' },
    {
      title: t('field.level'),
      dataIndex: 'level',
      render: (level: CaregiverLevel) => <Tag color={level === 'lead' ? 'gold' : 'default'}>{levelLabel(level)}</Tag>,
    },
    {
      title: t('list.residents'),
      dataIndex: 'residents',
      render: (residents: CaregiverRow['residents']) => <ResidentsCell residents={residents} />,
    },
    {
      title: t('common.status'),
      dataIndex: 'enabled',
      render: (enabled: boolean) => <EnabledTag enabled={enabled} />,
    },
    {
      title: t('common.actions'),
      key: 'actions',
      // Stays in view when the columns are wider than the screen.
      fixed: 'right',
      render: (_, row) => <CaregiverRowActions row={row} />,
    },
  ];

  return (
    <div>
      <ScreenTitle route="nurseManage" />
      <Space style={{ marginBottom: 16 }} wrap key={filterInputs}>
        <Input.Search
          data-testid="caregiver-search"
          allowClear
          style={{ width: 340 }}
          placeholder={t('list.keyword')}
          enterButton={t('common.search')}
          onSearch={(value) => filter({ keyWord: value.trim() || undefined })}
        />
        <Select<CaregiverLevel>
          data-testid="caregiver-filter-level"
          aria-label={t('field.level')}
          placeholder={t('field.level')}
          allowClear
          style={{ minWidth: 150 }}
          options={CAREGIVER_LEVELS.map((level) => ({ value: level, label: levelLabel(level) }))}
          onChange={(level?: CaregiverLevel) => filter({ level })}
        />
        <Select<EnabledChoice>
          data-testid="caregiver-filter-enabled"
          aria-label={t('common.status')}
          placeholder={t('common.status')}
          allowClear
          style={{ minWidth: 120 }}
          options={[
            { value: 'enabled', label: t('common.enabled') },
            { value: 'disabled', label: t('common.disabled') },
          ]}
          onChange={(choice?: EnabledChoice) =>
            filter({ enabled: choice === undefined ? undefined : choice === 'enabled' })
          }
        />
        <Button type="primary" data-testid="caregiver-create" onClick={() => void navigate(EDIT_PATH)}>
          {v('create')}
        </Button>
        <CaregiverTransfer filters={filters} />
      </Space>
      <PagedTable<CaregiverRow>
        data-testid="caregiver-table"
        rowKey="id"
        query={list}
        filters={{ filtered, onClearFilters: clearFilters }}
        columns={columns}
        dataSource={list.data?.rows ?? []}
        page={page}
        total={list.data?.total ?? 0}
        onPage={setPage}
      />
    </div>
  );
};

export default CaregiverManagePage;
