import { Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { OnlineTag, PendingTags } from './device-columns.tsx';
import { shortTime } from './device-labels.ts';
import type { GatewayHostRow, SubDeviceRow } from './device-model.ts';

const dash = '—';
const secondary = (text: ReactNode) => (
  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
    {text}
  </Typography.Text>
);
const state = (t: TFunction, row: { online: boolean; lastSeenTime: string | null; pendingCommands: string[] }) => (
  <Space orientation="vertical" size={0}>
    <OnlineTag online={row.online} t={t} />
    {row.lastSeenTime && secondary(t('state.lastSeen', { time: shortTime(row.lastSeenTime) }))}
    <PendingTags commands={row.pendingCommands} t={t} />
  </Space>
);

/** Columns of the gateway host list. */
export const hostColumns = (o: {
  t: TFunction;
  showProvider: boolean;
  maxSubDevices: number;
  actions: (row: GatewayHostRow) => ReactNode;
}): ColumnsType<GatewayHostRow> => {
  const { t } = o;
  const columns: ColumnsType<GatewayHostRow> = [
    {
      title: t('field.hostId'),
      dataIndex: 'deviceId',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text copyable strong>
            {row.deviceId}
          </Typography.Text>
          {row.cipherId && secondary(t('field.cipherIdShort', { id: row.cipherId }))}
        </Space>
      ),
    },
    { title: t('field.model'), dataIndex: 'model' },
    { title: t('field.name'), dataIndex: 'name', render: (v: string | null) => v ?? dash },
    ...(o.showProvider ? [{ title: t('field.provider'), dataIndex: 'providerName' }] : []),
    { title: t('field.online'), key: 'online', render: (_, row) => state(t, row) },
    {
      title: t('field.commMode'),
      dataIndex: 'commMode',
      render: (mode: string | null) => (mode ? t(`commMode.${mode}`) : dash),
    },
    {
      title: t('field.versions'),
      key: 'versions',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          {t('field.firmwareShort', { version: row.firmwareVersion ?? dash })}
          {secondary(t('field.hardwareShort', { version: row.hardwareVersion ?? dash }))}
        </Space>
      ),
    },
    { title: t('field.signal'), dataIndex: 'signal', render: (v: number | null) => v ?? dash },
    {
      title: t('gateway.subDevices'),
      key: 'subs',
      render: (_, row) => (
        <Tag color={row.subDevices.length >= o.maxSubDevices ? 'red' : 'default'}>
          {t('gateway.subCount', { count: row.subDevices.length, max: o.maxSubDevices })}
        </Tag>
      ),
    },
  ];
  columns.push({ title: t('common.actions'), key: 'actions', fixed: 'right', render: (_, row) => o.actions(row) });
  return columns;
};

/** Columns of a host's sub-devices (the expanded row). */
export const subDeviceColumns = (o: {
  t: TFunction;
  actions: (row: SubDeviceRow) => ReactNode;
}): ColumnsType<SubDeviceRow> => {
  const { t } = o;
  return [
    {
      title: t('field.deviceId'),
      dataIndex: 'deviceId',
      render: (id: string) => <Typography.Text copyable>{id}</Typography.Text>,
    },
    {
      title: t('field.type'),
      dataIndex: 'model',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          {row.model}
          {secondary(t(`kind.${row.kind}`))}
        </Space>
      ),
    },
    { title: t('field.name'), dataIndex: 'name', render: (v: string | null) => v ?? dash },
    { title: t('field.online'), key: 'online', render: (_, row) => state(t, row) },
    { title: t('field.battery'), dataIndex: 'battery', render: (v: number | null) => (v === null ? dash : `${v}%`) },
    { title: t('field.signal'), dataIndex: 'signal', render: (v: number | null) => v ?? dash },
    {
      title: t('field.pairState'),
      dataIndex: 'paired',
      render: (paired: boolean) => (
        <Tag color={paired ? 'blue' : 'gold'}>{t(paired ? 'state.paired' : 'state.unpaired')}</Tag>
      ),
    },
    { title: t('common.actions'), key: 'actions', render: (_, row) => o.actions(row) },
  ];
};
