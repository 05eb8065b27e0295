import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import type { Module } from '../../module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CommunityService } from '../communities/community.service.ts';
import type { Facility } from '../facility/facility.ts';
import { residentSheetHandlers } from './resident-sheet.routes.ts';
import { ResidentSheetService } from './resident-sheet.service.ts';
import { residentHandlers } from './resident.routes.ts';
import { ResidentService } from './resident.service.ts';

export interface ResidentDeps {
  db: Db;
  transactions: Transactions;
  clock: Clock;
  audit: AuditService;
  facility: Pick<Facility, 'occupancy' | 'view'>;
  communities: CommunityService;
}

/** The residents module: residents, their absences and resident spreadsheets. */
export const buildResidentsModule = (
  deps: ResidentDeps,
): Module<
  { residents: ResidentService; sheets: ResidentSheetService },
  ReturnType<typeof residentHandlers> & ReturnType<typeof residentSheetHandlers>
> => {
  const { db, transactions, clock, audit, facility, communities } = deps;
  const residents = new ResidentService(db, transactions, clock, audit, facility.occupancy);
  const sheets = new ResidentSheetService(db, transactions, residents, facility.occupancy, facility.view, communities);
  return {
    services: { residents, sheets },
    handlers: { ...residentHandlers(residents), ...residentSheetHandlers(sheets) },
    parts: [],
  };
};
