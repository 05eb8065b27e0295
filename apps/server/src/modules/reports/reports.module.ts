import type { Clock } from '../../clock.ts';
import type { BackgroundPacer } from '../../core/background-pacer.ts';
import type { Part } from '../../core/lifecycle.ts';
import type { Db } from '../../db/database.ts';
import type { Module } from '../../module.ts';
import { AnalysisPool } from './analysis-pool.ts';
import { ReportProducer } from './report-producer.ts';
import { ReportScheduler } from './report-scheduler.ts';
import { reportHandlers } from './report.routes.ts';
import { ReportService, type ReportServiceDeps } from './report.service.ts';

export interface ReportsDeps {
  db: Db;
  /** The process's one pacer of background database work (decision 0028). */
  pacer: BackgroundPacer;
  clock: Clock;
  timeZone: string;
  reports: { workers: number; everyMs: number };
  /** The heart and breathing rate limits the alarm engine applies to a resident's bed. */
  vitalLimits: ReportServiceDeps['vitalLimits'];
  residents: ReportServiceDeps['residents'];
  sleepSettings: ReportServiceDeps['sleepSettings'];
}

/**
 * Sleep reports: the worker threads that analyse nights and render PDFs, the scheduler that
 * makes each night's report once it has ended, and the report calls. Parts: the pool, then the
 * scheduler (stopped first, so reports under way finish before the workers go).
 */
export const buildReportsModule = (
  deps: ReportsDeps,
): Module<
  { reports: ReportService; scheduler: ReportScheduler; producer: ReportProducer; pool: AnalysisPool },
  ReturnType<typeof reportHandlers>
> => {
  const pool = new AnalysisPool({ size: deps.reports.workers });
  const producer = new ReportProducer(deps.db, deps.clock, pool, deps.pacer);
  const scheduler = new ReportScheduler(deps.db, deps.clock, deps.timeZone, producer, {
    everyMs: deps.reports.everyMs,
  });
  // A recompute someone waits for does not queue behind the scheduler's paced queries.
  const onDemand = new ReportProducer(deps.db, deps.clock, pool);
  const reports = new ReportService({
    db: deps.db,
    clock: deps.clock,
    timeZone: deps.timeZone,
    producer: onDemand,
    pdf: pool,
    vitalLimits: deps.vitalLimits,
    residents: deps.residents,
    sleepSettings: deps.sleepSettings,
  });
  const poolPart: Part = { name: 'report-workers', start: () => undefined, stop: () => pool.stop() };
  return {
    services: { reports, scheduler, producer, pool },
    handlers: reportHandlers(reports),
    parts: [poolPart, scheduler],
  };
};
