import { LANGUAGES, translate } from '@vigil/contract';
import type { CellParser } from './table-parser.ts';

/** Cell parsers shared by every import (spec document 1, section 5). */

export const text =
  (max: number): CellParser<string> =>
  (value) =>
    value.length <= max ? { ok: true, value } : { ok: false, reason: 'import.cell.tooLong', params: { max } };

export const integer =
  (min: number, max: number): CellParser<number> =>
  (value) => {
    if (!/^[+-]?\d+(\.0+)?$/.test(value)) return { ok: false, reason: 'import.cell.number' };
    const n = Number(value);
    return n >= min && n <= max
      ? { ok: true, value: n }
      : { ok: false, reason: 'import.cell.range', params: { min, max } };
  };

/** 0 male, 1 female; accepts the words of every server language and the codes themselves. */
export const gender: CellParser<0 | 1> = (value) => {
  const v = value.toLowerCase();
  const words = (key: 'sheet.gender.male' | 'sheet.gender.female') =>
    LANGUAGES.map((l) => translate(l, key).toLowerCase());
  if (v === '0' || v === 'm' || words('sheet.gender.male').includes(v)) return { ok: true, value: 0 };
  if (v === '1' || v === 'f' || words('sheet.gender.female').includes(v)) return { ok: true, value: 1 };
  return { ok: false, reason: 'import.cell.gender' };
};

/** YYYY-MM-DD or YYYY/MM/DD (one-digit month and day allowed), a real calendar date, as YYYY-MM-DD. */
export const date: CellParser<string> = (value) => {
  const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(value);
  if (!m) return { ok: false, reason: 'import.cell.date' };
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d)
    return { ok: false, reason: 'import.cell.date' };
  return { ok: true, value: `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}` };
};

/** One of a fixed set, matched against localised labels (any server language) or the codes. */
export const oneOf =
  <T extends string>(options: readonly { value: T; label: Parameters<typeof translate>[1] }[]): CellParser<T> =>
  (value, lang) => {
    const v = value.toLowerCase();
    for (const o of options) {
      if (o.value.toLowerCase() === v) return { ok: true, value: o.value };
      if (LANGUAGES.some((l) => translate(l, o.label).toLowerCase() === v)) return { ok: true, value: o.value };
    }
    return {
      ok: false,
      reason: 'import.cell.oneOf',
      params: { options: options.map((o) => translate(lang, o.label)).join(', ') },
    };
  };

/** Yes or no in either server language (or 1 / 0, true / false). */
export const yesNo: CellParser<boolean> = (value) => {
  const v = value.toLowerCase();
  const words = (key: 'sheet.yes' | 'sheet.no') => LANGUAGES.map((l) => translate(l, key).toLowerCase());
  if (['1', 'true', 'y', ...words('sheet.yes')].includes(v)) return { ok: true, value: true };
  if (['0', 'false', 'n', ...words('sheet.no')].includes(v)) return { ok: true, value: false };
  return { ok: false, reason: 'import.cell.yesNo' };
};

/** Several of a fixed set, separated by commas (half- or full-width), enumeration commas or semicolons. */
export const listOf =
  <T extends string>(options: readonly { value: T; label: Parameters<typeof translate>[1] }[]): CellParser<T[]> =>
  (value, lang) => {
    const one = oneOf(options);
    const out: T[] = [];
    for (const part of value
      .split(/[,，、;；]/)
      .map((p) => p.trim())
      .filter(Boolean)) {
      const result = one(part, lang);
      if (!result.ok) return result;
      if (!out.includes(result.value)) out.push(result.value);
    }
    return { ok: true, value: out };
  };
