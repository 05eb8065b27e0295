import { Space, Switch, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { DeviceGroup, DeviceRow } from './device-model.ts';
import { placeOf, shortTime } from './device-labels.ts';

const dash = '—';

export const OnlineTag = ({ online, t }: { online: boolean; t: TFunction }) => (
  <Tag color={online ? 'green' : 'default'}>{t(online ? 'state.online' : 'state.offline')}</Tag>
);

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

export interface DeviceColumnOptions {
  t: TFunction;
  group: DeviceGroup;
  /** Platform roles see several providers' devices. */
  showProvider: boolean;
  /** Device administrators switch the raw data upload. */
  uploadSwitch?: (row: DeviceRow) => ReactNode;
  actions: (row: DeviceRow) => ReactNode;
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
        ? [{ title: t('field.host'), dataIndex: 'hostDeviceId', render: (v: string | null) => v ?? dash }]
        : [];
  const columns: ColumnsType<DeviceRow> = [
    {
      title: t('field.deviceId'),
      dataIndex: 'deviceId',
      fixed: 'left',
      render: (_, row) =>
        lines(
          <Typography.Text copyable strong key="id">
            {row.deviceId}
          </Typography.Text>,
          row.cipherId ? <span key="cipher">{secondary(t('field.cipherIdShort', { id: row.cipherId }))}</span> : null,
        ),
    },
    {
      title: t('field.type'),
      dataIndex: 'model',
      render: (_, row) =>
        lines(<span key="m">{row.model}</span>, <span key="k">{secondary(t(`kind.${row.kind}`))}</span>),
    },
    { title: t('field.name'), dataIndex: 'name', render: (name: string | null) => name ?? dash },
    ...(o.showProvider ? [{ title: t('field.provider'), dataIndex: 'providerName' }] : []),
    ...middle,
    {
      title: t('field.online'),
      dataIndex: 'online',
      render: (_, row) =>
        lines(
          <OnlineTag key="o" online={row.online} t={t} />,
          row.lastSeenTime ? (
            <span key="seen">{secondary(t('state.lastSeen', { time: shortTime(row.lastSeenTime) }))}</span>
          ) : null,
          <PendingTags key="p" commands={row.pendingCommands} t={t} />,
        ),
    },
    {
      title: t('field.installState'),
      key: 'install',
      render: (_, row) => (
        <Space size={4} wrap>
          <Tag color={row.installed ? 'blue' : 'default'}>
            {t(row.installed ? 'state.installed' : 'state.notInstalled')}
          </Tag>
          {(group === 'security' || row.hostDeviceId) && (
            <Tag color={row.paired ? 'blue' : 'gold'}>{t(row.paired ? 'state.paired' : 'state.unpaired')}</Tag>
          )}
          {row.kind === 'sleep_monitor' && (
            <Tag color={row.sensorInitialised ? 'blue' : 'gold'}>
              {t(row.sensorInitialised ? 'state.sensorInitialised' : 'state.sensorNotInitialised')}
            </Tag>
          )}
        </Space>
      ),
    },
    {
      title: t('field.commMode'),
      dataIndex: 'commMode',
      render: (mode: string | null) => (mode ? t(`commMode.${mode}`) : dash),
    },
    {
      title: t('field.versions'),
      key: 'versions',
      render: (_, row) =>
        lines(
          <span key="fw">{t('field.firmwareShort', { version: row.firmwareVersion ?? dash })}</span>,
          <span key="hw">{secondary(t('field.hardwareShort', { version: row.hardwareVersion ?? dash }))}</span>,
        ),
    },
    { title: t('field.signal'), dataIndex: 'signal', render: (v: number | null) => v ?? dash },
    {
      title: t('field.battery'),
      dataIndex: 'battery',
      render: (v: number | null) => (v === null ? dash : `${v}%`),
    },
  ];
  if (o.uploadSwitch) {
    const render = o.uploadSwitch;
    columns.push({ title: t('field.uploadData'), key: 'upload', render: (_, row) => render(row) });
  }
  columns.push({ title: t('common.actions'), key: 'actions', fixed: 'right', render: (_, row) => o.actions(row) });
  return columns;
};

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
