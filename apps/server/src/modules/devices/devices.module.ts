import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import type { Module } from '../../module.ts';
import { CommandService } from './command.service.ts';
import { deviceSheetHandlers } from './device-sheet.routes.ts';
import { deviceHandlers } from './device.routes.ts';
import { DeviceSheetService } from './device-sheet.service.ts';
import { DeviceService } from './device.service.ts';
import { GatewayService } from './gateway.service.ts';
import { LiveStateStore } from './live/live-state.ts';
import { LiveStateWriter } from './live/live-state.writer.ts';
import { StockService } from './stock.service.ts';
import { HttpTelecomPlatform } from './telecom/http-telecom.ts';
import { TelecomSyncService } from './telecom/telecom-sync.service.ts';

export interface DeviceDeps {
  db: Db;
  clock: Clock;
  config: Config;
  audit: AuditService;
  providers: ProviderService;
}

const buildCore = (deps: DeviceDeps) => {
  const { db, clock, config, audit, providers } = deps;
  const platform = config.telecom ? new HttpTelecomPlatform(config.telecom) : null;
  const telecom = new TelecomSyncService(db, clock, platform);
  const commands = new CommandService(db, clock, audit);
  const stock = new StockService(db, clock, audit);
  const devices = new DeviceService(db, clock, audit, commands, telecom, providers);
  const gateways = new GatewayService(db, clock, audit, devices, commands, providers, telecom);
  return { stock, devices, gateways, commands, telecom };
};
export type DeviceServices = ReturnType<typeof buildCore>;

/** The devices module's services, wired once (the composition root keeps one reference). */
export const buildDeviceServices = (deps: DeviceDeps) => {
  const core = buildCore(deps);
  const store = new LiveStateStore();
  return {
    ...core,
    sheets: new DeviceSheetService(deps.db, core),
    /** What devices report every second, in memory, written in batches (started by the app's lifecycle). */
    live: { store, writer: new LiveStateWriter(deps.db, store, deps.clock) },
  };
};

/** The devices module: services, call handlers and the live state writer as a background part. */
export const buildDevicesModule = (
  deps: DeviceDeps,
): Module<
  ReturnType<typeof buildDeviceServices>,
  ReturnType<typeof deviceHandlers> & ReturnType<typeof deviceSheetHandlers>
> => {
  const services = buildDeviceServices(deps);
  const { writer } = services.live;
  return {
    services,
    handlers: { ...deviceHandlers(services), ...deviceSheetHandlers(services.sheets) },
    parts: [
      {
        name: 'live device state',
        start: async (report) => {
          await writer.load();
          writer.start(report);
        },
        stop: () => writer.stop(),
      },
    ],
  };
};
