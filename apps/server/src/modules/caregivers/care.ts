import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import type { Handlers } from '../../http/register-calls.ts';
import type { AccountService } from '../accounts/account.service.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { communityHandlers } from '../communities/community.routes.ts';
import { CommunityService } from '../communities/community.service.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import type { SleepSettingService } from '../sleep-settings/sleep-setting.service.ts';
import { caregiverSheetHandlers } from './caregiver-sheet.routes.ts';
import { CaregiverSheetService } from './caregiver-sheet.service.ts';
import { caregiverHandlers } from './caregiver.routes.ts';
import { CaregiverService } from './caregiver.service.ts';
import { FamilyService } from './family.service.ts';

/** The caregiver, relatives' binding and community services, wired once by the composition root. */
export const buildCare = (
  db: Db,
  clock: Clock,
  audit: AuditService,
  accounts: AccountService,
  providers: ProviderService,
  transactions: Transactions,
  sleepSettings: SleepSettingService,
) => {
  const caregivers = new CaregiverService(db, clock, audit, accounts, providers);
  const family = new FamilyService(db, audit, caregivers);
  const communities = new CommunityService(db, clock, audit, providers, caregivers, transactions, sleepSettings);
  const sheets = new CaregiverSheetService(db, caregivers);
  return { caregivers, family, communities, sheets };
};
export type CareServices = ReturnType<typeof buildCare>;

export const careHandlers = (care: CareServices) =>
  ({
    ...caregiverHandlers(care.caregivers, care.family),
    ...communityHandlers(care.communities),
    ...caregiverSheetHandlers(care.sheets),
  }) satisfies Partial<Handlers>;
