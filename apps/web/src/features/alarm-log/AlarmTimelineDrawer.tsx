import { alarmTimeline, type AlarmRecord, type EndpointResult } from '@vigil/contract/browser';
import { useCall } from '../../shared/api/use-call.ts';
import { Drawer, Empty, Space, Spin, Tag, Timeline, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ListError } from '../../shared/ui/list-state.tsx';
import { formatStepTime, levelTag } from './alarm-model.ts';

type Step = EndpointResult<typeof alarmTimeline>[number];

const STEP_COLORS: Partial<Record<Step['step'], string>> = {
  raised: 'red',
  repeated: 'orange',
  handled: 'green',
  released: 'green',
  notify_failed: 'red',
};

const textOf = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/** What a step's detail adds that people read: why and with what result it was handled, how it was released. */
const detailOf = (t: TFunction, step: Step): string | null => {
  const detail = step.detail;
  if (step.step === 'handled') {
    const reason = textOf(detail.reason);
    const result = textOf(detail.result);
    return [reason && t(`relieve.${reason}`), result && t(`dealResult.${result}`)].filter(Boolean).join(' · ') || null;
  }
  if (step.step === 'released' && typeof detail.kind === 'number' && detail.kind >= 1 && detail.kind <= 4) {
    return t(`releaseKind.${detail.kind}`);
  }
  return null;
};

/** One alarm's timeline (/alarmLog/timeline): raised, repeats, delivered, played, handled, released, with who acted. */
export const AlarmTimelineDrawer = (props: { alarm: AlarmRecord; onClose: () => void }) => {
  const { t } = useTranslation('alarm-log');
  const { alarm } = props;
  const steps = useCall(alarmTimeline, { id: alarm.id });
  const level = levelTag(alarm.alertLevel, t);

  const body = () => {
    if (steps.isPending) return <Spin />;
    if (steps.isError) return <ListError query={steps} />;
    if (!steps.data.length) return <Empty description={t('timeline.empty')} />;
    return (
      <Timeline
        data-testid="alarm-timeline"
        items={steps.data.map((step, index) => {
          const detail = detailOf(t, step);
          return {
            key: `${step.at}-${step.step}-${index}`,
            color: STEP_COLORS[step.step] ?? 'blue',
            title: formatStepTime(step.at),
            content: (
              <Space orientation="vertical" size={0}>
                <Typography.Text strong>{t(`step.${step.step}`)}</Typography.Text>
                {step.who && <Typography.Text type="secondary">{t('timeline.by', { who: step.who })}</Typography.Text>}
                {detail && <Typography.Text type="secondary">{detail}</Typography.Text>}
              </Space>
            ),
          };
        })}
      />
    );
  };

  return (
    <Drawer open size={480} title={t('timeline.title')} onClose={props.onClose} destroyOnHidden>
      <Space size={4} wrap style={{ marginBottom: 16 }}>
        <Tag color={level.color}>{level.text}</Tag>
        <Typography.Text>{alarm.text}</Typography.Text>
      </Space>
      {body()}
    </Drawer>
  );
};
