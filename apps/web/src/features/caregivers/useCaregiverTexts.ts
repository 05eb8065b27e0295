import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useAbroad } from '../../shared/session/access.ts';
import type { CaregiverLevel, Variant } from './caregiver-model.ts';

/**
 * The screen's texts and its variant. `v(key)` reads `domestic.key` or `overseas.key`: the two
 * variants word the same things differently (caregiver / care staff), so each sentence is
 * translated whole rather than built from a swapped noun.
 */
export const useCaregiverTexts = () => {
  const { t, i18n } = useTranslation('caregivers');
  // The server's overseas edition, as the shell reads it (DownloadGuide, language dialog).
  const variant: Variant = useAbroad() ? 'overseas' : 'domestic';
  const v = useCallback(
    (key: string, options?: Record<string, unknown>) => t(`${variant}.${key}`, options ?? {}),
    [t, variant],
  );
  const levelLabel = useCallback((level: CaregiverLevel) => v(`level.${level}`), [v]);
  return { t, v, variant, levelLabel, language: i18n.language };
};
