import {
  getDeviceList,
  greyDeviceDelete,
  greyDeviceList,
  greyDevicePost,
  type EndpointResult,
} from '@vigil/contract/browser';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Input, Modal, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { callKey } from '../../shared/api/use-call.ts';
import { ConfirmLink } from '../../shared/ui/crud.tsx';
import { PagedTable } from '../../shared/ui/PagedTable.tsx';
import { useApiError } from '../../shared/ui/useApiError.ts';
import { actionsFor, deviceTypeLabel, type Firmware, type GreyDevice } from './firmware-model.ts';
import { UpgradeStateCell } from './firmware-ui.tsx';
import { refusableOk } from '../../shared/ui/Refused.tsx';

type DeviceRow = EndpointResult<typeof getDeviceList>['rows'][number];

/** At most this many whitelist entries are read to mark the picker's devices already on it (the call's page limit). */
const WHITELIST_READ = 1000;

export const OnlineTag = ({ online }: { online: boolean }) => {
  const { t } = useTranslation('firmware');
  return <Tag color={online ? 'green' : 'default'}>{t(online ? 'device.online' : 'device.offline')}</Tag>;
};

/** Devices of the package's type in the caller's scope, several chosen at once (across pages and searches). */
const DevicePicker = ({
  pkg,
  open,
  onClose,
  onAdded,
}: {
  pkg: Firmware;
  open: boolean;
  onClose: () => void;
  onAdded: () => void;
}) => {
  const { t } = useTranslation('firmware');
  const { message } = App.useApp();
  const onError = useApiError();
  const [keyWord, setKeyWord] = useState<string | undefined>();
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const [chosen, setChosen] = useState<string[]>([]);
  const request = { deviceType: pkg.deviceType, pageNum: page.pageNum, pageSize: page.pageSize, keyWord };
  const devices = useQuery({
    queryKey: callKey(getDeviceList, request),
    queryFn: () => api(getDeviceList, request),
    placeholderData: keepPreviousData,
    enabled: open,
  });
  const listed = useQuery({
    queryKey: callKey(greyDeviceList, { id: pkg.id, pageNum: 1, pageSize: WHITELIST_READ }),
    queryFn: () => api(greyDeviceList, { id: pkg.id, pageNum: 1, pageSize: WHITELIST_READ }),
    enabled: open,
  });
  const onList = new Set((listed.data?.rows ?? []).map((d) => d.deviceId));
  const add = useMutation({
    mutationFn: () => api(greyDevicePost, { id: pkg.id, deviceIds: chosen }),
    onSuccess: (result) => {
      void message.success(t('done.added', { count: result.added }));
      setChosen([]);
      onAdded();
      onClose();
    },
    onError,
  });

  const columns: ColumnsType<DeviceRow> = [
    { title: t('column.deviceId'), dataIndex: 'deviceId' },
    { title: t('column.name'), dataIndex: 'name', render: (name: string | null) => name ?? '—' },
    { title: t('column.provider'), dataIndex: 'providerName' },
    { title: t('column.online'), dataIndex: 'online', render: (online: boolean) => <OnlineTag online={online} /> },
    {
      title: t('column.firmwareVersion'),
      dataIndex: 'firmwareVersion',
      render: (version: string | null, row) => (
        <Space size={4}>
          <span>{version ?? '—'}</span>
          {onList.has(row.deviceId) && <Tag>{t('picker.onList')}</Tag>}
        </Space>
      ),
    },
  ];

  return (
    <Modal
      open={open}
      title={t('picker.title', { type: deviceTypeLabel(t, pkg.deviceType) })}
      width={820}
      okText={t('picker.submit', { count: chosen.length })}
      cancelText={t('common.cancel')}
      {...refusableOk(chosen.length === 0 ? t('picker.chooseFirst') : undefined, { 'data-testid': 'picker-submit' })}
      confirmLoading={add.isPending}
      onOk={() => add.mutate()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Input.Search
        data-testid="picker-search"
        allowClear
        placeholder={t('picker.search')}
        enterButton={t('common.search')}
        style={{ marginBottom: 12, maxWidth: 420 }}
        onSearch={(value) => {
          setKeyWord(value.trim() || undefined);
          setPage((p) => ({ ...p, pageNum: 1 }));
        }}
      />
      <PagedTable<DeviceRow>
        data-testid="picker-table"
        rowKey="deviceId"
        size="small"
        query={devices}
        columns={columns}
        dataSource={devices.data?.rows ?? []}
        page={page}
        total={devices.data?.total ?? 0}
        onPage={setPage}
        rowSelection={{
          selectedRowKeys: chosen,
          preserveSelectedRowKeys: true,
          onChange: (keys) => setChosen(keys.map(String)),
          getCheckboxProps: (row) => ({ disabled: onList.has(row.deviceId) }),
        }}
      />
    </Modal>
  );
};

/**
 * A package's whitelist: the devices a grey release goes to, each with its state and its upgrade
 * to this package. Devices are added and removed until the full release; added to a package in
 * grey release, they join its rollout at once.
 */
export const WhitelistDrawer = ({
  pkg,
  onClose,
  onChanged,
}: {
  pkg: Firmware | null;
  onClose: () => void;
  onChanged: () => void;
}) => {
  const { t } = useTranslation('firmware');
  const { message } = App.useApp();
  const onError = useApiError();
  const queryClient = useQueryClient();
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const [picking, setPicking] = useState(false);
  const id = pkg?.id ?? 0;
  const request = { id, ...page };
  const list = useQuery({
    queryKey: callKey(greyDeviceList, request),
    queryFn: () => api(greyDeviceList, request),
    placeholderData: keepPreviousData,
    enabled: pkg !== null,
  });
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: [greyDeviceList.path] });
    onChanged();
  };
  const remove = useMutation({
    mutationFn: (deviceId: string) => api(greyDeviceDelete, { id, deviceId }),
    onSuccess: () => {
      void message.success(t('done.removed'));
      changed();
    },
    onError,
  });
  const editable = pkg ? actionsFor(pkg).editWhitelist : false;

  const columns: ColumnsType<GreyDevice> = [
    { title: t('column.deviceId'), dataIndex: 'deviceId' },
    { title: t('column.name'), dataIndex: 'name', render: (name: string | null) => name ?? '—' },
    { title: t('column.provider'), dataIndex: 'providerName' },
    { title: t('column.online'), dataIndex: 'online', render: (online: boolean) => <OnlineTag online={online} /> },
    {
      title: t('column.firmwareVersion'),
      dataIndex: 'firmwareVersion',
      render: (version: string | null) => version ?? '—',
    },
    {
      title: t('column.upgrade'),
      key: 'upgrade',
      render: (_, row) => <UpgradeStateCell state={row.upgradeState} progress={row.progress} />,
    },
    ...(editable
      ? [
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_: unknown, row: GreyDevice) => (
              <ConfirmLink
                danger
                label={t('whitelist.remove')}
                title={t('whitelist.remove')}
                content={t('whitelist.removeConfirm', { deviceId: row.deviceId })}
                onOk={() => remove.mutateAsync(row.deviceId)}
              />
            ),
          },
        ]
      : []),
  ];

  return (
    <Drawer
      open={pkg !== null}
      size={900}
      title={pkg ? t('whitelist.title', { version: pkg.version, type: deviceTypeLabel(t, pkg.deviceType) }) : ''}
      onClose={onClose}
      destroyOnHidden
      extra={
        editable && (
          <Button type="primary" data-testid="whitelist-add" onClick={() => setPicking(true)}>
            {t('whitelist.add')}
          </Button>
        )
      }
    >
      {pkg && !editable && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="whitelist-locked"
          title={t(pkg.state === 'offline' ? 'whitelist.lockedOffline' : 'whitelist.lockedFull')}
        />
      )}
      {pkg?.state === 'grey' && (
        <Typography.Paragraph type="secondary">{t('whitelist.joinsGrey')}</Typography.Paragraph>
      )}
      <PagedTable<GreyDevice>
        data-testid="whitelist-table"
        rowKey="deviceId"
        size="small"
        query={list}
        loading={list.isPending || list.isPlaceholderData}
        locale={{ emptyText: t('whitelist.empty') }}
        columns={columns}
        dataSource={list.data?.rows ?? []}
        page={page}
        total={list.data?.total ?? 0}
        onPage={setPage}
      />
      {pkg && editable && <DevicePicker pkg={pkg} open={picking} onClose={() => setPicking(false)} onAdded={changed} />}
    </Drawer>
  );
};
