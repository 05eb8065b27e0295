import { deviceStockList, deviceStockRemove } from '@vigil/contract/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Select, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { ConfirmLink } from '../../shared/ui/crud.tsx';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { shortTime, typeLabel, typeOptions } from './device-labels.ts';
import type { StockRow } from './device-model.ts';
import { RegistryImport } from './RegistryImport.tsx';
import { StockEntryDialog } from './StockEntryDialog.tsx';
import { StockSecretDialog } from './StockSecretDialog.tsx';
import { useDeviceTypes } from './useDeviceTypes.ts';
import { PagedTable } from '../../shared/ui/PagedTable.tsx';

type StockState = StockRow['stockState'];
interface StockFilters {
  keyWord?: string;
  deviceType?: number;
  stockState?: StockState;
}

const dash = '—';

/**
 * The device registry (platform device administrators): every manufactured device ID loaded, in
 * stock or added by a provider. Entries are loaded one by one or from a spreadsheet; an entry
 * loaded by mistake is removed while it is still in stock.
 */
export const DeviceRegistry = () => {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const onError = useApiError();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<StockFilters>({});
  /** Bumped to empty the filter inputs when the filters are cleared. */
  const [filterInputs, setFilterInputs] = useState(0);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const [adding, setAdding] = useState(false);
  /** The entry whose secret is being set or rotated. */
  const [secretFor, setSecretFor] = useState<StockRow | null>(null);
  const { types } = useDeviceTypes('all', true);

  const filter = (change: StockFilters) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage((p) => ({ ...p, pageNum: 1 }));
  };
  const list = useQuery({
    queryKey: ['devices', 'stock', filters, page],
    queryFn: () => api(deviceStockList, { ...page, ...filters }),
  });
  const filtered = Object.values(filters).some((value) => value !== undefined);
  const clearFilters = () => {
    setFilterInputs((n) => n + 1);
    setFilters({});
    setPage((p) => ({ ...p, pageNum: 1 }));
  };
  const remove = useMutation({
    mutationFn: (deviceId: string) => api(deviceStockRemove, { deviceId }),
    onSuccess: (_, deviceId) => {
      void message.success(t('registry.removed', { deviceId }));
      void queryClient.invalidateQueries({ queryKey: ['devices', 'stock'] });
    },
    onError,
  });

  const modelOf = (row: StockRow) => {
    const type = types.find((x) => x.code === row.deviceType);
    return type ? typeLabel(t, type) : (row.model ?? String(row.deviceType));
  };
  const columns: ColumnsType<StockRow> = [
    {
      title: t('field.deviceId'),
      dataIndex: 'deviceId',
      render: (id: string) => (
        <Typography.Text copyable strong>
          {id}
        </Typography.Text>
      ),
    },
    { title: t('field.cipherId'), dataIndex: 'cipherId', render: (v: string | null) => v ?? dash },
    { title: t('field.type'), dataIndex: 'deviceType', render: (_, row) => modelOf(row) },
    { title: t('field.imei'), dataIndex: 'imei', render: (v: string | null) => v ?? dash },
    { title: t('field.imei4g'), dataIndex: 'imei4g', render: (v: string | null) => v ?? dash },
    { title: t('field.iccid'), dataIndex: 'iccid', render: (v: string | null) => v ?? dash },
    { title: t('field.firmwareType'), dataIndex: 'firmwareType', render: (v: string | null) => v ?? dash },
    { title: t('field.batch'), dataIndex: 'batch', render: (v: string | null) => v ?? dash },
    { title: t('registry.importTime'), dataIndex: 'importTime', render: (v: string) => shortTime(v) },
    {
      title: t('field.secret'),
      dataIndex: 'hasSecret',
      render: (_, row) =>
        row.hasSecret ? (
          <Space orientation="vertical" size={0}>
            <Tag color="green">{t('secret.isSet')}</Tag>
            <Typography.Text type="secondary" data-testid="stock-secret-time">
              {shortTime(row.secretSetTime)}
            </Typography.Text>
          </Space>
        ) : (
          <Tag>{t('secret.notSet')}</Tag>
        ),
    },
    {
      title: t('registry.state'),
      dataIndex: 'stockState',
      render: (_, row) =>
        row.stockState === 'in_stock' ? (
          <Tag color="green">{t('registry.inStock')}</Tag>
        ) : (
          <Tag color="blue">{t('registry.addedBy', { provider: row.providerName ?? dash })}</Tag>
        ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" data-testid="stock-secret" onClick={() => setSecretFor(row)}>
            {t(row.hasSecret ? 'secret.rotate' : 'secret.set')}
          </Button>
          <ConfirmLink
            danger
            label={t('registry.remove')}
            title={t('registry.remove')}
            // The server removes only an entry still in stock (device.notInStock).
            refusal={row.stockState === 'in_stock' ? null : t('registry.removeAdded')}
            content={t('registry.removeConfirm', { deviceId: row.deviceId })}
            onOk={() => remove.mutateAsync(row.deviceId).catch(() => undefined)}
          />
        </Space>
      ),
    },
  ];

  return (
    <div>
      <Space style={{ marginBottom: 16 }} wrap key={filterInputs}>
        <Input.Search
          data-testid="stock-search"
          allowClear
          placeholder={t('registry.keyword')}
          enterButton={t('common.search')}
          style={{ width: 380 }}
          onSearch={(value) => filter({ keyWord: value.trim() || undefined })}
        />
        <Select<number>
          data-testid="stock-filter-type"
          aria-label={t('field.type')}
          placeholder={t('field.type')}
          allowClear
          style={{ minWidth: 220 }}
          options={typeOptions(t, types)}
          onChange={(deviceType?: number) => filter({ deviceType })}
        />
        <Select<StockState>
          data-testid="stock-filter-state"
          aria-label={t('registry.state')}
          placeholder={t('registry.state')}
          allowClear
          style={{ minWidth: 140 }}
          options={[
            { value: 'in_stock', label: t('registry.inStock') },
            { value: 'added', label: t('registry.addedState') },
          ]}
          onChange={(stockState?: StockState) => filter({ stockState })}
        />
        <Button type="primary" data-testid="stock-add" onClick={() => setAdding(true)}>
          {t('registry.add')}
        </Button>
        <RegistryImport />
      </Space>
      <PagedTable<StockRow>
        data-testid="stock-table"
        rowKey="deviceId"
        size="middle"
        query={list}
        filters={{ filtered, onClearFilters: clearFilters }}
        columns={columns}
        dataSource={list.data?.rows ?? []}
        page={page}
        total={list.data?.total ?? 0}
        onPage={setPage}
      />
      {adding && <StockEntryDialog types={types} onClose={() => setAdding(false)} />}
      {secretFor && (
        // Keyed by entry: another entry's dialog never starts with this one's state.
        <StockSecretDialog key={secretFor.deviceId} entry={secretFor} onClose={() => setSecretFor(null)} />
      )}
    </div>
  );
};
