import type { AlarmRecord } from '@vigil/contract/browser';
import { Button, Card, Space, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { formatSeconds, levelTag } from '../alarm-log/alarm-model.ts';
import { ClearedNote } from '../alarm-log/ClearedNote.tsx';
import { AlarmMeasure, ElapsedSince, LiveChartLink, whoAndWhere } from '../../shared/live/AlarmFigures.tsx';

/**
 * One pending alarm: red for level 1 (danger), orange otherwise (warning); what happened, the
 * figure that raised it, who and where ("Margaret Ellis · 101 A"), when and how long ago, and
 * the way to the resident's live chart. One that cleared by itself but latches says so, and
 * stays until handled (decision 0035). Level 1 cards are the larger ones (decision 0036).
 */
export const AlarmCard = ({ alarm, onHandle }: { alarm: AlarmRecord; onHandle: () => void }) => {
  const { t } = useTranslation(['real-monitor', 'alarm-log']);
  const level = levelTag(alarm.alertLevel, t);
  const first = alarm.alertLevel === 1;
  const who = whoAndWhere(alarm);
  return (
    <Card
      size="small"
      className={`alarm-card alarm-card-level${alarm.alertLevel}${alarm.awaitingAck ? ' alarm-card-cleared' : ''}`}
      data-testid={`alarm-card-${alarm.id}`}
      style={first ? { border: '2px solid #ff4d4f', boxShadow: '0 2px 8px rgba(255, 77, 79, 0.25)' } : undefined}
      styles={{
        header: { background: first ? '#fff1f0' : '#fff7e6' },
        body: { borderTop: `3px solid ${first ? '#ff4d4f' : '#fa8c16'}` },
      }}
      title={
        <Space size={6}>
          <Tag color={level.color}>{level.text}</Tag>
          <span style={first ? { fontSize: 16 } : undefined}>{t(`alarm-log:alarmType.${alarm.alertType}`)}</span>
        </Space>
      }
      extra={
        <Button size={first ? 'middle' : 'small'} danger={first} type="primary" onClick={onHandle}>
          {t('alarm-log:action.handle')}
        </Button>
      }
    >
      <Typography.Paragraph strong style={{ marginBottom: 4, fontSize: first ? 16 : undefined }}>
        {alarm.text}
      </Typography.Paragraph>
      {alarm.measureText && (
        <Typography.Paragraph style={{ marginBottom: 8, fontSize: first ? 15 : undefined }}>
          <AlarmMeasure alarm={alarm} strong />
        </Typography.Paragraph>
      )}
      {alarm.awaitingAck && (
        <Typography.Paragraph style={{ marginBottom: 8 }}>
          <ClearedNote alarm={alarm} />
        </Typography.Paragraph>
      )}
      <Space orientation="vertical" size={2} style={{ width: '100%' }}>
        {who && <Typography.Text data-testid="alarm-who">{who}</Typography.Text>}
        {alarm.floorArea && <Typography.Text type="secondary">{alarm.floorArea}</Typography.Text>}
        <Space size={4} wrap style={{ justifyContent: 'space-between', width: '100%' }}>
          <Typography.Text type="secondary">
            {/* Today's alarm by its time to the second; an older one (latched) with its date. */}
            {dayjs.unix(alarm.timeStamp).isSame(dayjs(), 'day')
              ? dayjs.unix(alarm.timeStamp).format('HH:mm:ss')
              : formatSeconds(alarm.timeStamp)}
            {' · '}
            <ElapsedSince since={alarm.timeStamp} />
            {alarm.count > 1 ? ` · ${t('card.count', { count: alarm.count })}` : ''}
          </Typography.Text>
          <LiveChartLink userId={alarm.userId} />
        </Space>
      </Space>
    </Card>
  );
};
