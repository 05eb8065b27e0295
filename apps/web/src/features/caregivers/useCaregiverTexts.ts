import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isAbroad } from '../../shared/storage.ts';
import type { CaregiverLevel, Variant } from './caregiver-model.ts';

/**
 * The screen's texts and its variant. `v(key)` reads `domestic.key` or `overseas.key`: the two
 * variants word the same things differently (caregiver / care staff), so each sentence is
 * translated whole rather than built from a swapped noun.
 */
export const useCaregiverTexts = () => {
  const { t, i18n } = useTranslation('caregivers');
  // Read as the shell reads it (DownloadGuide, route filter): the flag changes only with a reload.
  const variant: Variant = isAbroad() ? 'overseas' : 'domestic';
  const v = useCallback(
    (key: string, options?: Record<string, unknown>) => t(`${variant}.${key}`, options ?? {}),
    [t, variant],
  );
  const levelLabel = useCallback((level: CaregiverLevel) => v(`level.${level}`), [v]);
  return { t, v, variant, levelLabel, language: i18n.language };
};
