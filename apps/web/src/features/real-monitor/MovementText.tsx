import type { LiveResident } from '@vigil/contract/browser';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The latest sample's body movement: still, moving (with its amount), or a dash when not known. */
export const MovementText = ({
  resident,
  labelled = true,
}: {
  resident: Pick<LiveResident, 'vitals' | 'userId'>;
  /** Preceded by "Movement:" (not in a table's movement column). */
  labelled?: boolean;
}) => {
  const { t } = useTranslation('real-monitor');
  const move = resident.vitals?.online ? resident.vitals.move : null;
  const text =
    move === null || move === undefined ? '—' : move === 0 ? t('move.still') : t('move.moving', { value: move });
  return (
    <Typography.Text style={{ fontSize: 'inherit' }} data-testid={`movement-${resident.userId}`}>
      {labelled ? `${t('vital.movement')}: ${text}` : text}
    </Typography.Text>
  );
};
