import { LANGUAGES } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { embeddedFontPlan, fallbackChain, loadReportFonts, scriptOf } from './fonts.ts';
import { ReportFormat } from './format.ts';
import { REPORT_TEXTS, reportTexts } from './texts/index.ts';

const faces = (text: string, language: (typeof LANGUAGES)[number], weight: 'regular' | 'bold' = 'regular') =>
  embeddedFontPlan(language)
    .runs(text, weight)
    .map((run) => [run.text, run.face]);

describe('scriptOf', () => {
  it('classes code points by Unicode block', () => {
    expect(['张', '三', '藤', '（', '：', '。'].map((c) => scriptOf(c.codePointAt(0) ?? 0))).toEqual(
      Array(6).fill('han'),
    );
    expect(['さ', 'ト', 'ー'].map((c) => scriptOf(c.codePointAt(0) ?? 0))).toEqual(['kana', 'kana', 'kana']);
    expect(['김', '민', '준'].map((c) => scriptOf(c.codePointAt(0) ?? 0))).toEqual(['hangul', 'hangul', 'hangul']);
    expect(['Z', 'ě', 'Š', '—', '≥', ' '].map((c) => scriptOf(c.codePointAt(0) ?? 0))).toEqual(Array(6).fill('other'));
  });
});

describe('per-run font fallback', () => {
  it("draws Han with the report language's CJK font", () => {
    expect(faces('佐藤 花子', 'zh-CN')).toEqual([['佐藤 花子', 'sc-regular']]);
    expect(faces('佐藤 花子', 'ja')).toEqual([['佐藤 花子', 'jp-regular']]);
    expect(faces('佐藤 花子', 'ko')).toEqual([['佐藤 花子', 'kr-regular']]);
    expect(faces('佐藤 花子', 'de')).toEqual([['佐藤 花子', 'sc-regular']]);
  });

  it('draws a Han run whole with the next font of the chain when the first lacks a glyph', () => {
    // Noto Sans JP and KR have 三 but not the simplified 张: the name must not mix two designs.
    expect(faces('张三', 'ja')).toEqual([['张三', 'sc-regular']]);
    expect(faces('张三', 'ko', 'bold')).toEqual([['张三', 'sc-bold']]);
    expect(faces('张三', 'en-US')).toEqual([['张三', 'sc-regular']]);
  });

  it('splits mixed text into runs by script', () => {
    expect(faces('Night of 张三 김민준 · 84', 'en-US')).toEqual([
      ['Night of ', 'latin-regular'],
      ['张三 ', 'sc-regular'],
      ['김민준 ', 'kr-regular'],
      ['· 84', 'latin-regular'],
    ]);
    expect(faces('Zdeněk Šťastný', 'ja', 'bold')).toEqual([['Zdeněk Šťastný', 'latin-bold']]);
  });

  it('treats text with Kana as Japanese in any report language', () => {
    expect(faces('さくら 佐藤', 'zh-CN')).toEqual([['さくら 佐藤', 'jp-regular']]);
  });

  it('keeps Latin in Noto Sans and takes only a missing symbol from a CJK font', () => {
    expect(faces('AHI ≥ 30', 'en-US')).toEqual([
      ['AHI ', 'latin-regular'],
      ['≥ ', 'sc-regular'],
      ['30', 'latin-regular'],
    ]);
  });

  it('joins a decomposed accent to its letter', () => {
    expect(faces('Zdene\u030Ck', 'cs')).toEqual([['Zdeněk', 'latin-regular']]);
  });

  it('lists the chains the README describes', () => {
    expect(fallbackChain('han', 'ko')).toEqual(['kr', 'sc', 'jp']);
    expect(fallbackChain('han', 'fr')).toEqual(['sc', 'jp', 'kr']);
    expect(fallbackChain('hangul', 'zh-CN')).toEqual(['kr']);
  });
});

describe('loadReportFonts', () => {
  it('parses the eight font files once per thread and hands out the same fonts after', () => {
    const fonts = loadReportFonts();
    expect([...fonts.keys()].sort()).toEqual([
      'jp-bold',
      'jp-regular',
      'kr-bold',
      'kr-regular',
      'latin-bold',
      'latin-regular',
      'sc-bold',
      'sc-regular',
    ]);
    expect(fonts.get('sc-bold')?.postscriptName).toBe('NotoSansSC-Bold');
    expect(loadReportFonts()).toBe(fonts);
  });
});

describe('glyph coverage', () => {
  it('has a glyph for every character any report language prints', () => {
    for (const language of LANGUAGES) {
      const plan = embeddedFontPlan(language);
      const t = reportTexts(language);
      const format = new ReportFormat(language, 'Europe/Prague', t);
      const formatted = [
        format.percent(0.934),
        format.number(12345.6, 1),
        format.duration(25_380),
        format.clock(1_772_400_000),
        format.hour(1_772_400_000),
        format.longDate('2026-03-02'),
        format.shortDate('2026-03-02'),
        format.month('2026-03'),
        format.dateTime('2026-03-02T05:30:00Z'),
      ];
      for (const text of [...Object.values(REPORT_TEXTS[language]), ...formatted, '—…']) {
        for (const weight of ['regular', 'bold'] as const) {
          expect({ language, text, missing: plan.missing(text, weight) }).toEqual({ language, text, missing: [] });
        }
      }
    }
  });

  it('finds the glyphs of names in every script', () => {
    const plan = embeddedFontPlan('en-US');
    for (const name of [
      '张三',
      'Zdeněk Šťastný',
      '佐藤 花子',
      '김민준',
      'Łukasz Żółć',
      'Ærøskøbing',
      'Đặng Thị Hương',
    ]) {
      expect(plan.missing(name, 'bold')).toEqual([]);
    }
    // A script none of the fonts has is reported, not silently dropped.
    expect(plan.missing('ብርሃን', 'regular').length).toBeGreaterThan(0);
  });
});
