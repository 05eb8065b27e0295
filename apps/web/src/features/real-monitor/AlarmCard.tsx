import type { AlarmRecord } from '@vigil/contract/browser';
import { Button, Card, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatSeconds, levelTag, placeOf } from '../alarm-log/alarm-model.ts';
import { ClearedNote } from '../alarm-log/ClearedNote.tsx';

/**
 * One pending alarm: red for level 1 (danger), orange otherwise (warning), with what and where;
 * one that cleared by itself but latches says so, and stays until handled (decision 0035).
 */
export const AlarmCard = ({ alarm, onHandle }: { alarm: AlarmRecord; onHandle: () => void }) => {
  const { t } = useTranslation(['real-monitor', 'alarm-log']);
  const level = levelTag(alarm.alertLevel, t);
  const place = placeOf(alarm);
  return (
    <Card
      size="small"
      className={`alarm-card alarm-card-level${alarm.alertLevel}${alarm.awaitingAck ? ' alarm-card-cleared' : ''}`}
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
      {alarm.awaitingAck && (
        <Typography.Paragraph style={{ marginBottom: 8 }}>
          <ClearedNote alarm={alarm} />
        </Typography.Paragraph>
      )}
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
