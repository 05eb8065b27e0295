import { deviceCommandList } from '@vigil/contract/browser';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Drawer, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { PagedTable } from '../../shared/ui/PagedTable.tsx';
import { shortTime } from './device-labels.ts';
import { COMMANDS_POLL_MS, type CommandHistoryRow, type CommandState } from './device-model.ts';

const STATE_COLORS: Record<CommandState, string> = {
  pending: 'gold',
  sent: 'processing',
  acked: 'success',
  failed: 'error',
  expired: 'warning',
  superseded: 'default',
  cancelled: 'default',
};

/** A command's state as a coloured tag (queued, sent, done, failed …). */
export const CommandStateTag = ({ state, t }: { state: CommandState; t: TFunction }) => (
  <Tag color={STATE_COLORS[state]} data-testid={`command-state-${state}`}>
    {t(`commandState.${state}`)}
  </Tag>
);

/** What a command carried, as people read it: the interval, the sub-device paired … */
const paramsText = (t: TFunction, row: CommandHistoryRow): string => {
  const p = row.params;
  const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  switch (row.command) {
    case 'interval':
      return t('commands.intervalParams', { seconds: text(p.interval) });
    case 'alg_mode':
      return t('commands.algModeParams', { mode: text(p.algMode) });
    case 'pair':
    case 'unpair':
    case 'pair_status':
      return text(p.deviceId);
    case 'pair_scan':
      return t('commands.pairScanParams', { deviceId: text(p.deviceId), seconds: text(p.seconds) });
    default:
      return '';
  }
};

const columns = (t: TFunction, deviceId: string): ColumnsType<CommandHistoryRow> => [
  {
    title: t('commands.command'),
    key: 'command',
    render: (_, row) => (
      <Space orientation="vertical" size={0}>
        <span>{t(`commandName.${row.command}`)}</span>
        {paramsText(t, row) && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {paramsText(t, row)}
          </Typography.Text>
        )}
        {row.deviceId !== deviceId && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('commands.viaHost', { host: row.deviceId })}
          </Typography.Text>
        )}
      </Space>
    ),
  },
  {
    title: t('commands.state'),
    key: 'state',
    render: (_, row) => (
      <Space orientation="vertical" size={0}>
        <CommandStateTag state={row.state} t={t} />
        {row.error && (
          <Typography.Text type="danger" style={{ fontSize: 12 }}>
            {row.error}
          </Typography.Text>
        )}
      </Space>
    ),
  },
  { title: t('commands.attempts'), dataIndex: 'attempts', width: 80 },
  {
    title: t('commands.times'),
    key: 'times',
    render: (_, row) => (
      <Space orientation="vertical" size={0}>
        <span>{t('commands.queuedAt', { time: shortTime(row.createTime) })}</span>
        {row.sentTime && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('commands.sentAt', { time: shortTime(row.sentTime) })}
          </Typography.Text>
        )}
        {row.ackTime && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('commands.ackedAt', { time: shortTime(row.ackTime) })}
          </Typography.Text>
        )}
      </Space>
    ),
  },
];

/**
 * The commands of one device with their states, newest first (/device/commandList), refreshed
 * while the drawer is open. A sub-device's include the pairing commands its host was sent for it.
 */
export const CommandHistoryDrawer = (props: { deviceId: string; onClose: () => void }) => {
  const { t } = useTranslation('devices');
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const list = useQuery({
    queryKey: ['devices', 'commands', props.deviceId, page],
    queryFn: () => api(deviceCommandList, { deviceId: props.deviceId, ...page }),
    placeholderData: keepPreviousData,
    refetchInterval: COMMANDS_POLL_MS,
  });
  return (
    <Drawer
      open
      size={760}
      title={t('commands.title', { deviceId: props.deviceId })}
      onClose={props.onClose}
      destroyOnHidden
    >
      <PagedTable<CommandHistoryRow>
        data-testid="command-table"
        rowKey="id"
        size="small"
        query={list}
        // Only a new page shows the spinner; the periodic refresh updates the rows in place.
        loading={list.isPending || list.isPlaceholderData}
        locale={{ emptyText: t('commands.empty') }}
        columns={columns(t, props.deviceId)}
        dataSource={list.data?.rows ?? []}
        page={page}
        total={list.data?.total ?? 0}
        onPage={setPage}
      />
    </Drawer>
  );
};
