import { alarmTimeline, type AlarmRecord, type AlarmTimelineStep } from '@vigil/contract/browser';
import { useCall } from '../../shared/api/use-call.ts';
import { Button, Drawer, Empty, Space, Spin, Tag, Timeline, Typography } from 'antd';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListError } from '../../shared/ui/list-state.tsx';
import { formatStepTime, levelTag } from './alarm-model.ts';
import { timelineItems, type TimelineItem } from './timeline-items.ts';

type Step = AlarmTimelineStep;

const STEP_COLORS: Partial<Record<Step['step'], string>> = {
  raised: 'red',
  repeated: 'orange',
  handled: 'green',
  released: 'green',
  notify_failed: 'red',
  note: 'purple',
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
  if (step.step === 'note') return textOf(detail.note);
  return null;
};

/** Who acted, if someone did: "by Chen Jing". */
const ByWho = ({ step }: { step: Step }) => {
  const { t } = useTranslation('alarm-log');
  return step.who ? <Typography.Text type="secondary">{t('timeline.by', { who: step.who })}</Typography.Text> : null;
};

/** Many consoles' same report as one row ("announced aloud on 16 consoles"), opened to list each. */
const ConsolesRow = ({ item }: { item: Extract<TimelineItem, { kind: 'consoles' }> }) => {
  const { t } = useTranslation('alarm-log');
  const [open, setOpen] = useState(false);
  return (
    <Space orientation="vertical" size={0} data-testid={`timeline-consoles-${item.console}`}>
      <Typography.Text strong>{t(`timeline.many.${item.console}`, { count: item.steps.length })}</Typography.Text>
      <Button type="link" size="small" style={{ padding: 0 }} aria-expanded={open} onClick={() => setOpen(!open)}>
        {t(open ? 'timeline.hideEach' : 'timeline.showEach')}
      </Button>
      {open &&
        item.steps.map((step, index) => (
          <Typography.Text type="secondary" key={`${step.at}-${index}`}>
            {/* The day is the row's: each console by the time of day. */}
            {dayjs.unix(step.at).format('HH:mm:ss')}
            {step.who ? ` · ${t('timeline.by', { who: step.who })}` : ''}
          </Typography.Text>
        ))}
    </Space>
  );
};

/**
 * One alarm's timeline (/alarmLog/timeline): raised, repeats, delivered, played, handled, released
 * and notes, with who acted; what many consoles reported alike is one row that opens.
 */
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
        items={timelineItems(steps.data).map((item, index) => {
          if (item.kind === 'consoles') {
            const first = item.steps[0] as Step;
            return {
              key: `${first.at}-${item.console}-${index}`,
              color: 'blue',
              title: formatStepTime(first.at),
              content: <ConsolesRow item={item} />,
            };
          }
          const { step } = item;
          const detail = detailOf(t, step);
          return {
            key: `${step.at}-${step.step}-${index}`,
            color: STEP_COLORS[step.step] ?? 'blue',
            title: formatStepTime(step.at),
            content: (
              <Space orientation="vertical" size={0}>
                <Typography.Text strong>{t(`step.${step.step}`)}</Typography.Text>
                <ByWho step={step} />
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
