import { Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { SignalUnit } from '@vigil/contract/browser';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { batteryFigure, OnlineTag, PairTag, signalFigure } from '../../shared/ui/DeviceState.tsx';
import type { CardLayout } from '../../shared/ui/ResponsiveTable.tsx';
import {
  batteryTitle,
  Connection,
  connectionField,
  DeviceHeading,
  PendingTags,
  placeColumn,
  signalTitle,
  WIDTH,
} from './device-columns.tsx';
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
  /** The unit the listed hosts' signals share (listSignalUnit), named in the header. */
  signalUnit?: SignalUnit | null;
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
    placeColumn<GatewayHostRow>(t),
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
      title: signalTitle(t, o.signalUnit ?? null),
      dataIndex: 'signal',
      width: WIDTH.signal,
      render: (_, row) => signalFigure(row.signal, row.signalUnit, o.signalUnit ?? null),
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
    fixed: 'right',
    width: HOST_WIDTH.actions,
    render: (_, row) => o.actions(row),
  });
  return columns;
};

/** Columns of a host's sub-devices (the expanded row). */
export const subDeviceColumns = (o: {
  t: TFunction;
  actions: (row: SubDeviceRow) => ReactNode;
  /** The unit the host's sub-devices' signals share (listSignalUnit). */
  signalUnit?: SignalUnit | null;
}): ColumnsType<SubDeviceRow> => {
  const { t } = o;
  const unit = o.signalUnit ?? null;
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
    { title: batteryTitle(t), dataIndex: 'battery', render: (v: number | null) => batteryFigure(v) },
    {
      title: signalTitle(t, unit),
      dataIndex: 'signal',
      render: (_, row) => signalFigure(row.signal, row.signalUnit, unit),
    },
    {
      title: t('field.pairState'),
      dataIndex: 'pairState',
      render: (_, row) => (row.pairState ? <PairTag state={row.pairState} /> : dash),
    },
    { title: t('common.actions'), key: 'actions', render: (_, row) => o.actions(row) },
  ];
};

/** A gateway host as a card on a phone: its ID and online state, model, connection, sub-device count. */
export const hostCards = (t: TFunction, showProvider: boolean): CardLayout<GatewayHostRow> => ({
  title: (row) => <DeviceHeading deviceId={row.deviceId} name={row.name} />,
  state: (row) => <OnlineTag online={row.online} />,
  fields: [
    'model',
    ...(showProvider ? ['providerName'] : []),
    'devicePlace',
    connectionField<GatewayHostRow>(t),
    'versions',
    'signal',
    'subs',
  ],
  actions: 'actions',
});

/** A host's sensor as a card: its ID, online and pairing state, type, name, connection, battery and signal. */
export const subDeviceCards = (t: TFunction): CardLayout<SubDeviceRow> => ({
  title: (row) => <DeviceHeading deviceId={row.deviceId} name={null} />,
  state: (row) => (
    <Space size={4} wrap>
      <OnlineTag online={row.online} />
      {row.pairState && <PairTag state={row.pairState} />}
    </Space>
  ),
  fields: ['model', 'name', connectionField<SubDeviceRow>(t), 'battery', 'signal'],
  actions: 'actions',
});
