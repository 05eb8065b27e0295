import {
  deviceTypeByCode,
  originDataDelete,
  originDataDeleteAll,
  originDataDownload,
  originDataList,
  type EndpointResult,
} from '@vigil/contract/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Input, Select, Space, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, download } from '../../shared/api/client.ts';
import { ConfirmLink } from '../../shared/ui/crud.tsx';
import { PagedTable } from '../../shared/ui/PagedTable.tsx';
import { saveFile } from '../../shared/ui/save-file.ts';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { useProviderOptions } from '../devices/useProviderOptions.ts';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

export type RawDayRow = EndpointResult<typeof originDataList>['rows'][number];
interface RawFilters {
  deviceId?: string;
  day?: string;
  providerId?: number;
}

const DAY_FORMAT = 'YYYY-MM-DD';
const dash = '—';
/** The minute of an ISO instant in UTC ("08:01"): the list's days are UTC days. */
const utcMinute = (iso: string) => iso.slice(11, 16);

/**
 * Original (raw) data (`/deviceManage/historyData`, platform device administrators): the raw
 * samples kept for devices whose raw upload is on, one row per device and UTC day. A day is
 * downloaded as CSV or deleted; all of a device's raw data is deleted at once after a
 * confirmation stating how much goes.
 */
const HistoryDataPage = () => {
  const { t } = useTranslation('history-data');
  const { message } = App.useApp();
  const onError = useApiError();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<RawFilters>({});
  /** Bumped to empty the filter inputs when the filters are cleared. */
  const [filterInputs, setFilterInputs] = useState(0);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const [downloading, setDownloading] = useState<string | null>(null);
  // Every caller of this screen is a platform role: the provider filter is always offered.
  const providers = useProviderOptions(true);

  const filter = (change: RawFilters) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage((p) => ({ ...p, pageNum: 1 }));
  };
  const list = useQuery({
    queryKey: ['originData', 'list', filters, page],
    queryFn: () => api(originDataList, { ...page, ...filters }),
  });
  const filtered = Object.values(filters).some((value) => value !== undefined);
  const clearFilters = () => {
    setFilterInputs((n) => n + 1);
    setFilters({});
    setPage((p) => ({ ...p, pageNum: 1 }));
  };

  const afterDelete = (deleted: number) => {
    void message.success(t('deleted', { count: deleted }));
    void queryClient.invalidateQueries({ queryKey: ['originData'] });
  };
  const removeDay = useMutation({
    mutationFn: (row: RawDayRow) => api(originDataDelete, { deviceId: row.deviceId, day: row.day }),
    onSuccess: ({ deleted }) => afterDelete(deleted),
    onError,
  });
  const removeAll = useMutation({
    mutationFn: (row: RawDayRow) => api(originDataDeleteAll, { deviceId: row.deviceId }),
    onSuccess: ({ deleted }) => afterDelete(deleted),
    onError,
  });
  const downloadDay = async (row: RawDayRow) => {
    const key = `${row.deviceId}-${row.day}`;
    setDownloading(key);
    try {
      saveFile(await download(originDataDownload, { deviceId: row.deviceId, day: row.day }), `${key}.csv`);
    } catch (error) {
      onError(error);
    } finally {
      setDownloading(null);
    }
  };

  const columns: ColumnsType<RawDayRow> = [
    {
      title: t('field.deviceId'),
      dataIndex: 'deviceId',
      render: (id: string) => (
        <Typography.Text copyable strong>
          {id}
        </Typography.Text>
      ),
    },
    {
      title: t('field.deviceType'),
      dataIndex: 'deviceType',
      render: (code: number | null) => (code === null ? dash : (deviceTypeByCode(code)?.model ?? String(code))),
    },
    { title: t('field.deviceName'), dataIndex: 'deviceName', render: (v: string | null) => v ?? dash },
    { title: t('field.provider'), dataIndex: 'providerName', render: (v: string | null) => v ?? dash },
    { title: t('field.day'), dataIndex: 'day' },
    { title: t('field.minutes'), dataIndex: 'minutes', align: 'right' },
    { title: t('field.samples'), dataIndex: 'samples', align: 'right' },
    { title: t('field.firstTime'), dataIndex: 'firstTime', render: utcMinute },
    { title: t('field.lastTime'), dataIndex: 'lastTime', render: utcMinute },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0} wrap>
          <Button
            type="link"
            size="small"
            data-testid="raw-download"
            loading={downloading === `${row.deviceId}-${row.day}`}
            onClick={() => void downloadDay(row)}
          >
            {t('action.download')}
          </Button>
          <ConfirmLink
            danger
            label={t('action.delete')}
            title={t('delete.title')}
            content={t('delete.confirm', { deviceId: row.deviceId, day: row.day, minutes: row.minutes })}
            onOk={() => removeDay.mutateAsync(row).catch(() => undefined)}
          />
          <ConfirmLink
            danger
            label={t('action.deleteAll')}
            title={t('deleteAll.title')}
            content={t('deleteAll.confirm', {
              deviceId: row.deviceId,
              minutes: row.deviceMinutes,
              days: row.deviceDays,
            })}
            onOk={() => removeAll.mutateAsync(row).catch(() => undefined)}
          />
        </Space>
      ),
    },
  ];

  return (
    <div>
      <ScreenTitle route="historyData" />
      <Typography.Paragraph type="secondary">{t('note')}</Typography.Paragraph>
      <Space style={{ marginBottom: 16 }} wrap key={filterInputs}>
        <Input.Search
          data-testid="raw-filter-device"
          allowClear
          placeholder={t('field.deviceId')}
          enterButton={t('common.search')}
          style={{ width: 300 }}
          onSearch={(value) => filter({ deviceId: value.trim() || undefined })}
        />
        <DatePicker
          data-testid="raw-filter-day"
          aria-label={t('field.day')}
          placeholder={t('field.day')}
          format={DAY_FORMAT}
          onChange={(value: Dayjs | null) => filter({ day: value ? value.format(DAY_FORMAT) : undefined })}
        />
        <Select<number>
          data-testid="raw-filter-provider"
          aria-label={t('field.provider')}
          placeholder={t('field.provider')}
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ minWidth: 220 }}
          loading={providers.loading}
          options={providers.options}
          onChange={(providerId?: number) => filter({ providerId })}
        />
      </Space>
      <PagedTable<RawDayRow>
        data-testid="raw-table"
        rowKey={(row) => `${row.deviceId} ${row.day}`}
        size="middle"
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
export default HistoryDataPage;
