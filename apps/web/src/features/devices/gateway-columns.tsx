import { Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { batteryText, OnlineTag, PairTag, signalText } from '../../shared/ui/DeviceState.tsx';
import { Connection, PendingTags, WIDTH } from './device-columns.tsx';
import { shortTime } from './device-labels.ts';
import type { GatewayHostRow, SubDeviceRow } from './device-model.ts';

const dash = '—';
const secondary = (text: ReactNode) => (
  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
    {text}
  </Typography.Text>
);
interface StateRow {
  online: boolean;
  commMode?: string | null;
  lastSeenTime: string | null;
  pendingCommands: string[];
}
const state = (t: TFunction, row: StateRow) => (
  <Space orientation="vertical" size={0}>
    {row.commMode === undefined ? (
      <OnlineTag online={row.online} />
    ) : (
      <Connection row={{ online: row.online, commMode: row.commMode }} t={t} />
    )}
    {row.lastSeenTime && secondary(t('state.lastSeen', { time: shortTime(row.lastSeenTime) }))}
    <PendingTags commands={row.pendingCommands} t={t} />
  </Space>
);

/** The host list's own widths; the rest are the device table's (WIDTH). */
const HOST_WIDTH = { model: 100, subs: 100, actions: 290 } as const;
/** The expand button's column, which antd adds in front. */
export const EXPAND_WIDTH = 48;

/** Columns of the gateway host list; like the device table it fits 1440 px for a provider. */
export const hostColumns = (o: {
  t: TFunction;
  showProvider: boolean;
  maxSubDevices: number;
  actions: (row: GatewayHostRow) => ReactNode;
  /** The actions column stays in place while the others scroll (wide screens only, as the device table's). */
  pinned?: boolean;
}): ColumnsType<GatewayHostRow> => {
  const { t } = o;
  const columns: ColumnsType<GatewayHostRow> = [
    {
      title: t('field.hostId'),
      dataIndex: 'deviceId',
      width: WIDTH.device,
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text copyable strong>
            {row.deviceId}
          </Typography.Text>
          {row.name}
          {row.cipherId && secondary(t('field.cipherIdShort', { id: row.cipherId }))}
        </Space>
      ),
    },
    { title: t('field.model'), dataIndex: 'model', width: HOST_WIDTH.model },
    ...(o.showProvider ? [{ title: t('field.provider'), dataIndex: 'providerName', width: WIDTH.provider }] : []),
    { title: t('field.online'), key: 'online', width: WIDTH.online, render: (_, row) => state(t, row) },
    {
      title: t('field.versions'),
      key: 'versions',
      width: WIDTH.versions,
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          {t('field.firmwareShort', { version: row.firmwareVersion ?? dash })}
          {secondary(t('field.hardwareShort', { version: row.hardwareVersion ?? dash }))}
        </Space>
      ),
    },
    {
      title: t('field.signal'),
      dataIndex: 'signal',
      width: WIDTH.signal,
      render: (_, row) => signalText(row.signal, row.signalUnit),
    },
    {
      title: t('gateway.subDevices'),
      key: 'subs',
      width: HOST_WIDTH.subs,
      render: (_, row) => (
        <Tag color={row.subDevices.length >= o.maxSubDevices ? 'red' : 'default'}>
          {t('gateway.subCount', { count: row.subDevices.length, max: o.maxSubDevices })}
        </Tag>
      ),
    },
  ];
  columns.push({
    title: t('common.actions'),
    key: 'actions',
    ...(o.pinned === false ? {} : { fixed: 'right' as const }),
    width: HOST_WIDTH.actions,
    render: (_, row) => o.actions(row),
  });
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
    { title: t('field.battery'), dataIndex: 'battery', render: (v: number | null) => batteryText(v) },
    { title: t('field.signal'), dataIndex: 'signal', render: (_, row) => signalText(row.signal, row.signalUnit) },
    {
      title: t('field.pairState'),
      dataIndex: 'pairState',
      render: (_, row) => (row.pairState ? <PairTag state={row.pairState} /> : dash),
    },
    { title: t('common.actions'), key: 'actions', render: (_, row) => o.actions(row) },
  ];
};
