import type { Db, Executor } from '../../db/database.ts';
import type { Clock } from '../../clock.ts';
import type { Caller } from '../../core/caller.ts';
import type { AuditQuery, AuditRecord } from './audit.repository.ts';
import { AuditRepository } from './audit.repository.ts';

/** Who did what, when and from where: logins, logouts, password, provider and account changes. */
export class AuditService {
  private readonly repo = new AuditRepository();
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Records inside the caller's transaction when one is given, so a rolled-back change leaves no entry. */
  async record(record: AuditRecord, tx: Executor = this.db): Promise<void> {
    await this.repo.insert(tx, record, this.clock.now());
  }

  /** Shorthand for an action by a signed-in caller. */
  async byCaller(
    caller: Caller,
    ip: string,
    action: string,
    target: { type: string; id: string | number; providerId?: number | null; detail?: Record<string, unknown> },
    tx?: Executor,
  ): Promise<void> {
    await this.record(
      {
        actorId: caller.accountId,
        actorName: caller.userName,
        providerId: target.providerId === undefined ? caller.providerId : target.providerId,
        action,
        targetType: target.type,
        targetId: target.id,
        detail: target.detail,
        ip,
      },
      tx,
    );
  }

  page(q: AuditQuery) {
    return this.repo.page(this.db, q);
  }
}
