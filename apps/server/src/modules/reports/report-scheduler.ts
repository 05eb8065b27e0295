/**
 * Produces each reported resident's daily report once their night has ended (issue 11: within
 * 15 minutes of the wake time; a night ends `AFTER_WAKE_MINUTES` after it, and the scheduler
 * looks every `everyMs`). Every instance runs it; the report's claim makes one of them the
 * producer. Reads are paced — one night read at a time, the event loop let go between them —
 * because on PGlite they run on the server's own thread, beside devices and alarms.
 *
 * Due: the latest ended night of every resident in a bed with a sleep monitor; a failed report
 * again after `retryAfterMs`; and, for a resident who already has reports, the nights of the
 * last `catchUpNights` an outage left without one. A resident's first report waits for a night
 * their monitor sent something in: a bed just fitted gets no "no data" report for the night
 * before, while a resident with reports gets one when their monitor was silent all night.
 */
import type { Clock } from '../../clock.ts';
import type { Part } from '../../core/lifecycle.ts';
import { yieldToEventLoop } from '../../core/yield.ts';
import type { Db } from '../../db/database.ts';
import { latestEndedNight, nightWindow, type NightWindow } from './night-window.ts';
import { ReportPlanRepository, type KnownNight, type ReportedResident } from './report-plan.repository.ts';
import { STALE_CLAIM_MS, type ProduceOutcome, type ReportProducer } from './report-producer.ts';

export interface ReportSchedulerOptions {
  everyMs?: number;
  catchUpNights?: number;
  retryAfterMs?: number;
  /** Reports under way at once: one reading while another is analysed. */
  inFlight?: number;
}

export interface TickResult {
  due: number;
  made: number;
  held: number;
  failed: number;
}

interface Job {
  resident: ReportedResident;
  window: NightWindow;
}

const DAY_MS = 86_400_000;
const dateBefore = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);

export class ReportScheduler implements Part {
  readonly name = 'sleep-report-scheduler';
  private readonly plan = new ReportPlanRepository();
  private readonly everyMs: number;
  private readonly catchUpNights: number;
  private readonly retryAfterMs: number;
  private readonly inFlight: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<TickResult> | undefined;
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly timeZone: string,
    private readonly producer: Pick<ReportProducer, 'produce'>,
    options: ReportSchedulerOptions = {},
  ) {
    this.everyMs = options.everyMs ?? 60_000;
    this.catchUpNights = options.catchUpNights ?? 7;
    this.retryAfterMs = options.retryAfterMs ?? 15 * 60_000;
    this.inFlight = Math.max(1, options.inFlight ?? 2);
  }

  /** One look at what is due, producing it; a look already going is joined. */
  tick(): Promise<TickResult> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  start(onError: (error: unknown) => void): void {
    if (this.timer) return;
    this.stopping = false;
    // The first look one period after start: a starting server has enough to do, and a missed
    // night is still due then.
    const tick = () => void this.tick().catch(onError);
    this.timer = setInterval(tick, this.everyMs);
    this.timer.unref();
  }

  /** Stops looking; reports under way finish first. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.stopping = true;
    await this.running?.catch(() => undefined);
  }

  /** The reports due now, oldest night first. */
  async due(now: Date): Promise<Job[]> {
    const residents = await this.plan.reportedResidents(this.db);
    if (!residents.length) return [];
    // Residents share a handful of schedules: each window is worked out once per look.
    const windows = new Map<string, NightWindow>();
    const windowOf = (night: string | null, sleepTime: string, wakeTime: string): NightWindow => {
      const key = `${night}|${sleepTime}|${wakeTime}`;
      let window = windows.get(key);
      if (!window) {
        window =
          night === null
            ? latestEndedNight(now, sleepTime, wakeTime, this.timeZone)
            : nightWindow(night, sleepTime, wakeTime, this.timeZone);
        windows.set(key, window);
      }
      return window;
    };
    const latest = new Map(residents.map((r) => [r.residentId, windowOf(null, r.sleepTime, r.wakeTime)]));
    const newest = [...latest.values()].reduce((a, b) => (a.night > b.night ? a : b)).night;
    const known = await this.plan.nightsSince(this.db, dateBefore(newest, this.catchUpNights + 1));
    const jobs: Job[] = [];
    /** Residents' first reports: made once their monitor has sent something in the night. */
    const firsts: Job[] = [];
    for (const resident of residents) {
      const last = latest.get(resident.residentId);
      if (!last) continue;
      const nights = known.get(resident.residentId);
      const earliest = nights && nights.size ? [...nights.keys()].sort()[0] : undefined;
      for (let back = this.catchUpNights - 1; back >= 0; back--) {
        const night = dateBefore(last.night, back);
        // Before the resident's first report, only the latest night: a new bed gets no backlog.
        if (back > 0 && (earliest === undefined || night < earliest)) continue;
        if (!this.isDue(nights?.get(night), now)) continue;
        const window = back === 0 ? last : windowOf(night, resident.sleepTime, resident.wakeTime);
        (earliest === undefined ? firsts : jobs).push({ resident, window });
      }
    }
    const heard = await this.plan.withMinutes(
      this.db,
      firsts.map((j) => ({ residentId: j.resident.residentId, ...j.window })),
    );
    jobs.push(...firsts.filter((j) => heard.has(j.resident.residentId)));
    return jobs.sort((a, b) => a.window.end.getTime() - b.window.end.getTime());
  }

  private isDue(row: KnownNight | undefined, now: Date): boolean {
    if (!row) return true;
    if (row.state === 'ready') return false;
    const age = now.getTime() - row.claimedAt.getTime();
    return age >= (row.state === 'failed' ? this.retryAfterMs : STALE_CLAIM_MS);
  }

  private async run(): Promise<TickResult> {
    const jobs = await this.due(this.clock.now());
    const result: TickResult = { due: jobs.length, made: 0, held: 0, failed: 0 };
    let next = 0;
    const lane = async () => {
      while (!this.stopping && next < jobs.length) {
        const job = jobs[next++];
        if (!job) break;
        const { residentId, providerId, bedId } = job.resident;
        const outcome: ProduceOutcome = await this.producer.produce({ residentId, providerId, bedId }, job.window);
        result[outcome]++;
        // Let devices, alarms and calls in between two nights' reads.
        await yieldToEventLoop();
      }
    };
    await Promise.all(Array.from({ length: this.inFlight }, lane));
    return result;
  }
}
