import { DashboardOutlined, HeartOutlined } from '@ant-design/icons';
import type { LiveResident } from '@vigil/contract/browser';
import { Card, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AlarmBadge } from './AlarmBadge.tsx';
import { FocusStar } from './FocusStar.tsx';
import { liveRate, placeOf, sampleTime } from './live-model.ts';
import { LiveStatusTag } from './LiveStatusTag.tsx';
import { MovementText } from './MovementText.tsx';
import { VitalReading } from './VitalReading.tsx';

/** Who the resident is, where they lie, and how they are now (live). */
export const ResidentHeader = (props: { resident: LiveResident; changingFocus: boolean; onFocus: () => void }) => {
  const { t } = useTranslation('real-monitor');
  const { resident } = props;
  const details = [
    resident.age === null ? null : t('resident.age', { age: resident.age }),
    placeOf(resident) ?? t('noBed'),
    resident.communityName,
  ].filter(Boolean);
  return (
    <Card size="small" data-testid="resident-header" style={{ marginBottom: 16 }}>
      <div
        style={{ display: 'flex', flexWrap: 'wrap', gap: 16, justifyContent: 'space-between', alignItems: 'center' }}
      >
        <div style={{ minWidth: 0 }}>
          <Space size={6} wrap>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {resident.userName}
            </Typography.Title>
            <FocusStar
              userId={resident.userId}
              focus={resident.focus}
              loading={props.changingFocus}
              onToggle={props.onFocus}
            />
            <LiveStatusTag resident={resident} />
            <AlarmBadge resident={resident} />
          </Space>
          <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
            {details.join(' · ')}
          </Typography.Paragraph>
        </div>
        <Space size={24} wrap align="end">
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
          <Space orientation="vertical" size={0}>
            <MovementText resident={resident} />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('field.sampleTime')}: {sampleTime(resident.vitals?.ts)}
            </Typography.Text>
          </Space>
        </Space>
      </div>
    </Card>
  );
};
