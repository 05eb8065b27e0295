import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DASH, durationParts, numberText, percentText } from './report-format.ts';

/** The report's figures as words of the interface language; null figures are a dash. */
export const useReportFormat = () => {
  const { t, i18n } = useTranslation('sleep-report');
  const language = i18n.language;
  return useMemo(
    () => ({
      duration: (seconds: number | null | undefined): string => {
        if (seconds === null || seconds === undefined) return DASH;
        const { hours, minutes } = durationParts(seconds);
        return hours > 0 ? t('unit.hoursMinutes', { hours, minutes }) : t('unit.minutes', { minutes });
      },
      percent: (share: number | null | undefined): string => percentText(share, language),
      number: (value: number | null | undefined, digits = 1): string => numberText(value, language, digits),
      whole: (value: number | null | undefined): string => numberText(value, language, 0),
      /** Gender and age, as far as known ("Female · 86 years"). */
      person: (resident: { gender: string | null; age: number | null }): string =>
        [
          resident.gender === '0' || resident.gender === '1' ? t(`gender.${resident.gender}`) : null,
          resident.age === null ? null : t('resident.age', { age: resident.age }),
        ]
          .filter(Boolean)
          .join(' · '),
    }),
    [t, language],
  );
};
