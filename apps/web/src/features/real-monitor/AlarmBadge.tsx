import type { LiveResident } from '@vigil/contract/browser';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** The resident's open alarms, red for level 1 and orange for level 2; nothing when none is open. */
export const AlarmBadge = ({
  resident,
}: {
  resident: Pick<LiveResident, 'alertLevel' | 'pendingAlarms' | 'userId'>;
}) => {
  const { t } = useTranslation('real-monitor');
  if (resident.alertLevel === null) return null;
  return (
    <Tag
      color={resident.alertLevel === 1 ? 'red' : 'orange'}
      data-testid={`alarm-badge-${resident.userId}`}
      style={{ marginInlineEnd: 0 }}
    >
      {t('alarmBadge', {
        count: Math.max(resident.pendingAlarms, 1),
        level: t(resident.alertLevel === 1 ? 'alarmLevel.1' : 'alarmLevel.2', { ns: 'translation' }),
      })}
    </Tag>
  );
};
