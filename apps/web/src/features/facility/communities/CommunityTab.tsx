import { deleteCommunity, queryCommunityList } from '@vigil/contract/browser';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { formatDateTime } from '../../../shared/ui/datetime.ts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.ts';
import { ConfirmLink } from '../../../shared/ui/crud.tsx';
import { useApiError } from '../../../shared/ui/useApiError.ts';
import type { Community } from '../facility-model.ts';
import { AlarmSettingsDialog } from './AlarmSettingsDialog.tsx';
import { CommunityDialog } from './CommunityDialog.tsx';
import { SleepSettingsDialog } from './SleepSettingsDialog.tsx';
import { PagedTable } from '../../../shared/ui/PagedTable.tsx';

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; community: Community }
  | { kind: 'sleep'; community: Community }
  | { kind: 'alarm'; community: Community };

/** Communities of community care providers: list, create, edit, delete, members' sleep settings and alarm settings. */
export const CommunityTab = ({ platform }: { platform: boolean }) => {
  const { t } = useTranslation('facility');
  const onError = useApiError();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [keyWord, setKeyWord] = useState<string | undefined>(undefined);
  /** Bumped to empty the search box when the filter is cleared. */
  const [filterInputs, setFilterInputs] = useState(0);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const [dialog, setDialog] = useState<Dialog | null>(null);

  const list = useQuery({
    queryKey: ['communities', keyWord, page],
    queryFn: () => api(queryCommunityList, { ...page, keyWord }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['communities'] });
  const remove = useMutation({
    mutationFn: (id: number) => api(deleteCommunity, { id }),
    onSuccess: () => {
      void message.success(t('feedback.deleted'));
      refresh();
    },
    onError,
  });
  const saved = () => {
    setDialog(null);
    void message.success(t('feedback.saved'));
    refresh();
  };

  const columns: ColumnsType<Community> = [
    { title: t('community.name'), dataIndex: 'name' },
    ...(platform ? [{ title: t('field.provider'), dataIndex: 'providerName' }] : []),
    { title: t('community.address'), dataIndex: 'address', ellipsis: true },
    { title: t('community.contact'), dataIndex: 'contact' },
    { title: t('community.phone'), dataIndex: 'phone' },
    { title: t('community.residents'), dataIndex: 'residentCount' },
    {
      title: t('community.alarmLevels'),
      key: 'alarm',
      render: (_, c) =>
        c.alarmConfig ? (
          <Space size={4}>
            <Tag color="red">{t('alarm.level1Count', { count: c.alarmConfig.level1.length })}</Tag>
            <Tag color="blue">{t('alarm.receiverCount', { count: c.alarmConfig.receiverIds.length })}</Tag>
          </Space>
        ) : (
          <Tag>{t('alarm.notSet')}</Tag>
        ),
    },
    {
      title: t('common.createTime'),
      dataIndex: 'createTime',
      render: (time: string) => formatDateTime(time),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, c) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setDialog({ kind: 'edit', community: c })}>
            {t('common.edit')}
          </Button>
          <Button type="link" size="small" onClick={() => setDialog({ kind: 'sleep', community: c })}>
            {t('sleep.open')}
          </Button>
          <Button type="link" size="small" onClick={() => setDialog({ kind: 'alarm', community: c })}>
            {t('alarm.open')}
          </Button>
          <ConfirmLink
            danger
            label={t('common.delete')}
            title={t('common.delete')}
            // The server refuses a community that still has residents (community.hasResidents).
            refusal={c.residentCount > 0 ? t('refused.communityHasResidents') : null}
            content={t('community.deleteConfirm', { name: c.name })}
            onOk={() => remove.mutateAsync(c.id).catch(() => undefined)}
          />
        </Space>
      ),
    },
  ];

  return (
    <div>
      <Space wrap style={{ marginBottom: 16 }} key={filterInputs}>
        <Input.Search
          data-testid="community-search"
          style={{ width: 340 }}
          allowClear
          maxLength={64}
          placeholder={t('community.searchPlaceholder')}
          enterButton={t('common.search')}
          onSearch={(value) => {
            setKeyWord(value.trim() || undefined);
            setPage((p) => ({ ...p, pageNum: 1 }));
          }}
        />
        <Button type="primary" data-testid="community-create" onClick={() => setDialog({ kind: 'create' })}>
          {t('community.create')}
        </Button>
      </Space>
      <PagedTable<Community>
        data-testid="community-table"
        rowKey="id"
        query={list}
        filters={{
          filtered: keyWord !== undefined,
          onClearFilters: () => {
            setFilterInputs((n) => n + 1);
            setKeyWord(undefined);
            setPage((p) => ({ ...p, pageNum: 1 }));
          },
        }}
        columns={columns}
        dataSource={list.data?.rows ?? []}
        page={page}
        total={list.data?.total ?? 0}
        onPage={setPage}
      />
      {dialog?.kind === 'create' && (
        <CommunityDialog platform={platform} onClose={() => setDialog(null)} onSaved={saved} />
      )}
      {dialog?.kind === 'edit' && (
        <CommunityDialog
          platform={platform}
          community={dialog.community}
          onClose={() => setDialog(null)}
          onSaved={saved}
        />
      )}
      {dialog?.kind === 'sleep' && (
        <SleepSettingsDialog community={dialog.community} onClose={() => setDialog(null)} onSaved={saved} />
      )}
      {dialog?.kind === 'alarm' && (
        <AlarmSettingsDialog community={dialog.community} onClose={() => setDialog(null)} onSaved={saved} />
      )}
    </div>
  );
};
