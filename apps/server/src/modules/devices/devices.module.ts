import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import type { Module } from '../../module.ts';
import type { DeviceMoves, LiveStateStore, MeasuredVitals } from '../gateway/index.ts';
import { CommandService } from './command.service.ts';
import { deviceSheetHandlers } from './device-sheet.routes.ts';
import { deviceHandlers } from './device.routes.ts';
import { DeviceSheetService } from './device-sheet.service.ts';
import { DeviceService } from './device.service.ts';
import { DeviceStates } from './device-state.service.ts';
import { GatewayService } from './gateway.service.ts';
import { StockService } from './stock.service.ts';
import { HttpTelecomPlatform } from './telecom/http-telecom.ts';
import { TelecomSyncService } from './telecom/telecom-sync.service.ts';

export interface DeviceDeps {
  db: Db;
  transactions: Transactions;
  clock: Clock;
  config: Config;
  audit: AuditService;
  providers: ProviderService;
  /** What the device gateway (built before this module) gives device records and their states. */
  gateway: {
    /** Where each move of a device, a bed's occupant or a resident is recorded, in its transaction. */
    moves: DeviceMoves;
    live: { store: LiveStateStore };
    vitals: MeasuredVitals;
  };
}

const buildCore = (deps: DeviceDeps, commands: CommandService, states: DeviceStates, moves: DeviceMoves) => {
  const { db, clock, config, audit, providers, transactions } = deps;
  const platform = config.telecom ? new HttpTelecomPlatform(config.telecom) : null;
  const telecom = new TelecomSyncService(db, clock, platform);
  const stock = new StockService(db, transactions, clock, audit);
  const devices = new DeviceService(db, transactions, moves, clock, audit, commands, telecom, providers, states);
  const gateways = new GatewayService(
    db,
    transactions,
    moves,
    clock,
    audit,
    devices,
    commands,
    providers,
    telecom,
    states,
  );
  return { stock, devices, gateways, commands, telecom, states, moves };
};
export type DeviceServices = ReturnType<typeof buildCore>;

/** The devices module's services, wired once (the composition root keeps one reference). */
export const buildDeviceServices = (deps: DeviceDeps) => {
  const { moves, vitals } = deps.gateway;
  const live = deps.gateway.live.store;
  const commands = new CommandService(
    deps.db,
    deps.transactions,
    deps.clock,
    deps.audit,
    (deviceId) => live.get(deviceId)?.online,
  );
  /** Every screen's device state (decision 0034): other modules read it here, never from the tables. */
  const states = new DeviceStates(deps.db, deps.clock, live, vitals);
  const core = buildCore(deps, commands, states, moves);
  return { ...core, sheets: new DeviceSheetService(deps.db, deps.transactions, core) };
};

/**
 * The devices module: device records and stock, sheets, commands, telecom, pairing and device
 * states. Its commands are delivered, and its devices' live state kept, by the gateway module.
 */
export const buildDevicesModule = (
  deps: DeviceDeps,
): Module<
  ReturnType<typeof buildDeviceServices>,
  ReturnType<typeof deviceHandlers> & ReturnType<typeof deviceSheetHandlers>
> => {
  const services = buildDeviceServices(deps);
  return {
    services,
    handlers: { ...deviceHandlers(services), ...deviceSheetHandlers(services.sheets) },
    parts: [],
  };
};
