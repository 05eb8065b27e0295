import type {
  AF_RISKS,
  INSUFFICIENT_REASONS,
  NightFigures,
  REPORT_STATES,
  RISK_GRADES,
  RISK_REASONS,
} from '@vigil/contract/browser';

export type RiskGrade = (typeof RISK_GRADES)[number];
export type RiskReason = (typeof RISK_REASONS)[number];
export type InsufficientReason = (typeof INSUFFICIENT_REASONS)[number];
export type ReportState = (typeof REPORT_STATES)[number];
export type AfRisk = (typeof AF_RISKS)[number];

export const RISK_COLOURS: Readonly<Record<RiskGrade, string>> = { low: 'green', medium: 'orange', high: 'red' };
/** The same colours as plain values, for borders and charts (antd's green, orange and red). */
export const RISK_HEX: Readonly<Record<RiskGrade, string>> = { low: '#52c41a', medium: '#fa8c16', high: '#f5222d' };
export const STATE_COLOURS: Readonly<Record<ReportState, string>> = {
  ready: 'green',
  computing: 'processing',
  failed: 'error',
};

/** A report being made is asked for again this often until it is ready or has failed. */
export const COMPUTING_POLL_MS = 5_000;

/** The score's parts and their full marks (docs/sleep-analysis.md, "Sleep score"). */
export const SCORE_PARTS = [
  { part: 'duration', max: 30 },
  { part: 'efficiency', max: 20 },
  { part: 'depth', max: 20 },
  { part: 'continuity', max: 20 },
  { part: 'latency', max: 10 },
] as const satisfies readonly { part: keyof NonNullable<NightFigures['scoreParts']>; max: number }[];

/** The nights the daily list shows unless asked otherwise. */
export const DEFAULT_NIGHTS = 30;
