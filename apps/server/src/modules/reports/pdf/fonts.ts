/**
 * The report PDFs' fonts and the rule that picks one for every piece of text.
 *
 * Noto Sans covers Latin with every accent the European languages need; Noto Sans SC, JP and
 * KR cover Chinese, Japanese and Korean (all SIL Open Font License, from the
 * @expo-google-fonts packages). No single file covers all four scripts, and a resident's name
 * need not be in the report's language, so every string is split into runs by script and each
 * run is drawn with the first font of its script's chain that has all of its glyphs.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Language } from '@vigil/contract';

export type FontFamily = 'latin' | 'sc' | 'jp' | 'kr';
export type FontWeight = 'regular' | 'bold';
/** A registered font's name in a document: `latin-regular`, `sc-bold`, … or a standard PDF font. */
export type FaceName = `${FontFamily}-${FontWeight}` | 'Helvetica' | 'Helvetica-Bold';
export type ScriptClass = 'han' | 'kana' | 'hangul' | 'other';

const FILES: Record<FontFamily, Record<FontWeight, string>> = {
  latin: {
    regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  },
  sc: {
    regular: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
  },
  jp: {
    regular: '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf',
  },
  kr: {
    regular: '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf',
  },
};
const FAMILIES = Object.keys(FILES) as FontFamily[];
const WEIGHTS: readonly FontWeight[] = ['regular', 'bold'];

/** What the renderer uses of a fontkit font; pdfkit takes the object itself as a font source. */
export interface FontkitFont {
  readonly postscriptName: string;
  hasGlyphForCodePoint(codePoint: number): boolean;
  layout(text: string): unknown;
}

const requireHere = createRequire(import.meta.url);
/*
 * pdfkit parses a Buffer with fontkit anew in every document: about 0.8 s a report for the
 * CJK files' tables. Handing it a parsed font instead costs nothing, and the font must come
 * from the fontkit pdfkit itself depends on, so it is resolved from pdfkit's own folder.
 */
const fontkit = createRequire(requireHere.resolve('pdfkit'))('fontkit') as {
  create(data: Uint8Array): FontkitFont;
};

let loaded: ReadonlyMap<`${FontFamily}-${FontWeight}`, FontkitFont> | undefined;

/**
 * Reads and parses the eight font files, once per thread (a worker has its own module state).
 * Laying out a sample also decodes the tables the first report would otherwise pay for.
 * A worker may call it at start so its first report is as fast as the others.
 */
export function loadReportFonts(): ReadonlyMap<`${FontFamily}-${FontWeight}`, FontkitFont> {
  if (loaded) return loaded;
  const faces = new Map<`${FontFamily}-${FontWeight}`, FontkitFont>();
  for (const family of FAMILIES) {
    for (const weight of WEIGHTS) {
      const font = fontkit.create(readFileSync(requireHere.resolve(FILES[family][weight])));
      font.layout(family === 'latin' ? 'Sleep 0123456789 ěščřž' : 'Sleep 0123 睡眠 眠り 수면');
      faces.set(`${family}-${weight}`, font);
    }
  }
  loaded = faces;
  return faces;
}

/** The script class of a code point, by Unicode block. */
export function scriptOf(codePoint: number): ScriptClass {
  if (codePoint < 0x1100) return 'other';
  if (
    (codePoint >= 0x1100 && codePoint <= 0x11ff) ||
    (codePoint >= 0x3130 && codePoint <= 0x318f) ||
    (codePoint >= 0xa960 && codePoint <= 0xa97f) ||
    (codePoint >= 0xac00 && codePoint <= 0xd7ff) ||
    (codePoint >= 0xffa0 && codePoint <= 0xffdc)
  ) {
    return 'hangul';
  }
  if (
    (codePoint >= 0x3040 && codePoint <= 0x30ff) ||
    (codePoint >= 0x31f0 && codePoint <= 0x31ff) ||
    (codePoint >= 0xff66 && codePoint <= 0xff9f)
  ) {
    return 'kana';
  }
  if (
    (codePoint >= 0x2e80 && codePoint <= 0x2fdf) ||
    (codePoint >= 0x3000 && codePoint <= 0x303f) ||
    (codePoint >= 0x3190 && codePoint <= 0x9fff) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0xfe30 && codePoint <= 0xfe4f) ||
    (codePoint >= 0xff00 && codePoint <= 0xff65) ||
    (codePoint >= 0xffe0 && codePoint <= 0xffef) ||
    (codePoint >= 0x20000 && codePoint <= 0x3ffff)
  ) {
    return 'han';
  }
  return 'other';
}

/** A code point that belongs to the character before it (accents, variation selectors, joiners). */
const joinsPrevious = (codePoint: number): boolean =>
  (codePoint >= 0x0300 && codePoint <= 0x036f) ||
  (codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
  codePoint === 0x200d ||
  (codePoint >= 0xe0100 && codePoint <= 0xe01ef);

const isSpace = (codePoint: number): boolean =>
  codePoint === 0x20 || codePoint === 0xa0 || codePoint === 0x202f || codePoint === 0x2009 || codePoint === 0x3000;

/** The CJK font whose glyph shapes the language's readers expect for Han characters. */
export const cjkFamilyOf = (language: Language): FontFamily =>
  language === 'ja' ? 'jp' : language === 'ko' ? 'kr' : 'sc';

/**
 * Fonts to try for a script class, best first; the next one is used when a glyph is missing.
 * Han takes the report language's CJK font, except in text that also has Kana: that is
 * Japanese, whatever the report's language, and its Han takes the Japanese forms.
 */
export function fallbackChain(script: ScriptClass, language: Language, japaneseText = false): FontFamily[] {
  const cjk = cjkFamilyOf(language);
  const chains: Record<ScriptClass, FontFamily[]> = {
    han: japaneseText ? ['jp', cjk, 'sc', 'kr'] : [cjk, 'sc', 'jp', 'kr'],
    kana: ['jp', cjk, 'sc'],
    hangul: ['kr'],
    other: ['latin', cjk, 'sc', 'jp', 'kr'],
  };
  return [...new Set(chains[script])];
}

export interface TextRun {
  text: string;
  face: FaceName;
}

/** How a document's text becomes runs of registered fonts. */
export interface FontPlan {
  /** Registers the plan's fonts in a new document. */
  register(doc: PDFKit.PDFDocument): void;
  runs(text: string, weight: FontWeight): TextRun[];
}

const FAMILY_BIT: Record<FontFamily, number> = { latin: 1, sc: 2, jp: 4, kr: 8 };

/**
 * The embedded Noto fonts with per-run fallback: what every real report uses. A Han, Kana or
 * Hangul run is drawn whole with the first font of its chain that has all its glyphs, so a
 * name never mixes two designs ("张三" in a Japanese report: Noto Sans JP lacks 张, so both
 * characters are drawn from SC). Other text keeps Noto Sans and falls back per character, for
 * the odd symbol (≥) Noto Sans lacks.
 */
export class EmbeddedFontPlan implements FontPlan {
  private readonly faces = loadReportFonts();
  /** Which families have a code point, per weight: each glyph look-up is paid once per process. */
  private readonly coverage = new Map<number, number>();

  constructor(private readonly language: Language) {}

  register(doc: PDFKit.PDFDocument): void {
    for (const [name, font] of this.faces) {
      // pdfkit accepts a parsed fontkit font wherever it accepts a file (PDFFontFactory.open).
      doc.registerFont(name, font as unknown as Buffer);
    }
  }

  /** Bit mask of the families (FAMILY_BIT) that can draw the code point. */
  private familiesWith(codePoint: number, weight: FontWeight): number {
    const key = codePoint * 2 + (weight === 'bold' ? 1 : 0);
    let mask = this.coverage.get(key);
    if (mask === undefined) {
      mask = 0;
      for (const family of FAMILIES) {
        if (this.faces.get(`${family}-${weight}`)?.hasGlyphForCodePoint(codePoint)) mask |= FAMILY_BIT[family];
      }
      this.coverage.set(key, mask);
    }
    return mask;
  }

  runs(text: string, weight: FontWeight): TextRun[] {
    const chars = [...text.normalize('NFC')];
    const codePoints = chars.map((c) => c.codePointAt(0) ?? 0);
    const japanese = codePoints.some((cp) => scriptOf(cp) === 'kana');
    // 1. Script runs; a space or an accent stays in the run it follows.
    const scriptRuns: { script: ScriptClass; chars: string[]; codePoints: number[] }[] = [];
    codePoints.forEach((codePoint, i) => {
      const current = scriptRuns[scriptRuns.length - 1];
      const script = scriptOf(codePoint);
      if (current && (current.script === script || joinsPrevious(codePoint) || isSpace(codePoint))) {
        current.chars.push(chars[i] ?? '');
        current.codePoints.push(codePoint);
      } else {
        scriptRuns.push({ script, chars: [chars[i] ?? ''], codePoints: [codePoint] });
      }
    });
    // 2. A font for each run, or for each character where no font has the whole run.
    const pieces: { family: FontFamily; text: string }[] = [];
    const put = (family: FontFamily, char: string): void => {
      const last = pieces[pieces.length - 1];
      if (last && last.family === family) last.text += char;
      else pieces.push({ family, text: char });
    };
    for (const run of scriptRuns) {
      const chain = fallbackChain(run.script, this.language, japanese);
      const masks = run.codePoints.map((cp) => this.familiesWith(cp, weight));
      const whole =
        run.script === 'other' ? undefined : chain.find((f) => masks.every((m) => (m & FAMILY_BIT[f]) !== 0));
      run.chars.forEach((char, i) => {
        if (whole) return put(whole, char);
        const mask = masks[i] ?? 0;
        const previous = pieces[pieces.length - 1]?.family;
        const keep =
          previous !== undefined &&
          (isSpace(run.codePoints[i] ?? 0) || joinsPrevious(run.codePoints[i] ?? 0)) &&
          (mask & FAMILY_BIT[previous]) !== 0;
        // A character no font has still goes to the chain's first font (it shows as an empty box).
        put(
          keep && previous ? previous : (chain.find((f) => (mask & FAMILY_BIT[f]) !== 0) ?? chain[0] ?? 'latin'),
          char,
        );
      });
    }
    return pieces.map((piece) => ({ text: piece.text, face: `${piece.family}-${weight}` as const }));
  }

  /** Code points that no embedded font can draw (they would print as empty boxes). */
  missing(text: string, weight: FontWeight): number[] {
    return [...text.normalize('NFC')]
      .map((c) => c.codePointAt(0) ?? 0)
      .filter((cp) => cp >= 0x20 && this.familiesWith(cp, weight) === 0);
  }
}

const embeddedPlans = new Map<Language, EmbeddedFontPlan>();

export function embeddedFontPlan(language: Language): EmbeddedFontPlan {
  let plan = embeddedPlans.get(language);
  if (!plan) {
    plan = new EmbeddedFontPlan(language);
    embeddedPlans.set(language, plan);
  }
  return plan;
}

/**
 * pdfkit's built-in Helvetica, nothing embedded and no fallback: Latin-1 text only. Not for
 * reports; the bench draws the same document with it as the least a PDF of that size costs.
 */
export const standardFontPlan: FontPlan = {
  register() {},
  runs: (text, weight) => [{ text, face: weight === 'bold' ? 'Helvetica-Bold' : 'Helvetica' }],
};
