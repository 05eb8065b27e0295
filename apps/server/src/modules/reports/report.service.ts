import type {
  BinaryBody,
  CallParsed,
  Calls,
  DailyReport,
  DailyReportData,
  DailyReportRow,
  MonthReport,
  ReportResident,
  ReportUser,
  VitalLimits,
} from '@vigil/contract';
import { LANGUAGES, type Language } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import type { Clock } from '../../clock.ts';
import { fail } from '../../core/app-error.ts';
import type { Caller } from '../../core/caller.ts';
import { listScope, scopeIds } from '../../core/tenant.ts';
import type { Db } from '../../db/database.ts';
import { providers } from '../../db/schema.ts';
import { floorAreaOf } from '../monitor/live-resident.ts';
import type { LiveResidentRow, MonitorService } from '../monitor/monitor.service.ts';
import { ageOn } from '../residents/resident.policy.ts';
import { visible } from '../residents/visible.ts';
import { effectiveSleepSetting } from '../sleep-settings/sleep-setting.policy.ts';
import type { SleepSettingService } from '../sleep-settings/sleep-setting.service.ts';
import { monthReportOf } from './month-summary.ts';
import { latestEndedNight, localDate, nightWindow } from './night-window.ts';
import type { AnalysisPool } from './analysis-pool.ts';
import type { ReportProducer } from './report-producer.ts';
import { SleepReportRepository, type SleepReportRow } from './sleep-report.repository.ts';
import { dataOf, figuresOf, readyReportOf, summaryOf } from './stored-report.ts';

type UserListInput = CallParsed<Calls['sleepReportUserList']>;
type PageListInput = CallParsed<Calls['dailyReportPageList']>;

export interface ReportServiceDeps {
  db: Db;
  clock: Clock;
  timeZone: string;
  producer: Pick<ReportProducer, 'produce'>;
  /** Draws the PDFs off the server's thread. */
  pdf: Pick<AnalysisPool, 'dailyPdf' | 'monthPdf'>;
  /** The heart and breathing rate limits the alarm engine applies to a resident's bed (the curves' bands). */
  vitalLimits: (providerId: number, residentId: number) => VitalLimits;
  /** The residents with a sleep monitor, as the monitoring lists find them. */
  residents: Pick<MonitorService, 'residentsPage' | 'residentsByIds'>;
  /** Residents' sleep settings: a night's window. */
  sleepSettings: Pick<SleepSettingService, 'savedOf'>;
}

/** The PDF's language: the one asked for when the platform speaks it, else the caller's. */
export const pdfLanguage = (asked: string | undefined, caller: Language): Language =>
  (LANGUAGES as readonly string[]).includes(asked ?? '') ? (asked as Language) : caller;

/** A file name from a resident's name: what a file system takes, the name's letters kept. */
const fileName = (name: string, suffix: string) =>
  `${
    [...name]
      .map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? ' ' : c))
      .join('')
      .trim() || 'report'
  }-${suffix}.pdf`;

/** The row's state as the wire names it (the column holds only REPORT_STATES). */
const stateOf = (row: SleepReportRow): DailyReport['state'] => row.state as DailyReport['state'];

/** Who a report is about, as its header and the report lists show them. */
const headerOf = (r: LiveResidentRow, today: string): Omit<ReportResident, 'providerName'> => ({
  userId: r.residentId,
  userName: r.name,
  gender: String(r.gender),
  age: r.birthDate ? ageOn(r.birthDate, today) : null,
  bunk: r.bedName,
  room: r.roomName,
  floorArea: floorAreaOf(r),
});

const DAY_MS = 86_400_000;
const nextDate = (date: string): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
const lastDayOf = (month: string): string => {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, m ?? 1, 0)).toISOString().slice(0, 10);
};

/**
 * The sleep report calls: who has reports, lists of nights, one night's report and curves, the
 * month, and a night made again on demand. A resident is seen by the callers who see them now;
 * a report by those who see the provider it was made for (the resident's provider that night).
 */
export class ReportService {
  private readonly reports = new SleepReportRepository();

  constructor(private readonly deps: ReportServiceDeps) {}

  async userList(caller: Caller, q: UserListInput) {
    const { db, clock } = this.deps;
    const providerIds = scopeIds(listScope(caller));
    const page = await this.deps.residents.residentsPage(
      { providerIds, keyWord: q.keyWord || undefined, areaId: q.areaId, sleepMonitor: true, now: clock.now() },
      (q.pageNum - 1) * q.pageSize,
      q.pageSize,
    );
    const { latest, counts } = await this.reports.latestOf(
      db,
      page.rows.map((r) => r.residentId),
      providerIds,
    );
    const today = localDate(clock.now(), this.deps.timeZone);
    const rows: ReportUser[] = page.rows.map((r) => {
      const report = latest.get(r.residentId);
      return {
        ...headerOf(r, today),
        deviceId: r.deviceId,
        latest: report ? this.summary(report) : null,
        reports: counts.get(r.residentId) ?? 0,
      };
    });
    return { rows, total: page.total, pageNum: q.pageNum, pageSize: q.pageSize };
  }

  async pageList(caller: Caller, q: PageListInput) {
    const { db } = this.deps;
    if (q.userId !== undefined) await this.resident(caller, q.userId);
    const page = await this.reports.page(
      db,
      {
        providerIds: scopeIds(listScope(caller)),
        residentId: q.userId,
        from: q.startDate,
        to: q.endDate,
        riskGrade: q.riskGrade,
      },
      (q.pageNum - 1) * q.pageSize,
      q.pageSize,
    );
    const rows: DailyReportRow[] = page.rows.map((r) => ({
      ...this.summary(r.report),
      userId: r.report.residentId,
      userName: r.userName,
      bunk: r.bunk,
      room: r.room,
    }));
    return { rows, total: page.total, pageNum: q.pageNum, pageSize: q.pageSize };
  }

  async daily(caller: Caller, residentId: number, night: string): Promise<DailyReport | null> {
    const resident = await this.resident(caller, residentId);
    const row = await this.row(caller, residentId, night);
    return row ? this.dailyOf(resident, row) : null;
  }

  async data(caller: Caller, residentId: number, night: string): Promise<DailyReportData | null> {
    const resident = await this.resident(caller, residentId);
    const row = await this.row(caller, residentId, night);
    const stored = row ? readyReportOf(row) : null;
    return stored ? { ...dataOf(night, stored), limits: this.deps.vitalLimits(resident.providerId, residentId) } : null;
  }

  async timePeriod(caller: Caller, residentId: number) {
    const { db, clock, timeZone } = this.deps;
    await this.resident(caller, residentId);
    const { sleepTime, wakeTime } = await this.sleepTimesOf(residentId);
    const span = await this.reports.span(db, residentId, scopeIds(listScope(caller)));
    const latest = latestEndedNight(clock.now(), sleepTime, wakeTime, timeZone);
    const next = nightWindow(nextDate(latest.night), sleepTime, wakeTime, timeZone);
    return {
      firstNight: span.first,
      lastNight: span.last,
      sleepTime,
      wakeTime,
      timeZone,
      // The scheduler looks once a minute after the night's end.
      nextReportAt: new Date(next.end.getTime() + 60_000).toISOString(),
    };
  }

  async monthTimes(caller: Caller, residentId: number): Promise<string[]> {
    await this.resident(caller, residentId);
    return this.reports.months(this.deps.db, residentId, scopeIds(listScope(caller)));
  }

  async month(caller: Caller, residentId: number, month: string): Promise<MonthReport> {
    const resident = await this.resident(caller, residentId);
    const rows = await this.reports.nightsOf(
      this.deps.db,
      residentId,
      scopeIds(listScope(caller)),
      `${month}-01`,
      lastDayOf(month),
    );
    return monthReportOf(
      resident.header,
      month,
      rows.map((r) => ({
        night: r.night,
        state: stateOf(r),
        report: readyReportOf(r)?.report ?? null,
      })),
    );
  }

  /** A ready night's report as PDF; report.notFound when the night has none (yet). */
  async dailyPdf(caller: Caller, residentId: number, night: string, lang: Language): Promise<BinaryBody> {
    const resident = await this.resident(caller, residentId);
    const row = await this.row(caller, residentId, night);
    const stored = row ? readyReportOf(row) : null;
    if (!row || !stored) throw fail('report.notFound');
    const bytes = await this.deps.pdf.dailyPdf({
      report: this.dailyOf(resident, row),
      data: dataOf(night, stored),
      language: lang,
      timeZone: this.deps.timeZone,
    });
    return { contentType: 'application/pdf', bytes, filename: fileName(resident.header.userName, night) };
  }

  /** A month's report as PDF (a month without nights prints as such). */
  async monthPdf(caller: Caller, residentId: number, month: string, lang: Language): Promise<BinaryBody> {
    const report = await this.month(caller, residentId, month);
    const bytes = await this.deps.pdf.monthPdf({ report, language: lang, timeZone: this.deps.timeZone });
    return { contentType: 'application/pdf', bytes, filename: fileName(report.resident.userName, month) };
  }

  /** Makes a night's report again from what is stored, and answers it (null: another instance is making it). */
  async recompute(caller: Caller, residentId: number, night: string): Promise<DailyReport | null> {
    const { clock, timeZone, producer } = this.deps;
    const resident = await this.resident(caller, residentId);
    const { sleepTime, wakeTime } = await this.sleepTimesOf(residentId);
    const window = nightWindow(night, sleepTime, wakeTime, timeZone);
    if (window.end.getTime() > clock.now().getTime()) throw fail('report.notEnded');
    const outcome = await producer.produce(
      { residentId, providerId: resident.providerId, bedId: resident.bedId },
      window,
      true,
    );
    if (outcome === 'failed') throw fail('report.failed');
    const stored = await this.row(caller, residentId, night);
    return stored ? this.dailyOf(resident, stored) : null;
  }

  /** The resident as a report's header shows them; not_found unless the caller sees them. */
  async resident(
    caller: Caller,
    residentId: number,
  ): Promise<{ providerId: number; bedId: number | null; header: ReportResident }> {
    const { db, clock, timeZone } = this.deps;
    const [row] = await this.deps.residents.residentsByIds([residentId], clock.now());
    const r = visible(caller, row);
    const [provider] = await db.select({ name: providers.name }).from(providers).where(eq(providers.id, r.providerId));
    return {
      providerId: r.providerId,
      bedId: r.bedId,
      header: { ...headerOf(r, localDate(clock.now(), timeZone)), providerName: provider?.name ?? null },
    };
  }

  private async row(caller: Caller, residentId: number, night: string): Promise<SleepReportRow | undefined> {
    const [row] = await this.reports.nightsOf(this.deps.db, residentId, scopeIds(listScope(caller)), night, night);
    return row;
  }

  private async sleepTimesOf(residentId: number): Promise<{ sleepTime: string; wakeTime: string }> {
    const { sleepTime, wakeTime } = effectiveSleepSetting(
      residentId,
      await this.deps.sleepSettings.savedOf(residentId),
    );
    return { sleepTime, wakeTime };
  }

  private summary(row: SleepReportRow) {
    return summaryOf(row.night, stateOf(row), readyReportOf(row)?.report ?? null);
  }

  private dailyOf(resident: { header: ReportResident }, row: SleepReportRow): DailyReport {
    const stored = readyReportOf(row);
    return {
      resident: resident.header,
      night: row.night,
      state: stateOf(row),
      computeTime: row.computedAt ? row.computedAt.toISOString() : null,
      figures: stored ? figuresOf(stored.report) : null,
    };
  }
}
