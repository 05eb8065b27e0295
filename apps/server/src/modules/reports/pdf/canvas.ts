/**
 * An A4 page flow over pdfkit: text drawn run by run in the fonts the plan picks, lines broken
 * the way each script allows, page breaks, and the footer on every page. pdfkit's own text
 * flow knows one font per call, so the renderer places every line itself (`lineBreak: false`).
 */
import PDFDocument from 'pdfkit';
import type { Language } from '@vigil/contract';
import { scriptOf, type FontPlan, type FontWeight } from './fonts.ts';

/** A4 portrait in points. */
export const PAGE = { width: 595.28, height: 841.89 } as const;
export const MARGIN = 36;
/** Below this the footer lives; content never goes there. */
export const CONTENT_BOTTOM = PAGE.height - 54;
export const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
export const LEFT = MARGIN;
export const RIGHT = PAGE.width - MARGIN;

export const COLORS = {
  text: '#1f2933',
  muted: '#616e7c',
  faint: '#9aa5b1',
  rule: '#d9dee4',
  panel: '#f4f6f8',
  track: '#e4e8ec',
  accent: '#2f5f9e',
  wake: '#f0a35e',
  rem: '#8e6fd1',
  light: '#7fb3e6',
  deep: '#2f5f9e',
  heart: '#d64545',
  breath: '#2f8fb8',
  movement: '#7b8794',
  apnea: '#c0392b',
  outOfBed: '#e6e0cf',
  low: '#2e9e5b',
  medium: '#e08a1e',
  high: '#d64545',
  notice: '#b35c00',
  noticeFill: '#fff4e5',
} as const;

export interface TextStyle {
  size: number;
  bold?: boolean;
  color?: string;
}

export interface LineOptions {
  align?: 'left' | 'right' | 'center';
  /** The box the line must stay in: with `align`, where it sits; too long, it ends in "…". */
  width?: number;
}

/** Where a line's baseline sits below its top, and how far apart lines are, in em. */
const BASELINE = 0.92;
const LEADING = 1.32;

/** What never starts a line (closing marks, CJK iteration and prolonged sound marks)… */
const CLOSING = new Set([...':;!?%)]}»、。，．）」』】〕！？：；・ー…’”～〜々ゝゞヽヾ']);
/** …and what never ends one. */
const OPENING = new Set([...'([{«（「『【〔“‘']);

interface Atom {
  text: string;
  /** Width without trailing spaces (what a line ending here needs). */
  width: number;
  /** Width with trailing spaces (what the next atom starts after). */
  advance: number;
}

export class ReportCanvas {
  readonly doc: PDFKit.PDFDocument;
  /** The flow's cursor: the top of the next block on the current page. */
  y = MARGIN;
  private readonly chunks: Uint8Array[] = [];
  private readonly ended: Promise<void>;

  constructor(
    private readonly plan: FontPlan,
    meta: { title: string; author: string; language: Language },
  ) {
    this.doc = new PDFDocument({
      size: 'A4',
      // Margins are the renderer's own: pdfkit's would start new pages under the footer.
      margins: { top: 0, bottom: 0, left: 0, right: 0 },
      bufferPages: true,
      lang: meta.language,
      displayTitle: true,
      info: { Title: meta.title, Author: meta.author, Creator: 'Vigil' },
    });
    this.doc.on('data', (chunk: Uint8Array) => this.chunks.push(chunk));
    this.ended = new Promise((resolve, reject) => {
      this.doc.on('end', resolve);
      this.doc.on('error', reject);
    });
    plan.register(this.doc);
  }

  lineHeight(style: TextStyle): number {
    return style.size * LEADING;
  }

  width(text: string, style: TextStyle): number {
    let width = 0;
    for (const run of this.plan.runs(text, weightOf(style))) {
      width += this.doc.font(run.face).fontSize(style.size).widthOfString(run.text);
    }
    return width;
  }

  /** One line whose top is at `top`; returns the width drawn. */
  text(text: string, x: number, top: number, style: TextStyle, options: LineOptions = {}): number {
    let line = text;
    let width = this.width(line, style);
    if (options.width !== undefined && width > options.width) {
      line = this.shorten(line, options.width, style);
      width = this.width(line, style);
    }
    let left = x;
    if (options.width !== undefined && options.align === 'right') left = x + options.width - width;
    if (options.width !== undefined && options.align === 'center') left = x + (options.width - width) / 2;
    const baseline = top + style.size * BASELINE;
    this.doc.fillColor(style.color ?? COLORS.text);
    for (const run of this.plan.runs(line, weightOf(style))) {
      this.doc.font(run.face).fontSize(style.size);
      this.doc.text(run.text, left, baseline, { lineBreak: false, baseline: 'alphabetic' });
      left += this.doc.widthOfString(run.text);
    }
    return width;
  }

  /** The text broken into lines no wider than `width`. */
  lines(text: string, width: number, style: TextStyle): string[] {
    const lines: string[] = [];
    let line = '';
    let lineWidth = 0;
    for (const atom of this.atoms(text, style)) {
      if (line !== '' && lineWidth + atom.width > width) {
        lines.push(line.trimEnd());
        line = '';
        lineWidth = 0;
      }
      if (line === '' && atom.width > width) {
        // A word longer than the line (a long name or a URL) is cut where it must be.
        const pieces = this.cut(atom.text.trimEnd(), width, style);
        lines.push(...pieces.slice(0, -1));
        line = pieces[pieces.length - 1] ?? '';
        lineWidth = this.width(line, style);
        continue;
      }
      line += atom.text;
      lineWidth += atom.advance;
    }
    if (line.trim() !== '') lines.push(line.trimEnd());
    return lines;
  }

  /** Text wrapped into `width` from `top`; returns the height used. */
  paragraph(text: string, x: number, top: number, width: number, style: TextStyle, maxLines = Infinity): number {
    let lines = this.lines(text, width, style);
    if (lines.length > maxLines) {
      lines = lines.slice(0, maxLines);
      const last = lines.length - 1;
      lines[last] = this.shorten(`${lines[last] ?? ''}…`, width, style);
    }
    lines.forEach((line, i) => this.text(line, x, top + i * this.lineHeight(style), style));
    return lines.length * this.lineHeight(style);
  }

  paragraphHeight(text: string, width: number, style: TextStyle): number {
    return this.lines(text, width, style).length * this.lineHeight(style);
  }

  /** Starts a new page when `height` does not fit below the cursor. */
  ensureSpace(height: number): void {
    if (this.y + height > CONTENT_BOTTOM) this.newPage();
  }

  newPage(): void {
    this.doc.addPage();
    this.y = MARGIN;
  }

  /** Draws each page's footer and returns the finished file. */
  async finish(footer: (page: number, pages: number) => void): Promise<Uint8Array> {
    const range = this.doc.bufferedPageRange();
    for (let i = 0; i < range.count; i++) {
      this.doc.switchToPage(range.start + i);
      footer(i + 1, range.count);
    }
    this.doc.end();
    await this.ended;
    const file = Buffer.concat(this.chunks);
    return new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  }

  private atoms(text: string, style: TextStyle): Atom[] {
    // Words with their trailing spaces; Han and Kana then break between any two characters.
    const words = text.match(/ +|[^ ]+ */g) ?? [];
    const merged: string[] = [];
    for (const piece of splitCjk(words)) {
      const first = [...piece][0] ?? '';
      const previous = merged[merged.length - 1];
      const previousLast = previous === undefined ? '' : ([...previous.trimEnd()].pop() ?? '');
      // No line starts with closing punctuation ("%", "：", "。") or a space, nor ends with an opening
      // one, and a number keeps its short unit ("30 min", "7–8 h").
      const unitAfterNumber = /\d $/.test(previous ?? '') && /^\p{L}{1,4}\.?[.,;:)]* *$/u.test(piece);
      if (
        previous !== undefined &&
        (CLOSING.has(first) ||
          first === ' ' ||
          unitAfterNumber ||
          (OPENING.has(previousLast) && previous === previous.trimEnd()))
      ) {
        merged[merged.length - 1] = previous + piece;
      } else {
        merged.push(piece);
      }
    }
    return merged.map((piece) => ({
      text: piece,
      width: this.width(piece.trimEnd(), style),
      advance: this.width(piece, style),
    }));
  }

  private cut(word: string, width: number, style: TextStyle): string[] {
    const pieces: string[] = [];
    let piece = '';
    for (const char of word) {
      if (piece !== '' && this.width(piece + char, style) > width) {
        pieces.push(piece);
        piece = '';
      }
      piece += char;
    }
    pieces.push(piece);
    return pieces;
  }

  private shorten(text: string, width: number, style: TextStyle): string {
    const chars = [...text.replace(/…$/, '')];
    while (chars.length > 0 && this.width(`${chars.join('').trimEnd()}…`, style) > width) chars.pop();
    return `${chars.join('').trimEnd()}…`;
  }
}

const weightOf = (style: TextStyle): FontWeight => (style.bold ? 'bold' : 'regular');

/** Han ideographs and Kana: a line may break between any two of them. */
const breaksAnywhere = (codePoint: number): boolean =>
  (codePoint >= 0x3400 && codePoint <= 0x9fff) ||
  (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
  codePoint >= 0x20000 ||
  (scriptOf(codePoint) === 'kana' && codePoint < 0xff00);

/** Splits words that contain Han or Kana into one piece per character (each a break opportunity). */
function splitCjk(words: string[]): string[] {
  const pieces: string[] = [];
  for (const word of words) {
    let rest = '';
    for (const char of word) {
      if (breaksAnywhere(char.codePointAt(0) ?? 0)) {
        if (rest !== '') pieces.push(rest);
        pieces.push(char);
        rest = '';
      } else {
        rest += char;
      }
    }
    if (rest !== '') pieces.push(rest);
  }
  return pieces;
}
