import { PLACE_BATCH_MAX, PLACE_NAME_MAX } from '../facility-model.ts';

/**
 * The server's rules for place names (packages/contract calls/facility.ts and the facility
 * policy), checked in the form so a user learns before sending. Each problem is a key of the
 * facility namespace with its parameters.
 */
export interface NameRuleProblem {
  key: string;
  params?: Record<string, string | number>;
}

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
const COMMA = /[,，]/;

/** One name (area, floor, room, bed): 1 to 32 characters, no comma, no control character. */
export const checkPlaceName = (raw: string | undefined): NameRuleProblem | null => {
  const name = (raw ?? '').trim();
  // The console's one wording for these rules (shared/ui/form-rules.ts).
  if (!name) return { key: 'common.required' };
  if (name.length > PLACE_NAME_MAX) return { key: 'rule.maxLength', params: { max: PLACE_NAME_MAX } };
  if (COMMA.test(name) || CONTROL.test(name)) return { key: 'rule.nameChars' };
  return null;
};

/** Splits a comma-separated list (`,` or `，`) as the server does: trimmed, empty items dropped. */
export const splitNames = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(COMMA)
    .map((n) => n.trim())
    .filter((n) => n.length > 0);

/**
 * A batch of names (rooms, beds): at least one, at most 200, each at most 32 characters, none
 * listed twice (case-insensitive, as the server's unique indexes compare).
 */
export const checkNameList = (raw: string | undefined): NameRuleProblem | null => {
  if (CONTROL.test(raw ?? '')) return { key: 'rule.nameChars' };
  const names = splitNames(raw);
  if (!names.length) return { key: 'rule.namesRequired' };
  if (names.length > PLACE_BATCH_MAX) return { key: 'rule.tooManyNames', params: { max: PLACE_BATCH_MAX } };
  const tooLong = names.filter((n) => n.length > PLACE_NAME_MAX);
  if (tooLong.length) return { key: 'rule.namesTooLong', params: { max: PLACE_NAME_MAX, names: tooLong.join(', ') } };
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const name of names) {
    const key = name.toLowerCase();
    if (seen.has(key)) repeated.add(name);
    seen.add(key);
  }
  if (repeated.size) return { key: 'rule.namesRepeated', params: { names: [...repeated].join(', ') } };
  return null;
};
