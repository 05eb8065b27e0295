import type { LiveResident } from '@vigil/contract/browser';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { liveStatusOf, STATUS_COLOURS } from './live-model.ts';

/** In bed, out of bed, offline, away, no monitor or not known yet, coloured. */
export const LiveStatusTag = ({ resident }: { resident: Pick<LiveResident, 'away' | 'vitals' | 'userId'> }) => {
  const { t } = useTranslation('real-monitor');
  const status = liveStatusOf(resident);
  return (
    <Tag color={STATUS_COLOURS[status]} data-testid={`live-status-${resident.userId}`}>
      {t(`status.${status}`)}
    </Tag>
  );
};
