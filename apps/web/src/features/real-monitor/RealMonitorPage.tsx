import type { AlarmRecord } from '@vigil/contract/browser';
import { Badge, Button, Card, Col, Empty, Row, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HandleAlarmDialog } from '../alarm-log/HandleAlarmDialog.tsx';
import { formatSeconds, levelTag, placeOf } from '../alarm-log/alarm-model.ts';
import { useLiveAlarms } from '../../shared/live/LiveAlarms.tsx';

const STATE_BADGE = { open: 'success', connecting: 'processing', closed: 'error' } as const;

/** One pending alarm: red for level 1 (danger), orange otherwise (warning), with what and where. */
const AlarmCard = ({ alarm, onHandle }: { alarm: AlarmRecord; onHandle: () => void }) => {
  const { t } = useTranslation(['real-monitor', 'alarm-log']);
  const level = levelTag(alarm.alertLevel);
  const place = placeOf(alarm);
  return (
    <Card
      size="small"
      className={`alarm-card alarm-card-level${alarm.alertLevel}`}
      data-testid={`alarm-card-${alarm.id}`}
      styles={{
        header: { background: alarm.alertLevel === 1 ? '#fff1f0' : '#fff7e6' },
        body: { borderTop: `3px solid ${alarm.alertLevel === 1 ? '#ff4d4f' : '#fa8c16'}` },
      }}
      title={
        <Space size={6}>
          <Tag color={level.color}>{level.text}</Tag>
          <span>{t(`alarm-log:alarmType.${alarm.alertType}`)}</span>
        </Space>
      }
      extra={
        <Button size="small" danger={alarm.alertLevel === 1} type="primary" onClick={onHandle}>
          {t('alarm-log:action.handle')}
        </Button>
      }
    >
      <Typography.Paragraph strong style={{ marginBottom: 8 }}>
        {alarm.text}
      </Typography.Paragraph>
      <Space orientation="vertical" size={2}>
        {place && <Typography.Text type="secondary">{place}</Typography.Text>}
        {alarm.userName && <Typography.Text>{alarm.userName}</Typography.Text>}
        <Typography.Text type="secondary">
          {formatSeconds(alarm.timeStamp)}
          {alarm.count > 1 ? ` · ${t('card.count', { count: alarm.count })}` : ''}
        </Typography.Text>
      </Space>
    </Card>
  );
};

/**
 * Real-time monitoring (`/realMonitor/index`): the pending alarms of the chosen provider as they
 * arrive on the live socket, level 1 first, each handled from its card.
 */
const RealMonitorPage = () => {
  const { t } = useTranslation('real-monitor');
  const { pending, state, handled } = useLiveAlarms();
  const [handling, setHandling] = useState<AlarmRecord | null>(null);
  const sections = [1, 2].map((level) => ({ level, alarms: pending.filter((a) => a.alertLevel === level) }));
  return (
    <div data-testid="real-monitor">
      <Space style={{ marginBottom: 16 }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('title')}
        </Typography.Title>
        <Badge status={STATE_BADGE[state]} text={t(`connection.${state}`)} data-testid="live-state" />
      </Space>
      {pending.length === 0 ? (
        <Empty description={t('empty')} data-testid="no-alarms" />
      ) : (
        sections.map(
          ({ level, alarms }) =>
            alarms.length > 0 && (
              <section key={level} data-testid={`alarms-level${level}`} style={{ marginBottom: 24 }}>
                <Typography.Title level={5}>{t(`section.level${level}`, { count: alarms.length })}</Typography.Title>
                <Row gutter={[12, 12]}>
                  {alarms.map((alarm) => (
                    <Col key={alarm.id} xs={24} sm={12} lg={8} xxl={6}>
                      <AlarmCard alarm={alarm} onHandle={() => setHandling(alarm)} />
                    </Col>
                  ))}
                </Row>
              </section>
            ),
        )
      )}
      {handling && (
        <HandleAlarmDialog alarm={handling} onDone={() => handled(handling.id)} onClose={() => setHandling(null)} />
      )}
    </div>
  );
};

export default RealMonitorPage;
