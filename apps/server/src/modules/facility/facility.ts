import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { DeviceStateReader } from '../devices/device-state.service.ts';
import type { DeviceMoves } from '../gateway/index.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import { BedSheetService } from './bed-sheet.service.ts';
import { FacilityViewService } from './facility-view.service.ts';
import { OccupancyService } from './occupancy.service.ts';
import { PlaceService } from './place.service.ts';

/**
 * The facility module's services: `places` (areas, floors, rooms, beds), `view` (lists, tree,
 * summary), `occupancy` (bed links and the resident lifecycle; other modules call it) and
 * `sheets` (bed spreadsheets).
 */
export const buildFacility = (
  db: Db,
  transactions: Transactions,
  clock: Clock,
  audit: AuditService,
  providers: ProviderService,
  devices: DeviceStateReader,
  moves: DeviceMoves,
) => {
  const occupancy = new OccupancyService(db, transactions, moves, clock, audit);
  const view = new FacilityViewService(db, devices);
  const places = new PlaceService(db, transactions, clock, audit, occupancy, view, (ids, tx) =>
    providers.existing(ids, tx),
  );
  const sheets = new BedSheetService(db, transactions, places, occupancy, view);
  return { places, view, occupancy, sheets };
};
export type Facility = ReturnType<typeof buildFacility>;
