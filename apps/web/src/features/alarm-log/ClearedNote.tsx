import type { AlarmRecord } from '@vigil/contract/browser';
import { Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';

/** "45 s", "2 min 5 s", "1 h 12 min": how long a condition lasted. */
export const lastedText = (seconds: number, t: (key: string, values: Record<string, number>) => string): string => {
  const h = Math.floor(seconds / 3600);
  const min = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h) return t('cleared.hoursMinutes', { h, min });
  if (min) return t('cleared.minutesSeconds', { min, s });
  return t('cleared.seconds', { s });
};

/**
 * A latched alarm's state (decision 0035): its condition cleared by itself — when, after how
 * long, and what the clearing said — and it waits for a person to handle it.
 */
export const ClearedNote = ({
  alarm,
}: {
  alarm: Pick<AlarmRecord, 'awaitingAck' | 'clearedTime' | 'duration' | 'releaseText'>;
}) => {
  const { t } = useTranslation('alarm-log');
  if (alarm.clearedTime === null) return null;
  const note = t('cleared.note', {
    time: dayjs.unix(alarm.clearedTime).format('HH:mm:ss'),
    lasted: lastedText(alarm.duration, t),
  });
  return (
    <span data-testid="alarm-cleared">
      {alarm.awaitingAck && (
        <Tag color="gold" data-testid="alarm-awaiting-ack">
          {t('cleared.awaiting')}
        </Tag>
      )}
      <Typography.Text type="secondary">{note}</Typography.Text>
      {alarm.releaseText && (
        <Typography.Text type="secondary" italic>
          {' · '}
          {alarm.releaseText}
        </Typography.Text>
      )}
    </span>
  );
};
