import type { Db, Executor } from '../../db/database.ts';
import type { Clock } from '../../clock.ts';
import { accountActor, auditActorOf, type Actor } from '../../core/actor.ts';
import type { Caller } from '../../core/caller.ts';
import type { AuditQuery, AuditRecord } from './audit.repository.ts';
import { AuditRepository } from './audit.repository.ts';

/** What an audit entry is about; `providerId` defaults to the actor's own provider. */
export interface AuditTarget {
  type: string;
  id: string | number;
  providerId?: number | null;
  detail?: Record<string, unknown>;
}

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

  /** An action by an account or by the platform itself (`systemActor`: ingest, schedulers …). */
  async by(actor: Actor, action: string, target: AuditTarget, tx?: Executor): Promise<void> {
    const who = auditActorOf(actor);
    await this.record(
      {
        actorId: who.actorId,
        actorName: who.actorName,
        providerId: target.providerId === undefined ? who.providerId : target.providerId,
        action,
        targetType: target.type,
        targetId: target.id,
        detail: target.detail,
        ip: who.ip,
      },
      tx,
    );
  }

  /** Shorthand for an action by a signed-in caller. */
  byCaller(caller: Caller, ip: string, action: string, target: AuditTarget, tx?: Executor): Promise<void> {
    return this.by(accountActor(caller, ip), action, target, tx);
  }

  page(q: AuditQuery) {
    return this.repo.page(this.db, q);
  }
}
