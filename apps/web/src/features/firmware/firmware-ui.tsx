import { DEVICE_TYPES, type UpgradeCounts } from '@vigil/contract/browser';
import { Progress, Space, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  STATE_COLORS,
  UPGRADE_COLORS,
  isUnderWay,
  shares,
  type FirmwareState,
  type Rollout,
  type UpgradeState,
} from './firmware-model.ts';

const NS = 'firmware';

/** The model people read on the label, and below it what kind of device it is. */
export const DeviceTypeCell = ({ code }: { code: number }) => {
  const { t } = useTranslation(NS);
  const type = DEVICE_TYPES.find((d) => d.code === code);
  if (!type) return <span>{code}</span>;
  return (
    <Space orientation="vertical" size={0}>
      <span>{type.model}</span>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t(`kind.${type.kind}`)}
      </Typography.Text>
    </Space>
  );
};

export const FirmwareStateTag = ({ state }: { state: FirmwareState }) => {
  const { t } = useTranslation(NS);
  return (
    <Tag color={STATE_COLORS[state]} data-testid={`firmware-state-${state}`}>
      {t(`state.${state}`)}
    </Tag>
  );
};

/** One upgrade's state, with its download progress while the device works on it. */
export const UpgradeStateCell = ({ state, progress }: { state: UpgradeState | null; progress: number | null }) => {
  const { t } = useTranslation(NS);
  if (state === null) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space size={4} orientation="vertical" style={{ minWidth: 120 }}>
      <Tag color={UPGRADE_COLORS[state]} data-testid={`upgrade-state-${state}`}>
        {t(`upgrade.${state}`)}
      </Tag>
      {isUnderWay(state) && progress !== null && <Progress percent={progress} size="small" />}
    </Space>
  );
};

/** Why a rollout waits: paused by an administrator, or by its own failures. */
export const RolloutStateTag = ({ rollout }: { rollout: Rollout }) => {
  const { t } = useTranslation(NS);
  if (rollout.state === 'paused') {
    return (
      <Tag color="warning" data-testid="rollout-paused">
        {rollout.pausedReason === 'failures'
          ? t('rollout.pausedFailures', { threshold: rollout.failureThreshold })
          : t('rollout.pausedAdmin')}
      </Tag>
    );
  }
  const color = { running: 'processing', stopped: 'default', done: 'success' }[rollout.state];
  return (
    <Tag color={color} data-testid={`rollout-${rollout.state}`}>
      {t(`rollout.${rollout.state}`)}
    </Tag>
  );
};

/** "Stage 2 of 3 (25%)", or the grey release's single stage. */
export const stageText = (t: TFunction, rollout: Rollout): string =>
  rollout.kind === 'grey'
    ? t('rollout.greyStage')
    : t('rollout.stage', {
        stage: rollout.stage + 1,
        stages: rollout.stages.length,
        percent: rollout.stages[rollout.stage] ?? 100,
      });

const SEGMENTS = [
  { key: 'succeeded', color: '#52c41a' },
  { key: 'failed', color: '#ff4d4f' },
  { key: 'inProgress', color: '#1677ff' },
  { key: 'deferred', color: '#fa8c16' },
] as const;

/** What happened to a rollout's (or stage's) devices, one line per non-empty group. */
export const CountsText = ({ counts }: { counts: UpgradeCounts }) => {
  const { t } = useTranslation(NS);
  const parts = [
    counts.failed > 0 && t('rollout.failedCount', { count: counts.failed }),
    counts.inProgress > 0 && t('rollout.inProgressCount', { count: counts.inProgress }),
    counts.pending > 0 && t('rollout.waitingCount', { count: counts.pending }),
    counts.deferred > 0 && t('rollout.deferredCount', { count: counts.deferred }),
    counts.cancelled > 0 && t('rollout.cancelledCount', { count: counts.cancelled }),
  ].filter((p): p is string => Boolean(p));
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {parts.join(' · ')}
    </Typography.Text>
  );
};

/** A thin bar: upgraded, failed, under way and deferred devices as shares of the total. */
export const CountsBar = ({ counts, width = 180 }: { counts: UpgradeCounts; width?: number }) => {
  const share = shares(counts);
  return (
    <div
      aria-hidden
      style={{ display: 'flex', width, height: 8, borderRadius: 4, overflow: 'hidden', background: '#f0f0f0' }}
    >
      {SEGMENTS.map(({ key, color }) =>
        share[key] > 0 ? <div key={key} style={{ width: `${share[key]}%`, background: color }} /> : null,
      )}
    </div>
  );
};

/** The list's release column: the bar, "n of m upgraded", the stage and the rollout's state. */
export const RolloutSummary = ({ rollout }: { rollout: Rollout | null }) => {
  const { t } = useTranslation(NS);
  if (!rollout) return <Typography.Text type="secondary">{t('rollout.none')}</Typography.Text>;
  const { counts } = rollout;
  return (
    <Space orientation="vertical" size={2} data-testid="rollout-summary" style={{ minWidth: 200 }}>
      <CountsBar counts={counts} />
      <span>
        {counts.total > 0
          ? t('rollout.counts', { succeeded: counts.succeeded, total: counts.total })
          : t('rollout.noDevices')}
      </span>
      <CountsText counts={counts} />
      <Space size={4} wrap>
        <Typography.Text style={{ fontSize: 12 }}>{stageText(t, rollout)}</Typography.Text>
        <RolloutStateTag rollout={rollout} />
      </Space>
    </Space>
  );
};
