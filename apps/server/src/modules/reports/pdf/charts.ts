/**
 * The reports' charts as vector paths: the night's hypnogram, per-minute curves and marks on a
 * clock-time axis, and the month's night-by-night trends. A missing value is a gap in the
 * line, never a point at zero.
 */
import { COLORS, type ReportCanvas } from './canvas.ts';
import type { ReportFormat } from './format.ts';

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Span {
  start: number;
  end: number;
}

const AXIS_TEXT = { size: 6.5, color: COLORS.muted } as const;

/** Maps the night's Unix seconds onto a box's width. */
export class TimeScale {
  constructor(
    readonly start: number,
    readonly end: number,
    readonly left: number,
    readonly width: number,
  ) {}

  x(t: number): number {
    const share = (t - this.start) / Math.max(1, this.end - this.start);
    return this.left + Math.min(1, Math.max(0, share)) * this.width;
  }
}

/** Vertical hour lines through a plot and the hour labels under it; returns the labels' height. */
export function drawHourGrid(
  c: ReportCanvas,
  format: ReportFormat,
  scale: TimeScale,
  plot: Box,
  labels: boolean,
): number {
  const doc = c.doc;
  const hours = format.fullHours(scale.start, scale.end);
  // A label every hour while they have room, else every second or third hour.
  const labelWidth = Math.max(...hours.map((h) => c.width(format.hour(h), AXIS_TEXT)), 1);
  const perHour = scale.width / Math.max(1, (scale.end - scale.start) / 3600);
  const every = Math.max(1, Math.ceil((labelWidth + 6) / perHour));
  doc.save().lineWidth(0.4).strokeColor(COLORS.rule);
  for (const hour of hours) {
    const x = scale.x(hour);
    doc
      .moveTo(x, plot.top)
      .lineTo(x, plot.top + plot.height)
      .stroke();
  }
  doc.restore();
  if (!labels) return 0;
  hours.forEach((hour, i) => {
    if (i % every !== 0) return;
    const x = scale.x(hour);
    const text = format.hour(hour);
    c.text(text, x - 30, plot.top + plot.height + 2, AXIS_TEXT, { width: 60, align: 'center' });
  });
  return AXIS_TEXT.size * 1.4 + 2;
}

/** Light bands where the resident was out of bed, behind a plot. */
export function shadeSpans(c: ReportCanvas, scale: TimeScale, plot: Box, spans: readonly Span[], color: string): void {
  for (const span of spans) {
    const x0 = scale.x(span.start);
    const x1 = Math.max(scale.x(span.end), x0 + 0.8);
    c.doc.rect(x0, plot.top, x1 - x0, plot.height).fill(color);
  }
}

export const STAGE_ROWS = [
  { code: 0, key: 'stage.wake', color: COLORS.wake },
  { code: 1, key: 'stage.rem', color: COLORS.rem },
  { code: 2, key: 'stage.light', color: COLORS.light },
  { code: 3, key: 'stage.deep', color: COLORS.deep },
] as const;

/**
 * One 30-s epoch per code (0 wake, 1 REM, 2 light, 3 deep, 255 unknown) from `start`: a block
 * per run of one stage in that stage's row, joined by thin steps; unknown epochs stay empty.
 */
export function drawHypnogram(
  c: ReportCanvas,
  scale: TimeScale,
  plot: Box,
  codes: readonly number[],
  epochSeconds: number,
  start: number,
): void {
  const doc = c.doc;
  const rowHeight = plot.height / STAGE_ROWS.length;
  const rowOf = (code: number): number => STAGE_ROWS.findIndex((row) => row.code === code);
  doc.save().lineWidth(0.4).strokeColor(COLORS.rule);
  for (let i = 0; i <= STAGE_ROWS.length; i++) {
    doc
      .moveTo(plot.left, plot.top + i * rowHeight)
      .lineTo(plot.left + plot.width, plot.top + i * rowHeight)
      .stroke();
  }
  doc.restore();

  const runs: { row: number; from: number; to: number }[] = [];
  for (let i = 0; i < codes.length;) {
    const code = codes[i] ?? 255;
    let j = i + 1;
    while (j < codes.length && codes[j] === code) j++;
    const row = rowOf(code);
    if (row >= 0) runs.push({ row, from: start + i * epochSeconds, to: start + j * epochSeconds });
    i = j;
  }
  // Steps first, so the blocks cover their ends.
  doc.save().lineWidth(0.5).strokeColor(COLORS.faint);
  for (let k = 1; k < runs.length; k++) {
    const previous = runs[k - 1];
    const run = runs[k];
    if (!previous || !run || previous.to !== run.from) continue;
    const x = scale.x(run.from);
    doc
      .moveTo(x, plot.top + (previous.row + 0.5) * rowHeight)
      .lineTo(x, plot.top + (run.row + 0.5) * rowHeight)
      .stroke();
  }
  doc.restore();
  for (const run of runs) {
    const x0 = scale.x(run.from);
    const x1 = Math.max(scale.x(run.to), x0 + 0.6);
    const color = STAGE_ROWS[run.row]?.color ?? COLORS.faint;
    doc.rect(x0, plot.top + run.row * rowHeight + 2, x1 - x0, rowHeight - 4).fill(color);
  }
}

export interface CurvePoint {
  ts: number;
  value: number | null;
}

/** A rounded value range with room around the data, and its grid values. */
export function niceRange(
  values: readonly number[],
  step: number,
  fallback: [number, number],
): { min: number; max: number; ticks: number[] } {
  const finite = values.filter((v) => Number.isFinite(v));
  let min = finite.length ? Math.floor(Math.min(...finite) / step) * step : fallback[0];
  let max = finite.length ? Math.ceil(Math.max(...finite) / step) * step : fallback[1];
  if (max - min < step * 2) {
    min -= step;
    max += step;
  }
  min = Math.max(0, min);
  const count = Math.round((max - min) / step);
  const every = Math.max(1, Math.ceil(count / 4));
  const ticks: number[] = [];
  for (let v = min; v <= max + 1e-9; v += step * every) ticks.push(v);
  return { min, max, ticks };
}

/** Horizontal grid lines with their values left of the plot. */
export function drawValueGrid(
  c: ReportCanvas,
  format: ReportFormat,
  plot: Box,
  range: { min: number; max: number; ticks: number[] },
  digits = 0,
): void {
  const doc = c.doc;
  const y = (v: number): number =>
    plot.top + plot.height - ((v - range.min) / Math.max(1e-9, range.max - range.min)) * plot.height;
  doc.save().lineWidth(0.4).strokeColor(COLORS.rule);
  for (const tick of range.ticks) {
    doc
      .moveTo(plot.left, y(tick))
      .lineTo(plot.left + plot.width, y(tick))
      .stroke();
  }
  doc.restore();
  for (const tick of range.ticks) {
    c.text(format.number(tick, digits), plot.left - 34, y(tick) - AXIS_TEXT.size * 0.6, AXIS_TEXT, {
      width: 31,
      align: 'right',
    });
  }
}

/**
 * A per-minute curve: consecutive minutes are joined, and a missing minute or a null value
 * breaks the line (a lone minute between gaps shows as a dot).
 */
export function drawCurve(
  c: ReportCanvas,
  scale: TimeScale,
  plot: Box,
  points: readonly CurvePoint[],
  range: { min: number; max: number },
  color: string,
  stepSeconds = 60,
): void {
  const doc = c.doc;
  const y = (v: number): number => {
    const share = (v - range.min) / Math.max(1e-9, range.max - range.min);
    return plot.top + plot.height - Math.min(1, Math.max(0, share)) * plot.height;
  };
  doc.save().lineWidth(0.8).strokeColor(color).lineJoin('round');
  let open = false;
  let previousTs = Number.NEGATIVE_INFINITY;
  const lone: CurvePoint[] = [];
  let segmentLength = 0;
  let segmentStart: CurvePoint | undefined;
  const closeSegment = (): void => {
    if (open && segmentLength === 1 && segmentStart) lone.push(segmentStart);
    open = false;
    segmentLength = 0;
  };
  for (const point of points) {
    if (point.value === null || !Number.isFinite(point.value)) {
      closeSegment();
      continue;
    }
    const x = scale.x(point.ts + stepSeconds / 2);
    if (open && point.ts - previousTs <= stepSeconds * 1.5) {
      doc.lineTo(x, y(point.value));
      segmentLength++;
    } else {
      closeSegment();
      doc.moveTo(x, y(point.value));
      open = true;
      segmentLength = 1;
      segmentStart = point;
    }
    previousTs = point.ts;
  }
  closeSegment();
  doc.stroke();
  doc.restore();
  for (const point of lone) {
    if (point.value !== null) c.doc.circle(scale.x(point.ts + stepSeconds / 2), y(point.value), 0.9).fill(color);
  }
}

/** Per-minute bars from the plot's floor (movement seconds of each minute, of 60). */
export function drawMinuteBars(
  c: ReportCanvas,
  scale: TimeScale,
  plot: Box,
  points: readonly CurvePoint[],
  max: number,
  color: string,
): void {
  const barWidth = Math.max(0.5, scale.width / Math.max(1, (scale.end - scale.start) / 60) - 0.15);
  for (const point of points) {
    if (point.value === null || point.value <= 0) continue;
    const height = Math.min(1, point.value / max) * plot.height;
    c.doc.rect(scale.x(point.ts), plot.top + plot.height - height, barWidth, height).fill(color);
  }
}

/** Marks for spans on a thin lane (apnea events); a short span still gets a visible mark. */
export function drawSpanMarks(
  c: ReportCanvas,
  scale: TimeScale,
  lane: Box,
  spans: readonly Span[],
  color: string,
): void {
  for (const span of spans) {
    const x0 = scale.x(span.start);
    const x1 = Math.max(scale.x(span.end), x0 + 1.2);
    c.doc.rect(x0, lane.top, x1 - x0, lane.height).fill(color);
  }
}

export interface TrendSeries {
  color: string;
  /** One value per night (null: no value that night), keyed by day of month 1–31. */
  values: ReadonlyMap<number, number | null>;
  kind: 'line' | 'bars';
}

/**
 * A month's nights left to right. Lines join nights that follow each other only; a night without a value
 * breaks the line; `markDays` get a small cross on the floor (nights that could not be scored).
 */
export function drawTrend(
  c: ReportCanvas,
  format: ReportFormat,
  plot: Box,
  days: number,
  range: { min: number; max: number; ticks: number[] },
  series: readonly TrendSeries[],
  options: { digits?: number; references?: readonly number[]; markDays?: readonly number[] } = {},
): void {
  const doc = c.doc;
  const slot = plot.width / days;
  const x = (day: number): number => plot.left + (day - 0.5) * slot;
  const y = (v: number): number => {
    const share = (v - range.min) / Math.max(1e-9, range.max - range.min);
    return plot.top + plot.height - Math.min(1, Math.max(0, share)) * plot.height;
  };
  drawValueGrid(c, format, plot, range, options.digits ?? 0);
  doc.save().lineWidth(0.6).strokeColor(COLORS.faint).dash(2, { space: 2 });
  for (const reference of options.references ?? []) {
    if (reference <= range.min || reference >= range.max) continue;
    doc
      .moveTo(plot.left, y(reference))
      .lineTo(plot.left + plot.width, y(reference))
      .stroke();
  }
  doc.undash().restore();
  for (const s of series) {
    if (s.kind === 'bars') {
      for (const [day, value] of s.values) {
        if (value === null) continue;
        const top = y(value);
        doc.rect(x(day) - slot * 0.32, top, slot * 0.64, plot.top + plot.height - top).fill(s.color);
      }
      continue;
    }
    doc.save().lineWidth(1).strokeColor(s.color).lineJoin('round');
    let previous: number | undefined;
    for (const day of [...s.values.keys()].sort((a, b) => a - b)) {
      const value = s.values.get(day);
      if (value === null || value === undefined) {
        previous = undefined;
        continue;
      }
      if (previous === day - 1) doc.lineTo(x(day), y(value));
      else doc.moveTo(x(day), y(value));
      previous = day;
    }
    doc.stroke().restore();
    for (const [day, value] of s.values) {
      if (value !== null) doc.circle(x(day), y(value), 1.3).fill(s.color);
    }
  }
  drawCrosses(
    c,
    (options.markDays ?? []).map((day) => ({ x: x(day), y: plot.top + plot.height - 3 })),
  );
  for (let day = 1; day <= days; day++) {
    if (day !== 1 && day % 5 !== 0) continue;
    c.text(format.number(day), x(day) - 10, plot.top + plot.height + 2, AXIS_TEXT, { width: 20, align: 'center' });
  }
}

/** Small crosses (4 pt) centred on the points: a night that could not be scored, and its legend. */
export function drawCrosses(c: ReportCanvas, centres: readonly { x: number; y: number }[]): void {
  const doc = c.doc;
  doc.save().lineWidth(0.7).strokeColor(COLORS.muted);
  for (const { x, y } of centres) {
    doc
      .moveTo(x - 2, y - 2)
      .lineTo(x + 2, y + 2)
      .moveTo(x - 2, y + 2)
      .lineTo(x + 2, y - 2)
      .stroke();
  }
  doc.restore();
}
