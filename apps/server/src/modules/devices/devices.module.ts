import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import { CommandService } from './command.service.ts';
import { DeviceService } from './device.service.ts';
import { GatewayService } from './gateway.service.ts';
import { StockService } from './stock.service.ts';
import { HttpTelecomPlatform } from './telecom/http-telecom.ts';
import { TelecomSyncService } from './telecom/telecom-sync.service.ts';

/** The devices module's services, wired once (the composition root keeps one reference). */
export const buildDeviceServices = (deps: {
  db: Db;
  clock: Clock;
  config: Config;
  audit: AuditService;
  providers: ProviderService;
}) => {
  const { db, clock, config, audit, providers } = deps;
  const platform = config.telecom ? new HttpTelecomPlatform(config.telecom) : null;
  const telecom = new TelecomSyncService(db, clock, platform);
  const commands = new CommandService(db, clock, audit);
  const stock = new StockService(db, clock, audit);
  const devices = new DeviceService(db, clock, audit, commands, telecom, providers);
  const gateways = new GatewayService(db, clock, audit, devices, commands, providers, telecom);
  return { stock, devices, gateways, commands, telecom };
};
export type DeviceServices = ReturnType<typeof buildDeviceServices>;
