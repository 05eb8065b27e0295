import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Module } from '../../module.ts';
import { auditHandlers } from './audit.routes.ts';
import { AuditService } from './audit.service.ts';

export interface AuditDeps {
  db: Db;
  clock: Clock;
}

/** The audit module: the audit log (other modules write it inside their transactions) and its query call. */
export const buildAuditModule = (
  deps: AuditDeps,
): Module<{ audit: AuditService }, ReturnType<typeof auditHandlers>> => {
  const audit = new AuditService(deps.db, deps.clock);
  return { services: { audit }, handlers: auditHandlers(audit), parts: [] };
};
