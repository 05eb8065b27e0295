import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { EventStream } from '../../core/events.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import type { Log } from '../../core/log.ts';
import type { Module } from '../../module.ts';
import { buildDeviceGateway } from './gateway/device-gateway.ts';
import type { DeviceMoves } from './ingest/device-moves.ts';
import { CommandService } from './command.service.ts';
import { deviceSheetHandlers } from './device-sheet.routes.ts';
import { deviceHandlers } from './device.routes.ts';
import { DeviceSheetService } from './device-sheet.service.ts';
import { DeviceService } from './device.service.ts';
import { DeviceStates } from './device-state.service.ts';
import { GatewayService } from './gateway.service.ts';
import { LiveStateStore } from './live/live-state.ts';
import { LiveStateWriter } from './live/live-state.writer.ts';
import { MeasuredVitals } from './live/measured-vitals.ts';
import { RawRetention, rawRetentionPart } from './raw/raw-retention.ts';
import { rawDataHandlers } from './raw/raw.routes.ts';
import { RawDataService } from './raw/raw.service.ts';
import { StockService } from './stock.service.ts';
import { HttpTelecomPlatform } from './telecom/http-telecom.ts';
import { TelecomSyncService } from './telecom/telecom-sync.service.ts';

export interface DeviceDeps {
  db: Db;
  transactions: Transactions;
  /** The committed domain events (moves of devices reach the device directory through them). */
  events: EventStream;
  clock: Clock;
  config: Config;
  audit: AuditService;
  providers: ProviderService;
  log: Log;
}

const buildCore = (deps: DeviceDeps, commands: CommandService, states: DeviceStates, moves: DeviceMoves) => {
  const { db, clock, config, audit, providers, transactions } = deps;
  const platform = config.telecom ? new HttpTelecomPlatform(config.telecom) : null;
  const telecom = new TelecomSyncService(db, clock, platform);
  const stock = new StockService(db, clock, audit);
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
  const store = new LiveStateStore();
  const commands = new CommandService(
    deps.db,
    deps.transactions,
    deps.clock,
    deps.audit,
    (deviceId) => store.get(deviceId)?.online,
  );
  const live = { store, writer: new LiveStateWriter(deps.db, store, deps.clock) };
  const gateway = buildDeviceGateway({ ...deps, commands, live });
  /** Every screen's device state (decision 0034): other modules read it here, never from the tables. */
  const states = new DeviceStates(deps.db, deps.clock, store, new MeasuredVitals(gateway.feed));
  const core = buildCore(deps, commands, states, gateway.moves);
  return {
    ...core,
    sheets: new DeviceSheetService(deps.db, deps.transactions, core),
    /** What devices report every second, in memory, written in batches (started by the app's lifecycle). */
    live,
    /** The device gateway: broker, ingest, online/offline and command delivery (background parts). */
    gateway,
    /** Original (raw) data: the calls' service and the retention (a background part); the
     * sleep monitors' seconds are kept for the same period. */
    raw: {
      data: new RawDataService(deps.db, deps.audit),
      retention: new RawRetention(deps.db, deps.clock, deps.config.rawRetentionDays),
      secondsRetention: new RawRetention(deps.db, deps.clock, deps.config.rawRetentionDays, {
        table: 'device_second',
      }),
    },
  };
};

/**
 * The devices module: services, call handlers, and its background parts — the live state
 * writer first, the device gateway (its writers, then the broker) after it, so the broker
 * stops first and the writers flush last.
 */
export const buildDevicesModule = (
  deps: DeviceDeps,
): Module<
  ReturnType<typeof buildDeviceServices>,
  ReturnType<typeof deviceHandlers> & ReturnType<typeof deviceSheetHandlers> & ReturnType<typeof rawDataHandlers>
> => {
  const services = buildDeviceServices(deps);
  const { writer } = services.live;
  return {
    services,
    handlers: {
      ...deviceHandlers(services),
      ...deviceSheetHandlers(services.sheets),
      ...rawDataHandlers(services.raw.data),
    },
    parts: [
      {
        name: 'live device state',
        start: async (report) => {
          await writer.load();
          writer.start(report);
        },
        stop: () => writer.stop(),
      },
      ...services.gateway.parts,
      rawRetentionPart(services.raw.retention),
      rawRetentionPart(services.raw.secondsRetention),
    ],
  };
};
