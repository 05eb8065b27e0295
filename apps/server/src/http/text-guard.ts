import { fieldLabel, Status, type Language } from '@vigil/contract';
import { AppError } from '../core/app-error.ts';

/**
 * Control characters other than tab, line feed and carriage return, and UTF-16 surrogates that are
 * not part of a pair. PostgreSQL refuses NUL in text (an inner 500 before this guard), and none of
 * them is ever typed into a form: they only arrive from scripts and attacks.
 */
const FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- matching control characters is this guard's purpose
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first text value (by its path, e.g. `contacts.1.name`) holding a forbidden character; iterative, so no depth overflows it. */
export const forbiddenTextAt = (value: unknown): (string | number)[] | null => {
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: current, path } = next;
    if (typeof current === 'string') {
      if (FORBIDDEN.test(current)) return path;
      continue;
    }
    // Uploaded files carry bytes, which are checked by their own readers.
    if (current === null || typeof current !== 'object' || current instanceof Uint8Array) continue;
    const entries: [string | number, unknown][] = Array.isArray(current)
      ? current.map((item, i): [number, unknown] => [i, item])
      : Object.entries(current);
    // Reversed onto the stack so the first field is looked at first.
    for (const [key, item] of entries.reverse()) {
      if (typeof key === 'string' && FORBIDDEN.test(key)) return [...path, key];
      pending.push({ value: item, path: [...path, key] });
    }
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
