import { callerOf } from '../../http/call-context.ts';
import type { Handlers } from '../../http/register-calls.ts';
import { pdfLanguage, type ReportService } from './report.service.ts';

type ReportCalls =
  | 'sleepReportUserList'
  | 'dailyReportPageList'
  | 'dailyReport'
  | 'dailyReportData'
  | 'timePeriod'
  | 'monthReportTimes'
  | 'monthReport'
  | 'recomputeDailyReport'
  | 'dailyReportPdf'
  | 'monthReportPdf';

/** Handlers of the sleep report calls: input already validated, one service call each. */
export const reportHandlers = (reports: ReportService): Pick<Handlers, ReportCalls> => ({
  sleepReportUserList: (input, ctx) => reports.userList(callerOf(ctx), input),
  dailyReportPageList: (input, ctx) => reports.pageList(callerOf(ctx), input),
  dailyReport: (input, ctx) => reports.daily(callerOf(ctx), input.userId, input.date),
  dailyReportData: (input, ctx) => reports.data(callerOf(ctx), input.userId, input.date),
  timePeriod: (input, ctx) => reports.timePeriod(callerOf(ctx), input.userId),
  monthReportTimes: (input, ctx) => reports.monthTimes(callerOf(ctx), input.userId),
  monthReport: (input, ctx) => reports.month(callerOf(ctx), input.userId, input.month),
  recomputeDailyReport: (input, ctx) => reports.recompute(callerOf(ctx), input.userId, input.date),
  dailyReportPdf: (input, ctx) =>
    reports.dailyPdf(callerOf(ctx), input.userId, input.date, pdfLanguage(input.lang, ctx.lang)),
  monthReportPdf: (input, ctx) =>
    reports.monthPdf(callerOf(ctx), input.userId, input.month, pdfLanguage(input.lang, ctx.lang)),
});
