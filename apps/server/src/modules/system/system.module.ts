import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import type { Module } from '../../module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import type { SettingsService } from './settings.service.ts';
import { systemHandlers } from './system.routes.ts';
import { SystemService } from './system.service.ts';

export interface SystemDeps {
  db: Db;
  clock: Clock;
  /** The instance settings, built first by the composition root: the RSA key (auth) reads them too. */
  settings: SettingsService;
  audit: AuditService;
  providers: ProviderService;
  transactions: Transactions;
}

/** The system module: platform and provider branding, uploaded files and the instance settings. */
export const buildSystemModule = (
  deps: SystemDeps,
): Module<{ settings: SettingsService; system: SystemService }, ReturnType<typeof systemHandlers>> => {
  const { db, clock, settings, audit, providers, transactions } = deps;
  const system = new SystemService(db, clock, settings, providers, audit, transactions);
  return { services: { settings, system }, handlers: systemHandlers(system), parts: [] };
};
