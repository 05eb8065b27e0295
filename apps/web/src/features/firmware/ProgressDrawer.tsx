import type { TFunction } from 'i18next';
import { firmwareUpgradeList } from '@vigil/contract/browser';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Col, Descriptions, Drawer, Row, Select, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { callKey } from '../../shared/api/use-call.ts';
import { formatDateTime } from '../../shared/ui/datetime.ts';
import { PagedTable } from '../../shared/ui/PagedTable.tsx';
import {
  PROGRESS_POLL_MS,
  UPGRADE_STATES,
  deviceTypeLabel,
  isMoving,
  type Firmware,
  type Rollout,
  type UpgradeRow,
  type UpgradeState,
} from './firmware-model.ts';
import { CountsBar, CountsText, RolloutStateTag, UpgradeStateCell, stageText } from './firmware-ui.tsx';
import { OnlineTag } from './WhitelistDrawer.tsx';

/** Each stage of a rollout: its share of the devices, whether it is open, and what happened to its devices. */
const StageCards = ({ rollout }: { rollout: Rollout }) => {
  const { t } = useTranslation('firmware');
  return (
    <Row gutter={[12, 12]} style={{ marginBottom: 16 }}>
      {rollout.stageCounts.map((stage) => {
        const open = stage.stage === rollout.stage;
        const title =
          rollout.kind === 'grey'
            ? t('rollout.greyStage')
            : t('progress.stageTitle', { stage: stage.stage + 1, percent: stage.percent });
        return (
          <Col key={stage.stage} xs={24} sm={12} md={8}>
            <Card
              size="small"
              data-testid={`stage-${stage.stage}`}
              title={title}
              extra={
                open ? (
                  <Tag color="processing">{t('progress.stageOpen')}</Tag>
                ) : stage.stage > rollout.stage ? (
                  <Tag>{t('progress.stageWaiting')}</Tag>
                ) : (
                  <Tag color="default">{t('progress.stagePassed')}</Tag>
                )
              }
            >
              <Space orientation="vertical" size={4} style={{ width: '100%' }}>
                <CountsBar counts={stage} width={200} />
                <span>
                  {stage.total > 0
                    ? t('rollout.counts', { succeeded: stage.succeeded, total: stage.total })
                    : t('rollout.noDevices')}
                </span>
                <CountsText counts={stage} />
              </Space>
            </Card>
          </Col>
        );
      })}
    </Row>
  );
};

/**
 * A package's release: its stages with their figures and every device's upgrade (stage, state,
 * download progress, error), refreshed every few seconds while the rollout runs.
 */
export const ProgressDrawer = ({
  pkg,
  onClose,
  controls,
}: {
  pkg: Firmware | null;
  onClose: () => void;
  /** The rollout's controls (pause, resume, stop), as the list offers them. */
  controls?: ReactNode;
}) => {
  const { t } = useTranslation('firmware');
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 });
  const [state, setState] = useState<UpgradeState | undefined>();
  const [stage, setStage] = useState<number | undefined>();
  const rollout = pkg?.rollout ?? null;
  const moving = isMoving(rollout);
  const request = {
    id: pkg?.id ?? 0,
    ...page,
    ...(state === undefined ? {} : { state }),
    ...(stage === undefined ? {} : { stage }),
  };
  const list = useQuery({
    queryKey: callKey(firmwareUpgradeList, request),
    queryFn: () => api(firmwareUpgradeList, request),
    placeholderData: keepPreviousData,
    enabled: pkg !== null && rollout !== null,
    // While open, always: the versions devices report settle a moment after the rollout ends.
    refetchInterval: PROGRESS_POLL_MS,
  });
  const filter = (change: () => void) => {
    change();
    setPage((p) => ({ ...p, pageNum: 1 }));
  };

  const columns: ColumnsType<UpgradeRow> = [
    {
      title: t('column.deviceId'),
      key: 'device',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <span>{row.deviceId}</span>
          {row.name && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {row.name}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    { title: t('column.provider'), dataIndex: 'providerName' },
    { title: t('column.online'), dataIndex: 'online', render: (online: boolean) => <OnlineTag online={online} /> },
    ...(rollout?.kind === 'full'
      ? [{ title: t('column.stage'), key: 'stage', render: (_: unknown, row: UpgradeRow) => row.stage + 1 }]
      : []),
    {
      title: t('column.versions'),
      key: 'versions',
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <span>{t('progress.from', { version: row.fromVersion ?? '—' })}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('progress.now', { version: row.firmwareVersion ?? '—' })}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('column.upgrade'),
      key: 'upgrade',
      render: (_, row) => (
        <Space orientation="vertical" size={2}>
          <UpgradeStateCell state={row.state} progress={row.progress} />
          {(row.reason || row.error) && (
            <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="upgrade-error">
              {failureText(t, row)}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    { title: t('column.updated'), dataIndex: 'updateTime', render: (time: string) => formatDateTime(time) },
  ];

  return (
    <Drawer
      open={pkg !== null}
      size={980}
      title={pkg ? t('progress.title', { version: pkg.version, type: deviceTypeLabel(t, pkg.deviceType) }) : ''}
      onClose={onClose}
      destroyOnHidden
      extra={controls}
    >
      {pkg && rollout === null && <Typography.Text type="secondary">{t('rollout.none')}</Typography.Text>}
      {rollout && (
        <>
          <Descriptions size="small" column={{ xs: 1, md: 2 }} style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('progress.kind')}>
              <Space size={4} wrap>
                <span>{t(rollout.kind === 'grey' ? 'progress.kindGrey' : 'progress.kindFull')}</span>
                <RolloutStateTag rollout={rollout} />
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={t('progress.started')}>{formatDateTime(rollout.startTime)}</Descriptions.Item>
            <Descriptions.Item label={t('progress.stage')}>{stageText(t, rollout)}</Descriptions.Item>
            <Descriptions.Item label={t('progress.overall')}>
              {t('rollout.counts', { succeeded: rollout.counts.succeeded, total: rollout.counts.total })}
            </Descriptions.Item>
            {rollout.kind === 'full' && (
              <Descriptions.Item label={t('full.threshold')}>
                {t('progress.threshold', { threshold: rollout.failureThreshold })}
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('progress.occupied')}>
              {t(rollout.forceOccupied ? 'progress.forceOccupied' : 'progress.deferOccupied')}
            </Descriptions.Item>
          </Descriptions>
          <StageCards rollout={rollout} />
          <Space wrap style={{ marginBottom: 12 }}>
            <Select<UpgradeState>
              data-testid="upgrade-filter-state"
              aria-label={t('progress.stateFilter')}
              placeholder={t('progress.stateFilter')}
              allowClear
              style={{ minWidth: 180 }}
              value={state}
              options={UPGRADE_STATES.map((s) => ({ value: s, label: t(`upgrade.${s}`) }))}
              onChange={(value?: UpgradeState) => filter(() => setState(value))}
            />
            {rollout.kind === 'full' && rollout.stages.length > 1 && (
              <Select<number>
                data-testid="upgrade-filter-stage"
                aria-label={t('progress.stageFilter')}
                placeholder={t('progress.stageFilter')}
                allowClear
                style={{ minWidth: 140 }}
                value={stage}
                options={rollout.stages.map((percent, i) => ({
                  value: i,
                  label: t('progress.stageTitle', { stage: i + 1, percent }),
                }))}
                onChange={(value?: number) => filter(() => setStage(value))}
              />
            )}
            {moving && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('progress.autoRefresh')}
              </Typography.Text>
            )}
          </Space>
          <PagedTable<UpgradeRow>
            data-testid="upgrade-table"
            rowKey="deviceId"
            size="small"
            query={list}
            // Only a new page or filter shows the spinner; the periodic refresh updates the rows in place.
            loading={list.isPending || list.isPlaceholderData}
            filters={{
              filtered: state !== undefined || stage !== undefined,
              onClearFilters: () =>
                filter(() => {
                  setState(undefined);
                  setStage(undefined);
                }),
            }}
            locale={{ emptyText: t('progress.empty') }}
            columns={columns}
            dataSource={list.data?.rows ?? []}
            page={page}
            total={list.data?.total ?? 0}
            onPage={setPage}
          />
        </>
      )}
    </Drawer>
  );
};

/** Why an upgrade failed or was cancelled, in the reader's language; with the device's own words when it gave any. */
const failureText = (t: TFunction, row: Pick<UpgradeRow, 'reason' | 'error'>): string => {
  if (!row.reason) return row.error ?? '';
  const reason = t(`reason.${row.reason}`);
  const deviceWords = (row.reason === 'refused' || row.reason === 'failedOnDevice') && row.error;
  return deviceWords ? t('reason.withWords', { reason, words: row.error }) : reason;
};
