import {
  CAREGIVER_LEVELS,
  CONSTANTS,
  MAX_RESIDENTS_PER_CAREGIVER,
  normalisePhone,
  type EndpointRequest,
  type EndpointResult,
  type insertNursing,
  type queryNursingList,
} from '@vigil/contract/browser';

/** One caregiver as the list answers it. */
export type CaregiverRow = EndpointResult<typeof queryNursingList>['rows'][number];
export type CaregiverLevel = CaregiverRow['level'];
/** The list's filters without paging: what the list, the export and the query key share. */
export type CaregiverFilters = Omit<EndpointRequest<typeof queryNursingList>, 'pageNum' | 'pageSize'>;
export type NewCaregiver = EndpointRequest<typeof insertNursing>;

export { CAREGIVER_LEVELS, normalisePhone };

/** Server limits (contract calls/caregivers.ts), checked in the form before sending. */
export const LIMITS = {
  nameMax: 64,
  jobMax: 64,
  remarkMax: CONSTANTS.remarkMaxLength,
  residentsMax: MAX_RESIDENTS_PER_CAREGIVER,
  loginMin: CONSTANTS.loginAccountMinLength,
  loginMax: CONSTANTS.loginAccountMaxLength,
} as const;

export const LOGIN_ACCOUNT_PATTERN = new RegExp(`^[A-Za-z0-9]{${LIMITS.loginMin},${LIMITS.loginMax}}$`);

/** The console's two nurse-manage variants (spec doc 1 §2), chosen by the stored overseas flag. */
export type Variant = 'domestic' | 'overseas';

/**
 * The number the overseas form sends: a number typed with + (or 00) is taken whole; otherwise the
 * chosen country code goes in front and a national trunk 0 is dropped (UK 07700 900123 → +447700900123).
 */
export const internationalNumber = (countryCode: string, national: string): string => {
  const typed = national.trim();
  if (typed.startsWith('+') || typed.startsWith('00')) return typed;
  return `+${countryCode}${typed.replace(/[\s\-()]/g, '').replace(/^0+/, '')}`;
};

/** Control characters: the server refuses them (PostgreSQL text cannot hold NUL). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- remarks may keep tabs and line breaks
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
export const hasControlChars = (text: string, allowLines = false): boolean =>
  (allowLines ? CONTROL_BUT_LINES : CONTROL).test(text);

/** Trimmed text, or undefined when nothing is left. */
export const blankToUndefined = (value: string | undefined): string | undefined => value?.trim() || undefined;
