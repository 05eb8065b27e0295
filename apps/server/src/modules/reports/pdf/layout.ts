/** Parts the daily and the monthly report share: header, section titles, panels and footer. */
import type { Language, ReportResident } from '@vigil/contract';
import { COLORS, CONTENT_WIDTH, LEFT, MARGIN, PAGE, ReportCanvas, RIGHT } from './canvas.ts';
import type { FontPlan } from './fonts.ts';
import { ReportFormat } from './format.ts';
import { checkedLanguage, reportTexts, type Translate } from './texts/index.ts';

/**
 * A report's texts, formats and blank canvas. The PDF's title is the report's title, the
 * resident's name and `period`. Throws before anything is drawn for an unknown language or zone.
 */
export function openReport(
  input: { language: Language; timeZone: string },
  plan: FontPlan,
  title: 'doc.dailyTitle' | 'doc.monthlyTitle',
  resident: ReportResident,
  period: string,
): { t: Translate; format: ReportFormat; c: ReportCanvas } {
  const t = reportTexts(checkedLanguage(input.language));
  const format = new ReportFormat(input.language, input.timeZone, t);
  const c = new ReportCanvas(plan, {
    title: `${t(title)} · ${resident.userName} · ${period}`,
    author: resident.providerName ?? 'Vigil',
    language: input.language,
  });
  return { t, format, c };
}

/** A thin line in the rule color (under the header, over the footer, between cells). */
export function rule(c: ReportCanvas, x0: number, y0: number, x1: number, y1: number, width: number): void {
  c.doc.save().lineWidth(width).strokeColor(COLORS.rule).moveTo(x0, y0).lineTo(x1, y1).stroke().restore();
}

/** Gender, age, area/floor · room · bed and provider, as one line of the header. */
export function residentDetails(resident: ReportResident, t: Translate): string {
  const parts: string[] = [];
  if (resident.gender === '0') parts.push(t('resident.male'));
  else if (resident.gender === '1') parts.push(t('resident.female'));
  if (resident.age !== null) parts.push(t('resident.age', { age: resident.age }));
  if (resident.floorArea) parts.push(resident.floorArea);
  if (resident.room) parts.push(t('resident.room', { room: resident.room }));
  if (resident.bunk) parts.push(t('resident.bed', { bed: resident.bunk }));
  if (resident.providerName) parts.push(t('resident.provider', { name: resident.providerName }));
  return parts.join(' · ');
}

/**
 * Title, the resident's name and details on the left; the period and its notes on the right.
 * Moves the cursor below the header's rule.
 */
export function drawHeader(
  c: ReportCanvas,
  t: Translate,
  options: { title: string; resident: ReportResident; period: string; notes: readonly string[] },
): void {
  const top = MARGIN;
  const rightWidth = CONTENT_WIDTH * 0.42;
  const leftWidth = CONTENT_WIDTH - rightWidth - 12;
  c.text(options.title.toUpperCase(), LEFT, top, { size: 8.5, bold: true, color: COLORS.accent }, { width: leftWidth });
  c.text(options.resident.userName, LEFT, top + 13, { size: 19, bold: true }, { width: leftWidth });
  const details = residentDetails(options.resident, t);
  const detailsHeight = c.paragraph(details, LEFT, top + 40, leftWidth, { size: 8.5, color: COLORS.muted }, 3);

  const rightLeft = RIGHT - rightWidth;
  let rightY = top;
  const periodStyle = { size: 11.5, bold: true };
  for (const line of c.lines(options.period, rightWidth, periodStyle)) {
    c.text(line, rightLeft, rightY, periodStyle, { width: rightWidth, align: 'right' });
    rightY += c.lineHeight(periodStyle);
  }
  rightY += 3;
  const noteStyle = { size: 8, color: COLORS.muted };
  for (const note of options.notes) {
    for (const line of c.lines(note, rightWidth, noteStyle)) {
      c.text(line, rightLeft, rightY, noteStyle, { width: rightWidth, align: 'right' });
      rightY += c.lineHeight(noteStyle);
    }
  }
  const bottom = Math.max(top + 40 + detailsHeight, rightY) + 6;
  rule(c, LEFT, bottom, RIGHT, bottom, 0.8);
  c.y = bottom + 8;
}

export function sectionTitle(c: ReportCanvas, text: string, spaceAfter: number): void {
  const style = { size: 10, bold: true, color: COLORS.text };
  c.ensureSpace(c.lineHeight(style) + spaceAfter);
  c.text(text, LEFT, c.y, style, { width: CONTENT_WIDTH });
  c.y += c.lineHeight(style) + 3;
}

export const gradeColor = (grade: 'low' | 'medium' | 'high'): string => COLORS[grade];

export function panel(
  c: ReportCanvas,
  left: number,
  top: number,
  width: number,
  height: number,
  fill: string = COLORS.panel,
): void {
  c.doc.roundedRect(left, top, width, height, 4).fill(fill);
}

/** A colored pill with white text; returns its width. */
export function badge(c: ReportCanvas, text: string, left: number, top: number, color: string, size = 10): number {
  const style = { size, bold: true, color: '#ffffff' };
  const width = c.width(text, style) + size * 1.4;
  const height = size * 1.75;
  c.doc.roundedRect(left, top, width, height, height / 2).fill(color);
  c.text(text, left, top + (height - size * 1.32) / 2, style, { width, align: 'center' });
  return width;
}

export function legendItem(c: ReportCanvas, text: string, left: number, top: number, color: string, size = 7): number {
  c.doc.rect(left, top + size * 0.25, size * 0.95, size * 0.95).fill(color);
  const width = c.text(text, left + size * 1.4, top, { size, color: COLORS.muted });
  return size * 1.4 + width + size * 1.6;
}

/** The platform note and "page n of m" under a rule at the foot of every page. */
export function drawFooter(c: ReportCanvas, t: Translate, page: number, pages: number, caption: string): void {
  const top = PAGE.height - 40;
  rule(c, LEFT, top, RIGHT, top, 0.5);
  const style = { size: 7, color: COLORS.muted };
  const pageText = t('doc.page', { page, pages });
  const pageWidth = c.width(pageText, style);
  c.text(pageText, RIGHT - pageWidth, top + 5, style);
  const noteWidth = c.text(
    t('doc.footerNote'),
    LEFT,
    top + 5,
    { ...style, bold: true },
    { width: CONTENT_WIDTH - pageWidth - 20 },
  );
  c.text(caption, LEFT + noteWidth + 12, top + 5, style, {
    width: Math.max(0, CONTENT_WIDTH - pageWidth - noteWidth - 36),
  });
}
