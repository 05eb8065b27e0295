import { and, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { auditLog } from '../../db/schema.ts';

export interface AuditRecord {
  actorId: number | null;
  actorName: string | null;
  providerId: number | null;
  action: string;
  targetType?: string | undefined;
  targetId?: string | number | undefined;
  detail?: Record<string, unknown> | undefined;
  ip?: string | undefined;
}

export interface AuditQuery {
  offset: number;
  limit: number;
  action?: string | undefined;
  keyWord?: string | undefined;
  /** null: every provider and platform entries. */
  providerIds: readonly number[] | null;
}

export class AuditRepository {
  async insert(db: Executor, record: AuditRecord, at: Date): Promise<void> {
    await db.insert(auditLog).values({
      at,
      actorId: record.actorId,
      actorName: record.actorName,
      providerId: record.providerId,
      action: record.action,
      targetType: record.targetType ?? null,
      targetId: record.targetId === undefined ? null : String(record.targetId),
      detail: record.detail ?? null,
      ip: record.ip ?? null,
    });
  }

  async page(db: Executor, q: AuditQuery) {
    const conditions: SQL[] = [];
    if (q.action) conditions.push(eq(auditLog.action, q.action));
    if (q.keyWord) {
      const like = `%${q.keyWord.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const match = or(ilike(auditLog.actorName, like), ilike(auditLog.targetId, like));
      if (match) conditions.push(match);
    }
    if (q.providerIds) conditions.push(inArray(auditLog.providerId, q.providerIds.length ? [...q.providerIds] : [-1]));
    const where = conditions.length ? and(...conditions) : undefined;
    const rows = await db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.id))
      .limit(q.limit)
      .offset(q.offset);
    const [total] = await db.select({ n: count() }).from(auditLog).where(where);
    return { rows, total: total?.n ?? 0 };
  }
}
