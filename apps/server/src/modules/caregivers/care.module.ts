import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import type { Module } from '../../module.ts';
import type { AccountService } from '../accounts/account.service.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import type { SleepSettingService } from '../sleep-settings/sleep-setting.service.ts';
import { buildCare, careHandlers, type CareServices } from './care.ts';

export interface CareDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  accounts: AccountService;
  providers: ProviderService;
  transactions: Transactions;
  /** Communities save their members' sleep settings through it. */
  sleepSettings: SleepSettingService;
}

/** The care module (caregivers/ and communities/): caregivers, relatives' bindings, communities, caregiver sheets. */
export const buildCareModule = (deps: CareDeps): Module<CareServices, ReturnType<typeof careHandlers>> => {
  const services = buildCare(
    deps.db,
    deps.clock,
    deps.audit,
    deps.accounts,
    deps.providers,
    deps.transactions,
    deps.sleepSettings,
  );
  return { services, handlers: careHandlers(services), parts: [] };
};
