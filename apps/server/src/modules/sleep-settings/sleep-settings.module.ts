import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import type { Module } from '../../module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { sleepSettingHandlers } from './sleep-setting.routes.ts';
import { SleepSettingService } from './sleep-setting.service.ts';

export interface SleepSettingsDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  transactions: Transactions;
}

/**
 * The sleep-settings module: residents' sleep settings (resident_sleep_setting) as BunkManage
 * reads and saves them. The community calls write the same store, and the alarm engine, the
 * reports and the firmware rollouts read it, through its service. No background parts.
 */
export const buildSleepSettingsModule = (
  deps: SleepSettingsDeps,
): Module<{ settings: SleepSettingService }, ReturnType<typeof sleepSettingHandlers>> => {
  const settings = new SleepSettingService(deps.db, deps.clock, deps.transactions, deps.audit);
  return { services: { settings }, handlers: sleepSettingHandlers(settings), parts: [] };
};
