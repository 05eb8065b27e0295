/**
 * One night's sleep report as an A4 PDF, laid out like the console's report screen: header,
 * coverage, score with its parts and the risk grade, metric cards, clock times, then the
 * hypnogram and the per-minute curves. Pure: the same input gives the same pages.
 */
import type { Language } from '@vigil/contract';
import type { DailyReport, DailyReportData, NightFigures } from '@vigil/contract';
import { COLORS, CONTENT_WIDTH, LEFT, RIGHT, type ReportCanvas, type TextStyle } from './canvas.ts';
import {
  drawCurve,
  drawHourGrid,
  drawHypnogram,
  drawMinuteBars,
  drawSpanMarks,
  drawValueGrid,
  niceRange,
  shadeSpans,
  STAGE_ROWS,
  TimeScale,
  type Box,
  type CurvePoint,
} from './charts.ts';
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

export interface DailyPdfInput {
  /** A ready report: its figures, or `insufficient` with the figures the data cannot support null. */
  report: DailyReport;
  /** The night's curves; null when there are none (no chart is drawn then). */
  data: DailyReportData | null;
  language: Language;
  /** IANA zone every clock time is shown in (the platform's TIME_ZONE). */
  timeZone: string;
}

/** Below this share of the night with data, a scored night's figures get a "read with care" note. */
const LOW_COVERAGE = 0.6;

export async function renderDailyReportPdf(input: DailyPdfInput): Promise<Uint8Array> {
  return drawDailyReport(input, embeddedFontPlan(checkedLanguage(input.language)));
}

/** The daily report drawn with any font plan (the bench draws it with pdfkit's Helvetica too). */
export async function drawDailyReport(input: DailyPdfInput, plan: FontPlan): Promise<Uint8Array> {
  const { report, data } = input;
  if (report.state !== 'ready') throw new Error(`A ${report.state} report has no PDF: only a ready report is printed`);
  const { t, format, c } = openReport(input, plan, 'doc.dailyTitle', report.resident, report.night);
  const figures = report.figures;

  const windowStart = figures?.windowStart ?? data?.windowStart ?? null;
  const windowEnd = figures?.windowEnd ?? data?.windowEnd ?? null;
  drawHeader(c, t, {
    title: t('doc.dailyTitle'),
    resident: report.resident,
    period: t('night.of', { date: format.longDate(report.night) }),
    notes: [
      t('night.window', { start: format.clock(windowStart), end: format.clock(windowEnd) }),
      t('night.madeAt', { time: format.dateTime(report.computeTime) }),
    ],
  });

  // A ready report without figures has nothing the monitor sent: it reads as a night without data.
  const insufficient = figures ? figures.insufficient : 'noData';
  drawCoverage(c, t, format, figures, insufficient);
  if (insufficient) drawInsufficientNotice(c, t, insufficient);
  drawScoreAndRisk(c, t, format, figures, insufficient !== null);
  drawClockTimes(c, t, format, figures);
  drawMetricCards(c, t, format, figures);
  drawNightCharts(c, t, format, figures, data);

  const caption = `${report.resident.userName} · ${format.longDate(report.night)}`;
  return c.finish((page, pages) => drawFooter(c, t, page, pages, caption));
}

function drawCoverage(
  c: ReportCanvas,
  t: Translate,
  format: ReportFormat,
  figures: NightFigures | null,
  insufficient: string | null,
): void {
  const style = { size: 8.5, color: COLORS.text };
  const line = t('night.coverage', {
    coverage: format.percent(figures?.coverage),
    signal: format.percent(figures?.signalCoverage),
  });
  c.y += c.paragraph(line, LEFT, c.y, CONTENT_WIDTH, style);
  if (!insufficient && figures && figures.coverage < LOW_COVERAGE) {
    const note = { size: 8.5, bold: true, color: COLORS.notice };
    c.doc.circle(LEFT + 3, c.y + 6, 3).fill(COLORS.notice);
    c.y += c.paragraph(t('night.lowCoverage'), LEFT + 10, c.y + 1, CONTENT_WIDTH - 10, note) + 1;
  }
  c.y += 6;
}

function drawInsufficientNotice(c: ReportCanvas, t: Translate, reason: 'noData' | 'notInBed' | 'littleSignal'): void {
  const inner = CONTENT_WIDTH - 24;
  const title = { size: 11, bold: true, color: COLORS.notice };
  const body = { size: 10, bold: true, color: COLORS.text };
  const note = { size: 8, color: COLORS.muted };
  const reasonText = t(`insufficient.${reason}`);
  const height =
    12 +
    c.paragraphHeight(t('night.insufficientTitle'), inner, title) +
    c.paragraphHeight(reasonText, inner, body) +
    c.paragraphHeight(t('night.insufficientNote'), inner, note) +
    14;
  c.ensureSpace(height);
  c.doc.roundedRect(LEFT, c.y, CONTENT_WIDTH, height, 4).fillAndStroke(COLORS.noticeFill, COLORS.notice);
  let y = c.y + 10;
  y += c.paragraph(t('night.insufficientTitle'), LEFT + 12, y, inner, title) + 2;
  y += c.paragraph(reasonText, LEFT + 12, y, inner, body) + 2;
  c.paragraph(t('night.insufficientNote'), LEFT + 12, y, inner, note);
  c.y += height + 10;
}

const SCORE_PARTS = [
  { key: 'duration', label: 'score.duration', max: 30 },
  { key: 'efficiency', label: 'score.efficiency', max: 20 },
  { key: 'depth', label: 'score.depth', max: 20 },
  { key: 'continuity', label: 'score.continuity', max: 20 },
  { key: 'latency', label: 'score.latency', max: 10 },
] as const;

const scoreColor = (score: number): string => (score >= 80 ? COLORS.low : score >= 60 ? COLORS.accent : COLORS.medium);

function drawScoreAndRisk(
  c: ReportCanvas,
  t: Translate,
  format: ReportFormat,
  figures: NightFigures | null,
  insufficient: boolean,
): void {
  const gap = 8;
  const scoreWidth = 118;
  const partsWidth = 205;
  const riskWidth = CONTENT_WIDTH - scoreWidth - partsWidth - 2 * gap;
  const riskLeft = RIGHT - riskWidth;
  const label = { size: 8.5, bold: true, color: COLORS.muted };
  const reasonStyle = { size: 7.8, color: COLORS.text };
  const grade = insufficient ? null : (figures?.riskGrade ?? null);
  const reasons = insufficient ? [] : (figures?.riskReasons ?? []);
  const reasonTexts =
    grade === null
      ? [t('risk.noGrade')]
      : reasons.length
        ? reasons.map((r) => t(`reason.${r}`))
        : [t('risk.noReasons')];
  const reasonsHeight = reasonTexts.reduce(
    (sum, text) => sum + c.paragraphHeight(text, riskWidth - 30, reasonStyle) + 3,
    0,
  );
  const height = Math.max(112, 48 + reasonsHeight + 8);
  c.ensureSpace(height);
  const top = c.y;

  panel(c, LEFT, top, scoreWidth, height);
  c.text(t('score.title'), LEFT + 10, top + 9, label, { width: scoreWidth - 20 });
  const score = insufficient ? null : (figures?.score ?? null);
  const big = { size: 42, bold: true, color: score === null ? COLORS.faint : scoreColor(score) };
  c.text(score === null ? DASH : format.number(score), LEFT, top + height / 2 - 28, big, {
    width: scoreWidth,
    align: 'center',
  });
  c.text(
    t('score.outOf'),
    LEFT,
    top + height / 2 + 22,
    { size: 8, color: COLORS.muted },
    { width: scoreWidth, align: 'center' },
  );

  const partsLeft = LEFT + scoreWidth + gap;
  panel(c, partsLeft, top, partsWidth, height);
  c.text(t('score.parts'), partsLeft + 10, top + 9, label, { width: partsWidth - 20 });
  const parts = insufficient ? null : (figures?.scoreParts ?? null);
  const rowHeight = Math.min(17, (height - 34) / SCORE_PARTS.length);
  const partStyle = { size: 7.8 };
  // The labels take what they need (up to half the panel); the bars take the rest.
  const labelWidth = Math.min(
    partsWidth / 2,
    Math.max(60, ...SCORE_PARTS.map((p) => c.width(t(p.label), partStyle) + 4)),
  );
  const barLeft = partsLeft + 10 + labelWidth + 4;
  const valueWidth = 34;
  const barWidth = partsWidth - 10 - labelWidth - 4 - valueWidth - 14;
  SCORE_PARTS.forEach((part, i) => {
    const y = top + 30 + i * rowHeight;
    const points = parts ? parts[part.key] : null;
    c.text(t(part.label), partsLeft + 10, y, partStyle, { width: labelWidth });
    c.doc.roundedRect(barLeft, y + 2.5, barWidth, 6, 3).fill(COLORS.track);
    if (points !== null && points > 0) {
      c.doc
        .roundedRect(barLeft, y + 2.5, Math.max(6, (Math.min(points, part.max) / part.max) * barWidth), 6, 3)
        .fill(COLORS.accent);
    }
    const value = `${points === null ? DASH : format.number(points)} / ${format.number(part.max)}`;
    c.text(value, barLeft + barWidth + 4, y, { size: 7.8, bold: true }, { width: valueWidth + 6, align: 'right' });
  });

  panel(c, riskLeft, top, riskWidth, height);
  c.text(t('risk.title'), riskLeft + 10, top + 9, label, { width: riskWidth - 20 });
  if (grade) badge(c, t(`risk.${grade}`), riskLeft + 10, top + 24, gradeColor(grade), 10);
  else badge(c, DASH, riskLeft + 10, top + 24, COLORS.faint, 10);
  let y = top + 48;
  for (const text of reasonTexts) {
    if (grade !== null && reasons.length) c.doc.circle(riskLeft + 14, y + 4.5, 1.6).fill(gradeColor(grade));
    y += c.paragraph(text, riskLeft + 20, y, riskWidth - 30, reasonStyle) + 3;
  }
  c.y = top + height + 10;
}

function drawClockTimes(c: ReportCanvas, t: Translate, format: ReportFormat, figures: NightFigures | null): void {
  const items = [
    { label: t('clock.bedTime'), value: figures?.bedTime ?? null },
    { label: t('clock.sleepOnset'), value: figures?.sleepOnset ?? null },
    { label: t('clock.wakeTime'), value: figures?.wakeTime ?? null },
    { label: t('clock.getUpTime'), value: figures?.getUpTime ?? null },
  ];
  const height = 36;
  c.ensureSpace(height);
  panel(c, LEFT, c.y, CONTENT_WIDTH, height);
  const cell = CONTENT_WIDTH / items.length;
  items.forEach((item, i) => {
    const left = LEFT + i * cell + 10;
    c.text(item.label, left, c.y + 6, { size: 7.8, bold: true, color: COLORS.muted }, { width: cell - 16 });
    c.text(format.clock(item.value), left, c.y + 17, { size: 12, bold: true }, { width: cell - 16 });
    if (i > 0) rule(c, LEFT + i * cell, c.y + 6, LEFT + i * cell, c.y + height - 6, 0.5);
  });
  c.y += height + 10;
}

interface Card {
  label: string;
  value: string;
  unit?: string;
  sub?: string;
  explain: string;
  valueColor?: string;
}

const ahiGrade = (ahi: number): 'normal' | 'mild' | 'moderate' | 'severe' =>
  ahi < 5 ? 'normal' : ahi < 15 ? 'mild' : ahi < 30 ? 'moderate' : 'severe';
const AHI_COLORS = { normal: COLORS.low, mild: COLORS.accent, moderate: COLORS.medium, severe: COLORS.high } as const;
const AF_COLORS = { low: COLORS.low, possible: COLORS.medium, likely: COLORS.high } as const;

function metricCards(t: Translate, format: ReportFormat, f: NightFigures | null): Card[] {
  const n = <K extends keyof NightFigures>(key: K): NightFigures[K] | null => (f ? f[key] : null);
  const ahi = n('ahi');
  const apneaEvents = n('apneaEvents');
  const leaveBedSeconds = n('leaveBedSeconds');
  const heart = n('heart');
  const breath = n('breath');
  const hrv = n('hrv');
  const af = n('af');
  const stages = n('stages');
  return [
    { label: t('metric.totalSleep'), value: format.duration(n('totalSleep')), explain: t('explain.totalSleep') },
    { label: t('metric.timeInBed'), value: format.duration(n('timeInBed')), explain: t('explain.timeInBed') },
    { label: t('metric.efficiency'), value: format.percent(n('efficiency')), explain: t('explain.efficiency') },
    { label: t('metric.latency'), value: format.duration(n('latency')), explain: t('explain.latency') },
    {
      label: t('metric.deepShare'),
      value: format.percent(n('deepShare')),
      ...(stages ? { sub: `${t('stage.deep')} ${format.duration(stages.deep)}` } : {}),
      explain: t('explain.deepShare'),
    },
    { label: t('metric.continuity'), value: format.percent(n('continuity')), explain: t('explain.continuity') },
    { label: t('metric.awakenings'), value: format.number(n('awakenings')), explain: t('explain.awakenings') },
    {
      label: t('metric.wakeAfterOnset'),
      value: format.duration(n('wakeAfterOnset')),
      explain: t('explain.wakeAfterOnset'),
    },
    {
      label: t('metric.movement'),
      value: format.number(n('movementPerHour'), 1),
      unit: t('unit.perHour'),
      explain: t('explain.movement'),
    },
    {
      label: t('metric.ahi'),
      value: format.number(ahi, 1),
      unit: t('unit.eventsPerHour'),
      ...(ahi !== null ? { valueColor: AHI_COLORS[ahiGrade(ahi)] } : {}),
      sub: [
        t('value.events', { n: format.number(apneaEvents) }),
        ...(ahi !== null ? [t(`ahi.${ahiGrade(ahi)}`)] : []),
      ].join(' · '),
      explain: t('explain.ahi'),
    },
    {
      label: t('metric.leaveBed'),
      value: format.number(n('leaveBedCount')),
      ...(leaveBedSeconds !== null
        ? { sub: t('value.outOfBedTotal', { duration: format.duration(leaveBedSeconds) }) }
        : {}),
      explain: t('explain.leaveBed'),
    },
    {
      label: t('metric.hrv'),
      value: hrv ? t('value.hrv', { rmssd: format.number(hrv.rmssd), sdnn: format.number(hrv.sdnn) }) : DASH,
      ...(hrv ? { unit: t('unit.ms') } : {}),
      explain: t('explain.hrv'),
    },
    {
      label: t('metric.heart'),
      value: format.number(heart?.avg ?? null),
      unit: t('unit.bpm'),
      ...(heart
        ? {
            sub: t('value.range', {
              min: format.number(heart.min),
              avg: format.number(heart.avg),
              max: format.number(heart.max),
            }),
          }
        : {}),
      explain: t('explain.heart'),
    },
    {
      label: t('metric.breath'),
      value: format.number(breath?.avg ?? null, 1),
      unit: t('unit.perMinute'),
      ...(breath
        ? {
            sub: t('value.range', {
              min: format.number(breath.min),
              avg: format.number(breath.avg, 1),
              max: format.number(breath.max),
            }),
          }
        : {}),
      explain: t('explain.breath'),
    },
    {
      label: t('metric.af'),
      value: af ? t(`af.${af.risk}`) : DASH,
      ...(af
        ? { valueColor: AF_COLORS[af.risk], sub: t('value.afBurden', { burden: format.percent(af.burden) }) }
        : {}),
      explain: t('explain.af'),
    },
  ];
}

function drawMetricCards(c: ReportCanvas, t: Translate, format: ReportFormat, figures: NightFigures | null): void {
  const cards = metricCards(t, format, figures);
  const columns = 3;
  const gap = 8;
  const width = (CONTENT_WIDTH - gap * (columns - 1)) / columns;
  const pad = 8;
  const inner = width - 2 * pad;
  const styles = {
    label: { size: 7.8, bold: true, color: COLORS.muted },
    value: { size: 13, bold: true },
    unit: { size: 7.5, color: COLORS.muted },
    sub: { size: 7.2, color: COLORS.text },
    explain: { size: 6.6, color: COLORS.muted },
  } satisfies Record<string, TextStyle>;
  const heightOf = (card: Card): number =>
    pad +
    Math.min(2, c.lines(card.label, inner, styles.label).length) * c.lineHeight(styles.label) +
    c.lineHeight(styles.value) +
    (card.sub ? c.lineHeight(styles.sub) : 0) +
    2 +
    c.paragraphHeight(card.explain, inner, styles.explain) +
    pad -
    2;
  for (let i = 0; i < cards.length; i += columns) {
    const row = cards.slice(i, i + columns);
    const height = Math.max(...row.map(heightOf));
    c.ensureSpace(height);
    row.forEach((card, k) => {
      const left = LEFT + k * (width + gap);
      const x = left + pad;
      let y = c.y + pad - 1;
      c.doc.roundedRect(left, c.y, width, height, 4).lineWidth(0.6).stroke(COLORS.rule);
      y += c.paragraph(card.label, x, y, inner, styles.label, 2);
      const valueStyle = card.valueColor ? { ...styles.value, color: card.valueColor } : styles.value;
      const valueWidth = c.text(card.value, x, y, valueStyle, { width: inner });
      if (card.unit && card.value !== DASH) {
        c.text(card.unit, x + valueWidth + 3, y + 5, styles.unit, { width: Math.max(0, inner - valueWidth - 3) });
      }
      y += c.lineHeight(styles.value);
      if (card.sub) {
        c.text(card.sub, x, y, styles.sub, { width: inner });
        y += c.lineHeight(styles.sub);
      }
      c.paragraph(card.explain, x, y + 2, inner, styles.explain);
    });
    c.y += height + gap;
  }
  c.y += 2;
}

function drawNightCharts(
  c: ReportCanvas,
  t: Translate,
  format: ReportFormat,
  figures: NightFigures | null,
  data: DailyReportData | null,
): void {
  const stageLabel = { size: 7, color: COLORS.muted };
  const labelColumn = Math.max(40, ...STAGE_ROWS.map((row) => c.width(t(row.key), stageLabel) + 8));
  const plotLeft = LEFT + labelColumn;
  const plotWidth = CONTENT_WIDTH - labelColumn;
  const hypnogramHeight = 68;
  // The hypnogram and its stage shares stay together; the curves follow on the same page when they fit.
  c.ensureSpace(20 + hypnogramHeight + 16 + 30);
  sectionTitle(c, t('chart.hypnogram'), hypnogramHeight + 40);
  if (!data) {
    c.y += c.paragraph(t('chart.noData'), LEFT, c.y, CONTENT_WIDTH, { size: 9, color: COLORS.muted }) + 6;
    drawStageShares(c, t, format, figures);
    return;
  }
  const scale = new TimeScale(data.windowStart, data.windowEnd, plotLeft, plotWidth);
  const outOfBed = data.leaveBed;

  const hypnogram: Box = { left: plotLeft, top: c.y, width: plotWidth, height: hypnogramHeight };
  shadeSpans(c, scale, hypnogram, outOfBed, COLORS.outOfBed);
  drawHourGrid(c, format, scale, hypnogram, false);
  drawHypnogram(c, scale, hypnogram, data.hypnogram, data.epochSeconds, data.windowStart);
  STAGE_ROWS.forEach((row, i) => {
    const rowHeight = hypnogramHeight / STAGE_ROWS.length;
    c.text(t(row.key), LEFT, hypnogram.top + i * rowHeight + rowHeight / 2 - 4.6, stageLabel, {
      width: labelColumn - 6,
    });
  });
  c.y += hypnogramHeight + drawHourGrid(c, format, scale, { ...hypnogram, height: hypnogramHeight }, true) + 4;
  drawStageShares(c, t, format, figures);

  const minutes = data.minutes;
  const heart: CurvePoint[] = minutes.map((m) => ({ ts: m.ts, value: m.heartRate }));
  const breath: CurvePoint[] = minutes.map((m) => ({ ts: m.ts, value: m.breathRate }));
  const movement: CurvePoint[] = minutes.map((m) => ({ ts: m.ts, value: m.move }));
  const curves = [
    {
      title: t('chart.heart'),
      points: heart,
      color: COLORS.heart,
      step: 10,
      fallback: [40, 100] as [number, number],
    },
    {
      title: t('chart.breath'),
      points: breath,
      color: COLORS.breath,
      step: 5,
      fallback: [5, 30] as [number, number],
    },
  ];
  for (const curve of curves) {
    const height = 72;
    c.ensureSpace(18 + height + 14);
    sectionTitle(c, curve.title, height + 14);
    const plot: Box = { left: plotLeft, top: c.y, width: plotWidth, height };
    const range = niceRange(
      curve.points.flatMap((p) => (p.value === null ? [] : [p.value])),
      curve.step,
      curve.fallback,
    );
    shadeSpans(c, scale, plot, outOfBed, COLORS.outOfBed);
    drawValueGrid(c, format, plot, range);
    drawCurve(c, scale, plot, curve.points, range, curve.color);
    c.y += height + drawHourGrid(c, format, scale, plot, true) + 6;
  }

  const movementHeight = 34;
  c.ensureSpace(18 + movementHeight + 14 + 18 + 12 + 30);
  sectionTitle(c, t('chart.movement'), movementHeight + 14);
  const movementPlot: Box = { left: plotLeft, top: c.y, width: plotWidth, height: movementHeight };
  shadeSpans(c, scale, movementPlot, outOfBed, COLORS.outOfBed);
  drawValueGrid(c, format, movementPlot, { min: 0, max: 60, ticks: [0, 30, 60] });
  drawMinuteBars(c, scale, movementPlot, movement, 60, COLORS.movement);
  c.y += movementHeight + drawHourGrid(c, format, scale, movementPlot, true) + 6;

  sectionTitle(c, t('chart.events'), 30);
  const lane: Box = { left: plotLeft, top: c.y, width: plotWidth, height: 12 };
  c.doc.rect(lane.left, lane.top, lane.width, lane.height).fill(COLORS.panel);
  drawSpanMarks(c, scale, lane, outOfBed, COLORS.outOfBed);
  drawSpanMarks(c, scale, lane, data.apneaEvents, COLORS.apnea);
  c.y += lane.height + drawHourGrid(c, format, scale, lane, true) + 4;
  let x = plotLeft;
  x += legendItem(c, t('chart.apnea'), x, c.y, COLORS.apnea);
  x += legendItem(c, t('chart.outOfBed'), x, c.y, COLORS.outOfBed);
  c.text(t('chart.gap'), x, c.y, { size: 7, color: COLORS.muted });
  c.y += 14;
}

function drawStageShares(c: ReportCanvas, t: Translate, format: ReportFormat, figures: NightFigures | null): void {
  const stages = figures?.stages ?? null;
  const seconds = {
    wake: stages?.wake ?? null,
    rem: stages?.rem ?? null,
    light: stages?.light ?? null,
    deep: stages?.deep ?? null,
  };
  const total = stages ? stages.wake + stages.rem + stages.light + stages.deep : 0;
  const title = { size: 7.8, bold: true, color: COLORS.muted };
  c.ensureSpace(28);
  c.text(t('chart.stageShares'), LEFT, c.y, title, { width: CONTENT_WIDTH });
  c.y += c.lineHeight(title) + 1;
  const cell = CONTENT_WIDTH / 4;
  const entries = [
    { key: 'stage.wake', value: seconds.wake, color: COLORS.wake },
    { key: 'stage.rem', value: seconds.rem, color: COLORS.rem },
    { key: 'stage.light', value: seconds.light, color: COLORS.light },
    { key: 'stage.deep', value: seconds.deep, color: COLORS.deep },
  ] as const;
  entries.forEach((entry, i) => {
    const left = LEFT + i * cell;
    c.doc.rect(left, c.y + 2.5, 7, 7).fill(entry.color);
    const share = entry.value !== null && total > 0 ? ` · ${format.percent(entry.value / total)}` : '';
    c.text(
      `${t(entry.key)}  ${format.duration(entry.value)}${share}`,
      left + 10,
      c.y,
      { size: 8.5 },
      { width: cell - 14 },
    );
  });
  c.y += 18;
}
