/**
 * Test support: what a reader of a report PDF gets out of it. pdf.js (the engine of Firefox's
 * viewer) extracts each page's text; the raw file shows which fonts are embedded.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfItem {
  text: string;
  /** Left end of the text and its baseline, in points from the page's bottom-left corner. */
  x: number;
  y: number;
}

export interface PdfContent {
  /** Each page's text items in drawing order, empty items left out. */
  items: string[][];
  /** The same items with their positions. */
  placed: PdfItem[][];
  /** Each page's text: items joined, a line break where pdf.js sees a line end. */
  pages: string[];
  /** Every page's text with line breaks removed, for phrases that may wrap. */
  flat: string;
  /** Every page's text without any whitespace, for CJK sentences that wrap anywhere. */
  compact: string;
  /** BaseFont names of the embedded fonts (subset prefix included, e.g. "CZZZZZ+NotoSansSC-Bold"). */
  fonts: string[];
  /** How many fonts carry a TrueType program (FontFile2) in the file. */
  fontFiles: number;
  /** Names of pdfkit's standard fonts used anywhere (drawn without embedding). */
  standardFonts: string[];
}

export async function readPdf(bytes: Uint8Array): Promise<PdfContent> {
  // pdf.js takes ownership of the buffer it is given: hand it a copy.
  const document = await getDocument({ data: bytes.slice(), verbosity: 0, isEvalSupported: false }).promise;
  const items: string[][] = [];
  const placed: PdfItem[][] = [];
  const pages: string[] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const page = await document.getPage(n);
    const content = await page.getTextContent();
    const pageItems: PdfItem[] = [];
    let text = '';
    for (const item of content.items) {
      if (!('str' in item)) continue;
      const [, , , , x = 0, y = 0] = item.transform as number[];
      if (item.str !== '') pageItems.push({ text: item.str, x, y });
      text += item.str + (item.hasEOL ? '\n' : '');
    }
    items.push(pageItems.map((item) => item.text));
    placed.push(pageItems);
    pages.push(text);
  }
  await document.destroy();
  const raw = Buffer.from(bytes).toString('latin1');
  const fonts = [...new Set([...raw.matchAll(/\/BaseFont \/([A-Z]{6}\+[\w-]+)/g)].map((m) => m[1] ?? ''))];
  const standardFonts = [
    ...new Set([...raw.matchAll(/\/BaseFont \/(Helvetica[\w-]*|Times[\w-]*|Courier[\w-]*)/g)].map((m) => m[1] ?? '')),
  ];
  return {
    items,
    placed,
    pages,
    flat: pages.map((p) => p.replace(/\n/g, ' ')).join('\n'),
    compact: pages.join('').replace(/\s/g, ''),
    fonts,
    fontFiles: raw.match(/\/FontFile2 \d+ 0 R/g)?.length ?? 0,
    standardFonts,
  };
}

/**
 * The line under a label, within the label's column (a card's or a cell's value under its
 * title): the items of the nearest baseline below it that start between the label's left end
 * and `columnWidth` to its right, joined left to right.
 */
export function valueAfter(content: PdfContent, label: string, columnWidth = 110): string | undefined {
  for (const page of content.placed) {
    const at = page.find((item) => item.text.trim() === label);
    if (!at) continue;
    const column = page.filter((item) => item.x >= at.x - 12 && item.x < at.x + columnWidth && item.y < at.y - 2);
    const lineY = Math.max(...column.map((item) => item.y));
    return column
      .filter((item) => Math.abs(item.y - lineY) < 2)
      .sort((a, b) => a.x - b.x)
      .map((item) => item.text)
      .join('')
      .trim();
  }
  return undefined;
}
