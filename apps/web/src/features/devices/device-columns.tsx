import { Space, Switch, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { SignalUnit } from '@vigil/contract/browser';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { withUnit } from '../../shared/ui/column-title.tsx';
import { batteryFigure, DeviceStateTags, OnlineTag, signalFigure, signalHeader } from '../../shared/ui/DeviceState.tsx';
import type { CardField, CardLayout } from '../../shared/ui/ResponsiveTable.tsx';
import type { DeviceGroup, DeviceRow } from './device-model.ts';
import { placeOf, shortTime } from './device-labels.ts';
import { placeLines } from './device-place.ts';

const dash = '—';

/**
 * Column widths (px). A provider's device table fits the content area of a 1440 px window
 * (about 1150 px beside the sidebar) with every column whole; wider tables (a platform's provider
 * and upload columns, longer languages) scroll sideways, under the fixed ID and actions columns.
 */
export const WIDTH = {
  device: 150,
  type: 100,
  provider: 140,
  place: 140,
  host: 140,
  online: 130,
  install: 140,
  versions: 110,
  signal: 80,
  battery: 75,
  upload: 110,
  actions: 200,
} as const;

/** What a table's columns need side by side: its scroll width (the fixed columns never cover the others). */
export const scrollWidth = (columns: readonly { width?: number | string }[], extra = 0): number =>
  columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : 0), extra);

/** Online state with how the device communicates (Wi-Fi, NB-IoT …) beside it. */
export const Connection = ({ row, t }: { row: { online: boolean; commMode: string | null }; t: TFunction }) => (
  <Space size={4} wrap>
    <OnlineTag online={row.online} />
    {row.commMode && <Typography.Text>{t(`commMode.${row.commMode}`)}</Typography.Text>}
  </Space>
);

/**
 * Signal and battery headers with their units (issue 29, point 14). A list's signals are dBm or a
 * 0–100 level (per cent) as each device reports them: the header names the unit they share, else
 * each cell its own.
 */
export const signalTitle = (t: TFunction, unit: SignalUnit | null) =>
  signalHeader(t('field.signal'), unit, (name, text) => withUnit(t, name, text));
export const batteryTitle = (t: TFunction) => withUnit(t, t('field.battery'), '%');

/** Commands the server holds for the device until it is reached. */
export const PendingTags = ({ commands, t }: { commands: readonly string[]; t: TFunction }) =>
  commands.length ? (
    <Space size={4} wrap>
      {commands.map((c) => (
        <Tag key={c} color="orange">
          {t('state.queued', { command: t(`command.${c}`) })}
        </Tag>
      ))}
    </Space>
  ) : null;

const lines = (...parts: ReactNode[]) => (
  <Space orientation="vertical" size={0}>
    {parts.filter((p) => p !== null && p !== undefined && p !== false)}
  </Space>
);
const secondary = (text: ReactNode) => (
  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
    {text}
  </Typography.Text>
);

/** A firmware upgrade under way, waiting or failed; nothing once it succeeded or was cancelled. */
const upgradeLine = (row: DeviceRow, t: TFunction): ReactNode => {
  const upgrade = row.firmwareUpgrade;
  if (!upgrade || upgrade.state === 'succeeded' || upgrade.state === 'cancelled') return null;
  const text = t(`firmwareUpgrade.${upgrade.state}`, { version: upgrade.version, progress: upgrade.progress });
  return (
    <Typography.Text key="upgrade" type={upgrade.state === 'failed' ? 'danger' : 'warning'} style={{ fontSize: 12 }}>
      {text}
    </Typography.Text>
  );
};

/** Where a device is (decision 0046): "Room 102 · A", a floor, its wearer — or "Place not set", muted. */
export const PlaceCell = ({ row, t, withHost }: { row: DeviceRow; t: TFunction; withHost?: boolean }) => {
  const place = placeLines(t, row);
  const host = withHost && row.hostDeviceId ? secondary(t('place.viaHost', { host: row.hostDeviceId })) : null;
  return lines(
    place ? <span key="p">{place.main}</span> : <span key="p">{secondary(t('place.notSet'))}</span>,
    place?.sub ? <span key="s">{secondary(place.sub)}</span> : null,
    host ? <span key="h">{host}</span> : null,
  );
};

/** The place column of the security, wearable and gateway lists. */
export const placeColumn = <T extends DeviceRow>(t: TFunction, withHost = false): ColumnsType<T>[number] => ({
  title: t('field.placeAny'),
  key: 'devicePlace',
  width: WIDTH.place,
  render: (_, row) => <PlaceCell row={row} t={t} withHost={withHost} />,
});

export interface DeviceColumnOptions {
  t: TFunction;
  group: DeviceGroup;
  /** Platform roles see several providers' devices. */
  showProvider: boolean;
  /** Device administrators switch the raw data upload. */
  uploadSwitch?: (row: DeviceRow) => ReactNode;
  actions: (row: DeviceRow) => ReactNode;
  /** The unit the listed devices' signals share (listSignalUnit), named in the header. */
  signalUnit?: SignalUnit | null;
}

/** The device list's columns; which state columns show depends on the group's kinds. */
export const deviceColumns = (o: DeviceColumnOptions): ColumnsType<DeviceRow> => {
  const { t, group } = o;
  // Sleep monitors and fall radars are linked to beds; security sensors to a gateway host instead.
  const middle: ColumnsType<DeviceRow> =
    group === 'sleep' || group === 'fall'
      ? [
          {
            title: t('field.place'),
            key: 'place',
            width: WIDTH.place,
            render: (_, row) => {
              const place = placeOf(row);
              if (!place && !row.userName) return dash;
              return lines(
                <span key="p">{place ?? dash}</span>,
                row.userName ? (
                  <span key="r">{secondary(t('field.residentShort', { name: row.userName }))}</span>
                ) : null,
              );
            },
          },
        ]
      : group === 'security'
        ? // The gateway host goes under the place: one column fewer keeps the table within 1440 px.
          [placeColumn<DeviceRow>(t, true)]
        : [placeColumn<DeviceRow>(t)];
  const columns: ColumnsType<DeviceRow> = [
    {
      // The device's name goes under its ID: one column fewer keeps the table within 1440 px.
      title: t('field.deviceId'),
      dataIndex: 'deviceId',
      fixed: 'left',
      width: WIDTH.device,
      render: (_, row) =>
        lines(
          <Typography.Text copyable strong key="id">
            {row.deviceId}
          </Typography.Text>,
          row.name ? <span key="name">{row.name}</span> : null,
          row.cipherId ? <span key="cipher">{secondary(t('field.cipherIdShort', { id: row.cipherId }))}</span> : null,
        ),
    },
    {
      title: t('field.type'),
      dataIndex: 'model',
      width: WIDTH.type,
      render: (_, row) =>
        lines(<span key="m">{row.model}</span>, <span key="k">{secondary(t(`kind.${row.kind}`))}</span>),
    },
    ...(o.showProvider ? [{ title: t('field.provider'), dataIndex: 'providerName', width: WIDTH.provider }] : []),
    ...middle,
    {
      title: t('field.online'),
      dataIndex: 'online',
      width: WIDTH.online,
      render: (_, row) =>
        lines(
          <Connection key="o" row={row} t={t} />,
          row.lastSeenTime ? (
            <span key="seen">{secondary(t('state.lastSeen', { time: shortTime(row.lastSeenTime) }))}</span>
          ) : null,
          <PendingTags key="p" commands={row.pendingCommands} t={t} />,
        ),
    },
    {
      title: t('field.installState'),
      key: 'install',
      width: WIDTH.install,
      // Installed, paired (sub-devices) and sensor, as the server derives them for every screen.
      render: (_, row) => <DeviceStateTags state={row} kind={row.kind} withOnline={false} />,
    },
    {
      title: t('field.versions'),
      key: 'versions',
      width: WIDTH.versions,
      render: (_, row) =>
        lines(
          <span key="fw">{t('field.firmwareShort', { version: row.firmwareVersion ?? dash })}</span>,
          <span key="hw">{secondary(t('field.hardwareShort', { version: row.hardwareVersion ?? dash }))}</span>,
          upgradeLine(row, t),
        ),
    },
    {
      title: signalTitle(t, o.signalUnit ?? null),
      dataIndex: 'signal',
      width: WIDTH.signal,
      render: (_, row) => signalFigure(row.signal, row.signalUnit, o.signalUnit ?? null),
    },
    {
      title: batteryTitle(t),
      dataIndex: 'battery',
      width: WIDTH.battery,
      render: (v: number | null) => batteryFigure(v),
    },
  ];
  if (o.uploadSwitch) {
    const render = o.uploadSwitch;
    columns.push({ title: t('field.uploadData'), key: 'upload', width: WIDTH.upload, render: (_, row) => render(row) });
  }
  columns.push({
    title: t('common.actions'),
    key: 'actions',
    fixed: 'right',
    width: WIDTH.actions,
    render: (_, row) => o.actions(row),
  });
  return columns;
};

interface ConnectionRow {
  commMode?: string | null;
  lastSeenTime: string | null;
  pendingCommands: string[];
}

/**
 * A card's line on the connection: how the device communicates, when it was last heard and the
 * commands waiting for it (the online column without its tag, which the card's corner shows).
 */
export const connectionField = <T extends ConnectionRow>(t: TFunction): CardField<T> => ({
  key: 'connection',
  label: t('field.online'),
  render: (row) =>
    !row.commMode && !row.lastSeenTime && row.pendingCommands.length === 0
      ? dash
      : lines(
          row.commMode ? <span key="c">{t(`commMode.${row.commMode}`)}</span> : null,
          row.lastSeenTime ? (
            <span key="seen">{secondary(t('state.lastSeen', { time: shortTime(row.lastSeenTime) }))}</span>
          ) : null,
          <PendingTags key="p" commands={row.pendingCommands} t={t} />,
        ),
});

/** A device ID in bold with its name under it: a card's heading. */
export const DeviceHeading = ({ deviceId, name }: { deviceId: string; name: string | null }) =>
  lines(
    <Typography.Text copyable strong key="id">
      {deviceId}
    </Typography.Text>,
    name ? <Typography.Text key="name">{name}</Typography.Text> : null,
  );

/**
 * A device as a card on a phone: its ID, its state (online, installed, paired, sensor), its type,
 * where it is (bed and resident, or its place and gateway host), how it connects, then the rest.
 */
export const deviceCards = (t: TFunction, group: DeviceGroup, showProvider: boolean): CardLayout<DeviceRow> => ({
  title: (row) => <DeviceHeading deviceId={row.deviceId} name={row.name} />,
  state: (row) => <DeviceStateTags state={row} kind={row.kind} />,
  fields: [
    'model',
    ...(showProvider ? ['providerName'] : []),
    ...(group === 'sleep' || group === 'fall' ? ['place'] : ['devicePlace']),
    connectionField<DeviceRow>(t),
    'versions',
    'signal',
    'battery',
    'upload',
  ],
  actions: 'actions',
});

/** The raw data upload switch of one device. */
export const UploadSwitch = (props: {
  row: DeviceRow;
  busy: boolean;
  onChange: (on: boolean) => void;
  t: TFunction;
}) => (
  <Switch
    size="small"
    checked={props.row.uploadData}
    loading={props.busy}
    aria-label={props.t('field.uploadData')}
    data-testid={`upload-${props.row.deviceId}`}
    onChange={props.onChange}
  />
);
