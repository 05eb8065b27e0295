import { CloseOutlined, DashboardOutlined, HeartOutlined } from '@ant-design/icons';
import type { LiveResident } from '@vigil/contract/browser';
import { Button, Card, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AlarmBadge } from './AlarmBadge.tsx';
import { bedOf, liveRate, sampleTime } from './live-model.ts';
import { LiveStatusTag } from './LiveStatusTag.tsx';
import { MovementText } from './MovementText.tsx';
import { VitalReading } from './VitalReading.tsx';

const ALARM_BORDER = { 1: '#ff4d4f', 2: '#fa8c16' } as const;

/** A focus resident now: where, in bed or not, live heart and breathing rates, movement and open alarms. */
export const FocusCard = (props: {
  resident: LiveResident;
  removing: boolean;
  onOpen: () => void;
  onRemove: () => void;
}) => {
  const { t } = useTranslation('real-monitor');
  const { resident } = props;
  const border = resident.alertLevel === null ? undefined : ALARM_BORDER[resident.alertLevel];
  return (
    <Card
      size="small"
      hoverable
      data-testid={`focus-card-${resident.userId}`}
      onClick={props.onOpen}
      style={border ? { borderColor: border, boxShadow: `0 0 0 1px ${border}` } : undefined}
      title={
        <Space size={6} wrap>
          <span>{resident.userName}</span>
          <AlarmBadge resident={resident} />
        </Space>
      }
      extra={
        <Button
          type="text"
          size="small"
          icon={<CloseOutlined />}
          aria-label={t('focus.remove')}
          title={t('focus.remove')}
          data-testid={`focus-remove-${resident.userId}`}
          loading={props.removing}
          onClick={(event) => {
            event.stopPropagation();
            props.onRemove();
          }}
        />
      }
    >
      <Space size={6} wrap style={{ marginBottom: 8 }}>
        <LiveStatusTag resident={resident} />
        <Typography.Text type="secondary">{bedOf(resident) ?? t('noBed')}</Typography.Text>
      </Space>
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}>
        <VitalReading
          label={t('vital.heartRate')}
          unit={t('unit.bpm')}
          icon={<HeartOutlined />}
          value={liveRate(resident, 'heartRate')}
          testId={`heart-rate-${resident.userId}`}
        />
        <VitalReading
          label={t('vital.breathRate')}
          unit={t('unit.rpm')}
          icon={<DashboardOutlined />}
          value={liveRate(resident, 'breathRate')}
          testId={`breath-rate-${resident.userId}`}
        />
      </div>
      <Space size={8} style={{ marginTop: 8, fontSize: 12 }} wrap>
        <MovementText resident={resident} />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {sampleTime(resident.vitals?.ts)}
        </Typography.Text>
      </Space>
    </Card>
  );
};
