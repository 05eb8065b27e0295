import type { AlarmRecord } from '@vigil/contract/browser';
import { Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { roomLabel } from '../devices/device-place.ts';
import { AlarmCard } from './AlarmCard.tsx';
import type { AlarmEntry } from './room-groups.ts';

type RoomEntry = Extract<AlarmEntry, { kind: 'room' }>;

/**
 * The security and call alarms of one room, under one header ("Room 102 — 3 alarms"): one incident
 * to a caregiver, each alarm still handled from its own card.
 */
export const RoomAlarms = (props: {
  entry: RoomEntry;
  columns: Record<string, number>;
  onHandle: (alarm: AlarmRecord) => void;
}) => {
  const { t } = useTranslation(['real-monitor', 'devices']);
  const { entry } = props;
  const title = t('group.title', { room: roomLabel(t, entry.room), count: entry.alarms.length });
  const level1 = entry.alarms.some((a) => a.alertLevel === 1);
  const color = level1 ? '#ff4d4f' : '#fa8c16';
  return (
    <div
      data-testid="room-alarms"
      role="group"
      aria-label={title}
      style={{
        border: `1px dashed ${color}`,
        borderRadius: 8,
        padding: 12,
        background: level1 ? '#fff8f7' : '#fffcf5',
      }}
    >
      <Typography.Text
        strong
        data-testid="room-alarms-header"
        style={{ display: 'block', marginBottom: 8, fontSize: 15 }}
      >
        {title}
        {entry.floorArea && (
          <Typography.Text type="secondary" style={{ fontWeight: 'normal', marginInlineStart: 8 }}>
            {entry.floorArea}
          </Typography.Text>
        )}
      </Typography.Text>
      <Row gutter={[12, 12]}>
        {entry.alarms.map((alarm) => (
          <Col key={alarm.id} {...props.columns}>
            <AlarmCard alarm={alarm} onHandle={() => props.onHandle(alarm)} />
          </Col>
        ))}
      </Row>
    </div>
  );
};
