import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import type { Module } from '../../module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { DeviceStateReader } from '../devices/device-state.service.ts';
import type { DeviceMoves } from '../gateway/index.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import { bedSheetHandlers } from './bed-sheet.routes.ts';
import { buildFacility, type Facility } from './facility.ts';
import { facilityHandlers } from './facility.routes.ts';

export interface FacilityDeps {
  db: Db;
  transactions: Transactions;
  clock: Clock;
  audit: AuditService;
  providers: ProviderService;
  /** The devices module's front door to device state: beds show their device as the device list does. */
  deviceStates: DeviceStateReader;
  /** The devices module's announcement of moves: a bed's device or resident changing is one. */
  deviceMoves: DeviceMoves;
}

/** The facility module: places, their views, bed occupancy (other modules call it) and bed spreadsheets. */
export const buildFacilityModule = (
  deps: FacilityDeps,
): Module<Facility, ReturnType<typeof facilityHandlers> & ReturnType<typeof bedSheetHandlers>> => {
  const services = buildFacility(
    deps.db,
    deps.transactions,
    deps.clock,
    deps.audit,
    deps.providers,
    deps.deviceStates,
    deps.deviceMoves,
  );
  return {
    services,
    handlers: {
      ...facilityHandlers(services.places, services.view, services.occupancy),
      ...bedSheetHandlers(services.sheets),
    },
    parts: [],
  };
};
