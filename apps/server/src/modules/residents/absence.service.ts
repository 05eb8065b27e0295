import type { Db, Executor } from '../../db/database.ts';
import type { Emit, Transactions, Within } from '../../db/transactions.ts';
import type { Clock } from '../../clock.ts';
import { fail, invalid } from '../../core/app-error.ts';
import type { Caller } from '../../core/caller.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { RESIDENT_ABSENCE_CHANGED, type ResidentAbsenceChanged } from '../../core/event-catalogue.ts';
import { AbsenceRepository } from './absence.repository.ts';
import { absenceTimesProblem } from './resident.policy.ts';
import { ResidentRepository } from './resident.repository.ts';
import { presentAbsence } from './resident.view.ts';
import { visible } from './visible.ts';

export interface NewAbsence {
  userId: number;
  startTime?: string | undefined;
  endTime?: string | undefined;
  reason?: string | undefined;
}

/**
 * Temporary absences (/user/transient): a checked-in resident is away, e.g. at hospital. While
 * one is under way the resident counts as away and bed-leaving alarms pause; it ends by hand
 * or by itself at the expected return, so alarms never stay paused by a forgotten absence.
 * Every change is announced in its transaction (RESIDENT_ABSENCE_CHANGED): the alarm engine
 * pauses or resumes from the next sample on.
 */
export class AbsenceService {
  private readonly repo = new AbsenceRepository();
  private readonly residents = new ResidentRepository();
  constructor(
    private readonly db: Db,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly audit: AuditService,
  ) {}

  /** The absence of the resident's current stay not yet ended (under way or planned), if any. */
  open(resident: { id: number; admittedAt: Date | null }, tx: Executor = this.db) {
    return this.repo.open(tx, resident.id, this.clock.now(), resident.admittedAt);
  }

  async start(caller: Caller, input: NewAbsence, ip: string) {
    return this.transactions.run(async (tx, emit) => {
      // The resident row lock serialises absences of one resident: one open at a time.
      const resident = visible(caller, await this.residents.lockById(tx, input.userId));
      if (resident.state !== 'checkedIn') throw fail('absence.notCheckedIn');
      const now = this.clock.now();
      const start = input.startTime ? new Date(input.startTime) : now;
      const end = input.endTime ? new Date(input.endTime) : null;
      const problem = absenceTimesProblem(start, end, now, resident.admittedAt);
      if (problem) throw invalid(problem);
      if (await this.repo.open(tx, resident.id, now, resident.admittedAt)) throw fail('absence.exists');
      const row = await this.repo.insert(tx, {
        residentId: resident.id,
        startsAt: start,
        endsAt: end,
        reason: input.reason ? input.reason : null,
        createdBy: caller.accountId,
        createdAt: now,
      });
      await this.audit.byCaller(
        caller,
        ip,
        'resident.absenceStart',
        {
          type: 'resident',
          id: resident.id,
          providerId: resident.providerId,
          detail: {
            name: resident.name,
            absenceId: row.id,
            startTime: start.toISOString(),
            endTime: end?.toISOString(),
          },
        },
        tx,
      );
      await this.announce({ tx, emit }, resident);
      return presentAbsence(row, now);
    });
  }

  async end(caller: Caller, residentId: number, ip: string): Promise<void> {
    await this.transactions.run(async (tx, emit) => {
      const resident = visible(caller, await this.residents.lockById(tx, residentId));
      const now = this.clock.now();
      const open = await this.repo.open(tx, resident.id, now, resident.admittedAt);
      if (!open) throw fail('absence.none');
      const removed = await this.close(tx, open, now);
      await this.audit.byCaller(
        caller,
        ip,
        'resident.absenceEnd',
        {
          type: 'resident',
          id: resident.id,
          providerId: resident.providerId,
          detail: { name: resident.name, absenceId: open.id, removed },
        },
        tx,
      );
      await this.announce({ tx, emit }, resident);
    });
  }

  /**
   * Ends the resident's open absence inside the caller's transaction (check-out uses this):
   * one under way ends now and stays as history; a planned one is removed. Answers whether
   * there was one.
   */
  async closeOpen(resident: { id: number; providerId: number }, within: Within): Promise<boolean> {
    const now = this.clock.now();
    const open = await this.repo.open(within.tx, resident.id, now, null);
    if (!open) return false;
    await this.close(within.tx, open, now);
    await this.announce(within, resident);
    return true;
  }

  /** Tells the alarm engines the resident's absences as they stand in this transaction. */
  private async announce({ tx, emit }: { tx: Executor; emit: Emit }, resident: { id: number; providerId: number }) {
    const rows = await this.repo.notEnded(tx, resident.id, this.clock.now());
    const payload: ResidentAbsenceChanged = {
      residentId: resident.id,
      absences: rows.map((r) => ({ startsAt: r.startsAt.toISOString(), endsAt: r.endsAt?.toISOString() ?? null })),
    };
    emit({ type: RESIDENT_ABSENCE_CHANGED, providerId: resident.providerId, payload: { ...payload } });
  }

  /** Answers true when the absence had not started and was removed rather than ended. */
  private async close(tx: Executor, absence: { id: number; startsAt: Date }, now: Date): Promise<boolean> {
    if (absence.startsAt.getTime() > now.getTime()) {
      await this.repo.delete(tx, absence.id);
      return true;
    }
    await this.repo.end(tx, absence.id, now);
    return false;
  }
}
