import { describe, expect, it } from 'vitest';
import { UI_LANGUAGES, type UiLanguage } from './index.ts';

/**
 * Issue 29, point 14: the console named the alarm levels "Lv.1" on tags, "1级" in a popup and "一级"
 * elsewhere in Chinese; 단계 and 등급 in Korean; "レベル 1" and "レベル1" in Japanese. Each language
 * now names them one way: the shell's alarmLevel.1 / alarmLevel.2, which every text naming a level
 * repeats (declined, in Czech).
 */

const shell = import.meta.glob<Record<string, string>>('./locales/*.json', { eager: true, import: 'default' });
const features = import.meta.glob<Record<string, string>>('../../features/*/locales/*.json', {
  eager: true,
  import: 'default',
});
/** Rollout stages and sleep stages use the same words for other things. */
const OTHER_LEVELS = ['firmware', 'sleep-report'];

const textsOf = (language: UiLanguage): [string, string][] =>
  Object.entries({ ...shell, ...features })
    .filter(([file]) => file.endsWith(`/${language}.json`))
    .filter(([file]) => !OTHER_LEVELS.some((name) => file.includes(`/features/${name}/`)))
    .flatMap(([file, texts]) => Object.entries(texts).map(([key, text]): [string, string] => [`${file} ${key}`, text]));

const CJK_NUMBER = { 1: '一', 2: '二' } as const;

/** How a text may name level n in each language (broadly), and the one way it must. */
const NAMING: Record<UiLanguage, (n: 1 | 2) => { names: RegExp; canonical: RegExp }> = {
  'zh-CN': (n) => ({ names: new RegExp(`(${n}|${CJK_NUMBER[n]})\\s*级`), canonical: new RegExp(`${CJK_NUMBER[n]}级`) }),
  'en-US': (n) => ({
    names: new RegExp(`\\b(level|lv)\\.?\\s*${n}\\b`, 'i'),
    canonical: new RegExp(`\\blevel ${n}\\b`, 'i'),
  }),
  ko: (n) => ({ names: new RegExp(`(?<!\\d)${n}\\s*(단계|등급)`), canonical: new RegExp(`(?<!\\d)${n}단계`) }),
  ja: (n) => ({ names: new RegExp(`レベル\\s*${n}`), canonical: new RegExp(`レベル${n}`) }),
  de: (n) => ({
    names: new RegExp(`\\b(stufe|level)\\s*${n}\\b`, 'i'),
    canonical: new RegExp(`\\bstufe ${n}\\b`, 'i'),
  }),
  cs: (n) => ({
    names: new RegExp(`(úrov\\p{L}*\\s*${n}\\b|\\b${n}\\.\\s*úrov)`, 'iu'),
    canonical: new RegExp(`úrov\\p{L}*\\s+${n}\\b`, 'iu'),
  }),
  it: (n) => ({
    names: new RegExp(`\\b(livello|liv\\.)\\s*${n}\\b`, 'i'),
    canonical: new RegExp(`\\blivello ${n}\\b`, 'i'),
  }),
  fr: (n) => ({
    names: new RegExp(`\\b(niveau|niv\\.)\\s*${n}\\b`, 'i'),
    canonical: new RegExp(`\\bniveau ${n}\\b`, 'i'),
  }),
};

/** A level word next to a placeholder would print the number, not the name ("1级", "Lv.1"). */
const NUMBER_PLACEHOLDER =
  /(lv\.?|level|stufe|livello|niveau|úrov\p{L}*|レベル)\s*\{\{\w+\}\}|\{\{\w+\}\}\s*(级|단계|등급|\.\s*úrov)/iu;

describe('alarm level names (issue 29, point 14)', () => {
  it.each([...UI_LANGUAGES])('%s names each level one way, as alarmLevel.1 and alarmLevel.2 do', (language) => {
    const names = shell[`./locales/${language}.json`] ?? {};
    const texts = textsOf(language);
    expect(texts.length).toBeGreaterThan(500);
    const wrong: string[] = [];
    for (const n of [1, 2] as const) {
      const { names: naming, canonical } = NAMING[language](n);
      const name = names[`alarmLevel.${n}`] ?? '';
      expect(name, `alarmLevel.${n}`).toMatch(canonical);
      for (const [where, text] of texts) {
        if (naming.test(text) && !canonical.test(text)) wrong.push(`${where}: "${text}" (level ${n} is "${name}")`);
      }
    }
    for (const [where, text] of texts) {
      if (/\bLv\.?\s*\d/i.test(text)) wrong.push(`${where}: "${text}" (Lv.)`);
      if (NUMBER_PLACEHOLDER.test(text)) wrong.push(`${where}: "${text}" (a number where the level's name belongs)`);
    }
    expect(wrong).toEqual([]);
  });
});
