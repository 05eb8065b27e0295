import type { AlarmRecord } from '@vigil/contract/browser';
import { Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AlarmCard } from './AlarmCard.tsx';
import type { AlarmEntry } from './room-groups.ts';

type RoomEntry = Extract<AlarmEntry, { kind: 'room' }>;

/** A room as people say it: "Room 102" for a number, the name itself otherwise ("Lounge"). */
const roomName = (t: (key: string, values: Record<string, string>) => string, room: string) =>
  /^\d+[A-Za-z]?$/.test(room) ? t('group.room', { room }) : room;

/**
 * The security and call alarms of one room, under one header ("Room 102 — 3 alarms"): one incident
 * to a caregiver, each alarm still handled from its own card.
 */
export const RoomAlarms = (props: {
  entry: RoomEntry;
  columns: Record<string, number>;
  onHandle: (alarm: AlarmRecord) => void;
}) => {
  const { t } = useTranslation('real-monitor');
  const { entry } = props;
  const level1 = entry.alarms.some((a) => a.alertLevel === 1);
  const color = level1 ? '#ff4d4f' : '#fa8c16';
  return (
    <div
      data-testid="room-alarms"
      role="group"
      aria-label={t('group.title', { room: roomName(t, entry.room), count: entry.alarms.length })}
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
        {t('group.title', { room: roomName(t, entry.room), count: entry.alarms.length })}
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
