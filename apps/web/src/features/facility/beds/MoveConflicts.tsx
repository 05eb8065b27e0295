import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BunkConflict } from '@vigil/contract/browser';

/** What a bed save would move, one line each: a device or resident moving here, or the occupant checked out. */
export const MoveConflicts = ({ conflicts, fallback }: { conflicts: readonly BunkConflict[]; fallback: string }) => {
  const { t } = useTranslation('facility');
  if (!conflicts.length) return <Typography.Paragraph>{fallback}</Typography.Paragraph>;
  return (
    <div data-testid="move-conflicts">
      <Typography.Paragraph>{t('move.intro')}</Typography.Paragraph>
      <ul>
        {conflicts.map((c) => (
          <li key={`${c.kind}:${c.bunkId}:${c.deviceId ?? ''}:${c.userId ?? ''}`}>
            {c.kind === 'device'
              ? t('move.device', { device: c.deviceId ?? '', bed: c.bunkPath })
              : c.kind === 'resident'
                ? t('move.resident', { resident: c.userName ?? '', bed: c.bunkPath })
                : t('move.occupant', { resident: c.userName ?? '' })}
          </li>
        ))}
      </ul>
    </div>
  );
};
