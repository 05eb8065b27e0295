import type { Handlers } from '../../http/register-calls.ts';
import { callerOf } from '../../http/call-context.ts';
import { canSeeProvider } from '../../core/caller.ts';
import { forbidden } from '../../core/app-error.ts';
import type { AuditService } from './audit.service.ts';

export const auditHandlers = (audit: AuditService): Pick<Handlers, 'queryAuditLog'> => ({
  async queryAuditLog(input, ctx) {
    const caller = callerOf(ctx);
    if (input.providerId !== undefined && !canSeeProvider(caller.scope, input.providerId)) throw forbidden();
    const providerIds =
      input.providerId !== undefined ? [input.providerId] : caller.scope.all ? null : caller.scope.ids;
    const { rows, total } = await audit.page({
      offset: (input.pageNum - 1) * input.pageSize,
      limit: input.pageSize,
      action: input.action,
      keyWord: input.keyWord,
      providerIds,
    });
    return {
      rows: rows.map((r) => ({
        id: r.id,
        time: r.at.toISOString(),
        userId: r.actorId,
        userName: r.actorName,
        providerId: r.providerId,
        action: r.action,
        targetType: r.targetType,
        targetId: r.targetId,
        detail: r.detail ?? null,
        ip: r.ip,
      })),
      total,
      pageNum: input.pageNum,
      pageSize: input.pageSize,
    };
  },
});
