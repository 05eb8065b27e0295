/**
 * A resident's month as an A4 PDF, laid out like the console's monthly report: header, nights
 * scored and not, the month's averages, night-by-night trends, risk grades and reasons, and a
 * table of every night (it runs on to further pages when it must, its header repeated).
 */
import type { Language } from '@vigil/contract';
import type { MonthReport, NightSummary } from '@vigil/contract';
import { COLORS, CONTENT_BOTTOM, CONTENT_WIDTH, LEFT, RIGHT, type ReportCanvas, type TextStyle } from './canvas.ts';
import { drawCrosses, drawTrend, niceRange, type Box, type TrendSeries } from './charts.ts';
import { embeddedFontPlan, type FontPlan } from './fonts.ts';
import { DASH, type ReportFormat } from './format.ts';
import {
  badge,
  drawFooter,
  drawHeader,
  gradeColor,
  legendItem,
  openReport,
  panel,
  rule,
  sectionTitle,
} from './layout.ts';
import { checkedLanguage, type Translate } from './texts/index.ts';

export interface MonthPdfInput {
  report: MonthReport;
  language: Language;
  /** IANA zone of the platform (the nights are already named in it). */
  timeZone: string;
}

export async function renderMonthReportPdf(input: MonthPdfInput): Promise<Uint8Array> {
  return drawMonthReport(input, embeddedFontPlan(checkedLanguage(input.language)));
}

/** The monthly report drawn with any font plan (the bench draws it with pdfkit's Helvetica too). */
export async function drawMonthReport(input: MonthPdfInput, plan: FontPlan): Promise<Uint8Array> {
  const { report } = input;
  const { t, format, c } = openReport(input, plan, 'doc.monthlyTitle', report.resident, report.month);
  const monthName = format.month(report.month);
  drawHeader(c, t, { title: t('doc.monthlyTitle'), resident: report.resident, period: monthName, notes: [] });

  const summary = t('month.summary', {
    nights: format.number(report.nights.length),
    scored: format.number(report.scoredNights),
    insufficient: format.number(report.insufficientNights),
  });
  c.y += c.paragraph(summary, LEFT, c.y, CONTENT_WIDTH, { size: 9 }) + 8;

  if (report.nights.length === 0) {
    c.y += c.paragraph(t('month.noNights'), LEFT, c.y, CONTENT_WIDTH, { size: 10, bold: true, color: COLORS.notice });
  } else {
    drawAverages(c, t, format, report);
    drawTrends(c, t, format, report);
    drawRisk(c, t, format, report);
    drawNightTable(c, t, format, report.nights);
  }

  const caption = `${report.resident.userName} · ${monthName}`;
  return c.finish((page, pages) => drawFooter(c, t, page, pages, caption));
}

function drawAverages(c: ReportCanvas, t: Translate, format: ReportFormat, report: MonthReport): void {
  const a = report.averages;
  const tiles = [
    { label: t('score.title'), value: format.number(a.score) },
    { label: t('metric.totalSleep'), value: format.duration(a.totalSleep) },
    { label: t('metric.efficiency'), value: format.percent(a.efficiency) },
    { label: t('metric.deepShare'), value: format.percent(a.deepShare) },
    { label: t('metric.ahi'), value: format.number(a.ahi, 1), unit: t('unit.eventsPerHour') },
    { label: t('month.avgHeart'), value: format.number(a.heartAvg), unit: t('unit.bpm') },
    { label: t('month.avgBreath'), value: format.number(a.breathAvg, 1), unit: t('unit.perMinute') },
    { label: t('month.avgRmssd'), value: format.number(a.rmssd), unit: t('unit.ms') },
    { label: t('metric.movement'), value: format.number(a.movementPerHour, 1), unit: t('unit.perHour') },
    { label: t('month.avgLeaveBed'), value: format.number(a.leaveBedCount, 1) },
  ];
  sectionTitle(c, t('month.averages'), 90);
  const columns = 5;
  const gap = 6;
  const width = (CONTENT_WIDTH - gap * (columns - 1)) / columns;
  const label: TextStyle = { size: 7.3, bold: true, color: COLORS.muted };
  const value: TextStyle = { size: 12.5, bold: true };
  const unit: TextStyle = { size: 7, color: COLORS.muted };
  const labelLines = Math.min(2, Math.max(...tiles.map((tile) => c.lines(tile.label, width - 14, label).length)));
  const height = 8 + labelLines * c.lineHeight(label) + c.lineHeight(value) + 6;
  for (let i = 0; i < tiles.length; i += columns) {
    c.ensureSpace(height);
    tiles.slice(i, i + columns).forEach((tile, k) => {
      const left = LEFT + k * (width + gap);
      panel(c, left, c.y, width, height);
      c.paragraph(tile.label, left + 7, c.y + 6, width - 14, label, 2);
      const y = c.y + 6 + labelLines * c.lineHeight(label) + 1;
      const drawn = c.text(tile.value, left + 7, y, value, { width: width - 14 });
      if (tile.unit && tile.value !== DASH) {
        c.text(tile.unit, left + 7 + drawn + 2.5, y + 5, unit, { width: Math.max(0, width - 16 - drawn) });
      }
    });
    c.y += height + gap;
  }
  c.y += 4;
}

const dayOf = (night: string): number => Number(night.slice(8, 10));

function drawTrends(c: ReportCanvas, t: Translate, format: ReportFormat, report: MonthReport): void {
  const [year = 2000, month = 1] = report.month.split('-').map(Number);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const scored = report.nights.filter((n) => n.score !== null);
  const notScored = report.nights.filter((n) => n.score === null).map((n) => dayOf(n.night));
  const series = (pick: (n: NightSummary) => number | null): Map<number, number | null> =>
    new Map(report.nights.map((n) => [dayOf(n.night), pick(n)]));
  const values = (pick: (n: NightSummary) => number | null): number[] =>
    scored.flatMap((n) => {
      const v = pick(n);
      return v === null ? [] : [v];
    });

  const hours = (n: NightSummary): number | null => (n.totalSleep === null ? null : n.totalSleep / 3600);
  const maxHours = Math.max(10, Math.ceil(Math.max(0, ...values(hours)) / 2) * 2);
  const maxAhi = Math.max(40, Math.ceil(Math.max(0, ...values((n) => n.ahi)) / 10) * 10);
  const vitals = niceRange([...values((n) => n.heartAvg), ...values((n) => n.breathAvg)], 10, [10, 80]);
  const charts: {
    title: string;
    range: { min: number; max: number; ticks: number[] };
    series: TrendSeries[];
    references: number[];
  }[] = [
    {
      title: t('trend.score'),
      range: { min: 0, max: 100, ticks: [0, 20, 40, 60, 80, 100] },
      series: [{ color: COLORS.accent, values: series((n) => n.score), kind: 'line' }],
      references: [60],
    },
    {
      title: t('trend.totalSleep'),
      range: { min: 0, max: maxHours, ticks: Array.from({ length: maxHours / 2 + 1 }, (_, i) => i * 2) },
      series: [{ color: COLORS.light, values: series(hours), kind: 'bars' }],
      references: [7],
    },
    {
      title: t('trend.ahi'),
      range: { min: 0, max: maxAhi, ticks: Array.from({ length: maxAhi / 10 + 1 }, (_, i) => i * 10) },
      series: [{ color: COLORS.apnea, values: series((n) => n.ahi), kind: 'line' }],
      references: [5, 15, 30],
    },
    {
      title: t('trend.vitals'),
      range: vitals,
      series: [
        { color: COLORS.heart, values: series((n) => n.heartAvg), kind: 'line' },
        { color: COLORS.breath, values: series((n) => n.breathAvg), kind: 'line' },
      ],
      references: [],
    },
  ];
  const gap = 16;
  const width = (CONTENT_WIDTH - gap) / 2;
  const axis = 34;
  const titleStyle: TextStyle = { size: 8, bold: true };
  const plotHeight = 74;
  const blockHeight = c.lineHeight(titleStyle) * 2 + 4 + plotHeight + 14;
  sectionTitle(c, t('month.trends'), blockHeight);
  for (let i = 0; i < charts.length; i += 2) {
    c.ensureSpace(blockHeight);
    charts.slice(i, i + 2).forEach((chart, k) => {
      const left = LEFT + k * (width + gap);
      c.paragraph(chart.title, left, c.y, width, titleStyle, 2);
      const plot: Box = {
        left: left + axis,
        top: c.y + c.lineHeight(titleStyle) * 2 + 4,
        width: width - axis,
        height: plotHeight,
      };
      drawTrend(c, format, plot, days, chart.range, chart.series, {
        references: chart.references,
        markDays: notScored,
      });
    });
    c.y += blockHeight + 4;
  }
  // What the crosses on the charts' floor mean, and which line is which on the vitals chart.
  c.ensureSpace(14);
  const crossLeft = LEFT + axis;
  drawCrosses(c, [{ x: crossLeft + 2, y: c.y + 4 }]);
  let x = crossLeft + 8 + c.text(t('trend.notScored'), crossLeft + 8, c.y, { size: 7, color: COLORS.muted }) + 14;
  x += legendItem(c, t('metric.heart'), x, c.y, COLORS.heart);
  legendItem(c, t('metric.breath'), x, c.y, COLORS.breath);
  c.y += 18;
}

function drawRisk(c: ReportCanvas, t: Translate, format: ReportFormat, report: MonthReport): void {
  const gap = 16;
  const width = (CONTENT_WIDTH - gap) / 2;
  const rowStyle: TextStyle = { size: 8.5 };
  const reasons = report.riskReasons.slice(0, 5);
  const rowHeight = c.lineHeight(rowStyle) + 3;
  const height = Math.max(64, 22 + Math.max(1, reasons.length) * rowHeight + 8);
  c.ensureSpace(height + 6);
  const top = c.y;

  panel(c, LEFT, top, width, height);
  c.text(
    t('month.riskTitle'),
    LEFT + 10,
    top + 8,
    { size: 8.5, bold: true, color: COLORS.muted },
    { width: width - 20 },
  );
  let x = LEFT + 10;
  for (const grade of ['low', 'medium', 'high'] as const) {
    x +=
      badge(
        c,
        `${t(`risk.${grade}`)}  ${format.number(report.riskNights[grade])}`,
        x,
        top + 26,
        gradeColor(grade),
        9.5,
      ) + 8;
  }
  // The same counts as one bar, so the month's balance reads at a glance.
  const total = report.riskNights.low + report.riskNights.medium + report.riskNights.high;
  if (total > 0) {
    let barX = LEFT + 10;
    const barWidth = width - 20;
    for (const grade of ['low', 'medium', 'high'] as const) {
      const w = (report.riskNights[grade] / total) * barWidth;
      if (w > 0) c.doc.rect(barX, top + 50, w, 6).fill(gradeColor(grade));
      barX += w;
    }
  }

  const right = RIGHT - width;
  panel(c, right, top, width, height);
  const heading = { size: 8.5, bold: true, color: COLORS.muted };
  const countWidth = 50;
  c.text(t('month.topReasons'), right + 10, top + 8, heading, { width: width - 30 - countWidth });
  c.text(t('month.reasonNights'), right + width - 10 - countWidth, top + 8, heading, {
    width: countWidth,
    align: 'right',
  });
  if (reasons.length === 0) {
    c.text(t('month.noReasons'), right + 10, top + 24, { size: 8.5, color: COLORS.muted }, { width: width - 20 });
  }
  reasons.forEach((entry, i) => {
    const y = top + 24 + i * rowHeight;
    c.text(t(`reasonShort.${entry.reason}`), right + 10, y, rowStyle, { width: width - 30 - countWidth });
    c.text(
      format.number(entry.nights),
      right + width - 10 - countWidth,
      y,
      { ...rowStyle, bold: true },
      { width: countWidth, align: 'right' },
    );
  });
  c.y = top + height + 12;
}

function drawNightTable(c: ReportCanvas, t: Translate, format: ReportFormat, nights: readonly NightSummary[]): void {
  const columns = [
    { label: t('table.date'), width: 0.22, align: 'left' },
    { label: t('table.score'), width: 0.1, align: 'right' },
    { label: t('table.totalSleep'), width: 0.15, align: 'right' },
    { label: t('table.efficiency'), width: 0.12, align: 'right' },
    { label: t('table.ahi'), width: 0.1, align: 'right' },
    { label: t('table.heart'), width: 0.13, align: 'right' },
    { label: t('table.risk'), width: 0.18, align: 'left' },
  ] as const;
  const pad = 6;
  const lefts: number[] = [];
  let x = LEFT;
  for (const column of columns) {
    lefts.push(x);
    x += column.width * CONTENT_WIDTH;
  }
  const cellWidth = (i: number): number => (columns[i]?.width ?? 0) * CONTENT_WIDTH - 2 * pad;
  const head: TextStyle = { size: 7.8, bold: true, color: COLORS.muted };
  const cell: TextStyle = { size: 8.3 };
  const rowHeight = 15;
  const headHeight = Math.max(...columns.map((col, i) => c.paragraphHeight(col.label, cellWidth(i), head))) + 6;

  const drawHead = (): void => {
    columns.forEach((column, i) => {
      const lines = c.lines(column.label, cellWidth(i), head);
      lines.forEach((line, k) => {
        c.text(line, (lefts[i] ?? LEFT) + pad, c.y + k * c.lineHeight(head), head, {
          width: cellWidth(i),
          align: column.align,
        });
      });
    });
    c.y += headHeight;
    rule(c, LEFT, c.y - 2, RIGHT, c.y - 2, 0.7);
  };

  sectionTitle(c, t('month.table'), headHeight + rowHeight * 3);
  drawHead();
  nights.forEach((night, row) => {
    if (c.y + rowHeight > CONTENT_BOTTOM) {
      c.newPage();
      sectionTitle(c, t('month.table'), headHeight + rowHeight);
      drawHead();
    }
    if (row % 2 === 1) c.doc.rect(LEFT, c.y - 1, CONTENT_WIDTH, rowHeight).fill(COLORS.panel);
    const y = c.y + (rowHeight - cell.size * 1.32) / 2 - 1;
    const put = (i: number, text: string, style: TextStyle = cell): void => {
      c.text(text, (lefts[i] ?? LEFT) + pad, y, style, { width: cellWidth(i), align: columns[i]?.align ?? 'left' });
    };
    put(0, format.shortDate(night.night));
    put(1, format.number(night.score), { ...cell, bold: night.score !== null });
    const notice =
      night.state !== 'ready'
        ? t(`state.${night.state}`)
        : night.insufficient
          ? t(`insufficient.${night.insufficient}`)
          : null;
    if (notice) {
      // The night's reason runs across the figures it leaves empty.
      const left = (lefts[2] ?? LEFT) + pad;
      c.text(notice, left, y, { ...cell, color: COLORS.notice }, { width: RIGHT - pad - left });
    } else {
      put(2, format.duration(night.totalSleep));
      put(3, format.percent(night.efficiency));
      put(4, format.number(night.ahi, 1));
      put(5, format.number(night.heartAvg));
      if (night.riskGrade) {
        const left = (lefts[6] ?? LEFT) + pad;
        c.doc.circle(left + 3, c.y + rowHeight / 2 - 1, 3).fill(gradeColor(night.riskGrade));
        c.text(t(`risk.${night.riskGrade}`), left + 10, y, cell, { width: cellWidth(6) - 10 });
      } else {
        put(6, DASH);
      }
    }
    c.y += rowHeight;
  });
}
