/**
 * A resident's month from their nights: averages over the nights that could be scored, the
 * nights' risk grades, and how often each risk reason came up. Monthly reports are made from
 * the daily ones whenever they are asked for, so a recomputed night is in the month at once.
 */
import type { MonthReport, NightSummary, ReportResident } from '@vigil/contract';
import type { RiskReason, SleepReport } from '@vigil/sleep';
import { summaryOf } from './stored-report.ts';

export interface MonthNight {
  night: string;
  state: NightSummary['state'];
  report: SleepReport | null;
}

type Averaged = keyof MonthReport['averages'];
const AVERAGED: readonly Averaged[] = [
  'score',
  'totalSleep',
  'efficiency',
  'deepShare',
  'awakenings',
  'movementPerHour',
  'ahi',
  'leaveBedCount',
  'heartAvg',
  'breathAvg',
  'rmssd',
];

/** Mean of the nights that have the figure, to 3 significant decimals; null when none has it. */
const meanOf = (nights: readonly NightSummary[], key: Averaged): number | null => {
  const values = nights.map((n) => n[key]).filter((v): v is number => typeof v === 'number');
  if (!values.length) return null;
  return Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 1000) / 1000;
};

export function monthReportOf(resident: ReportResident, month: string, nights: readonly MonthNight[]): MonthReport {
  const ordered = [...nights].sort((a, b) => a.night.localeCompare(b.night));
  const summaries = ordered.map((n) => summaryOf(n.night, n.state, n.report));
  const scored = summaries.filter((n) => n.score !== null);
  const riskNights = { low: 0, medium: 0, high: 0 };
  const reasons = new Map<RiskReason, number>();
  for (const n of ordered) {
    const risk = n.report?.risk;
    if (!risk) continue;
    riskNights[risk.grade]++;
    for (const reason of risk.reasons) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  return {
    resident,
    month,
    nights: summaries,
    scoredNights: scored.length,
    insufficientNights: summaries.filter((n) => n.state === 'ready' && n.insufficient !== null).length,
    averages: Object.fromEntries(AVERAGED.map((key) => [key, meanOf(scored, key)])) as MonthReport['averages'],
    riskNights,
    riskReasons: [...reasons]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([reason, count]) => ({ reason, nights: count })),
  };
}
