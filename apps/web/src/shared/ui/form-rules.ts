import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';

/**
 * The console's one wording per validation rule (issue 29, point 14): every form says "Required"
 * for a required field and "At most N characters." for a length limit, from the shell's texts, so
 * the same rule never reads two ways. Control characters and phone numbers are `rule.controlChars`
 * and `rule.phone` there too.
 */
const SHELL = { ns: 'translation' } as const;

/** A field that must have a value (a choice, a date, a file). */
export const requiredRule = (t: TFunction): Rule => ({ required: true, message: t('common.required', SHELL) });

/** A text that must be filled in: blank counts as empty. */
export const requiredTextRule = (t: TFunction): Rule => ({
  required: true,
  whitespace: true,
  message: t('common.required', SHELL),
});

/** A text of at most `max` characters. */
export const maxLengthRule = (t: TFunction, max: number): Rule => ({
  max,
  message: t('rule.maxLength', { ...SHELL, max }),
});

/** The message of a text with control characters the server refuses. */
export const controlCharsMessage = (t: TFunction): string => t('rule.controlChars', SHELL);

/** The message of a mobile number the server's phone rule refuses. */
export const phoneMessage = (t: TFunction): string => t('rule.phone', SHELL);
