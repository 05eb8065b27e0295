import { fieldLabel, Status, type Language } from '@vigil/contract';
import { AppError } from './app-error.ts';

/**
 * Control characters other than tab, line feed and carriage return, and UTF-16 surrogates that are
 * not part of a pair. PostgreSQL refuses NUL in text (an inner 500 before this guard), and none of
 * them is ever typed into a form: they only arrive from scripts and attacks.
 */
const FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- matching control characters is this guard's purpose
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first text value (by its path, e.g. `contacts.1.name`) holding a forbidden character. */
export const forbiddenTextAt = (
  value: unknown,
  path: readonly (string | number)[] = [],
): (string | number)[] | null => {
  if (typeof value === 'string') return FORBIDDEN.test(value) ? [...path] : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = forbiddenTextAt(item, [...path, i]);
      if (found) return found;
    }
    return null;
  }
  // Uploaded files carry bytes, which are checked by their own readers.
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = FORBIDDEN.test(key) ? [...path, key] : forbiddenTextAt(item, [...path, key]);
    if (found) return found;
  }
  return null;
};

/** Refuses a request whose text holds a forbidden character, naming the field (inner 400), before it is parsed. */
export const refuseControlCharacters = (raw: unknown, lang: Language): void => {
  const path = forbiddenTextAt(raw);
  if (!path) return;
  const field = path.length ? path.map(String).join('.') : 'body';
  const named = [...path].reverse().find((p): p is string => typeof p === 'string');
  const error = new AppError(Status.INVALID_INPUT, 'validation.controlCharacter', {
    field: named === undefined ? field : fieldLabel(lang, named),
  });
  throw field === 'body' ? error : error.on(field);
};
