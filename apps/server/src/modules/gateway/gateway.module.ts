import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { EventStream } from '../../core/events.ts';
import type { Log } from '../../core/log.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import type { Module } from '../../module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CommandDelivery } from './broker/command-dispatcher.ts';
import { EmbeddedBroker } from './broker/embedded-broker.ts';
import { buildDeviceGateway } from './device-gateway.ts';
import { LiveStateStore } from './live/live-state.ts';
import { LiveStateWriter } from './live/live-state.writer.ts';
import { MeasuredVitals } from './live/measured-vitals.ts';
import { RawRetention, rawRetentionPart } from './raw/raw-retention.ts';
import { rawDataHandlers } from './raw/raw.routes.ts';
import { RawDataService } from './raw/raw.service.ts';

export interface GatewayModuleDeps {
  db: Db;
  transactions: Transactions;
  /** The committed domain events (moves of devices reach the device directory through them). */
  events: EventStream;
  clock: Clock;
  config: Config;
  audit: AuditService;
  log: Log;
  /**
   * The device commands the gateway delivers, kept by the devices module. That module is built
   * after the gateway (its commands and device states read the gateway's live state), so they
   * are resolved when first used: at the start of command delivery, or a device's answer.
   */
  commands: () => CommandDelivery;
}

/**
 * The device gateway module: the broker, ingest, live state, raw data, device credentials and the
 * demo's devices. Its background parts start with the live state writer, then the gateway's (its
 * writers, then the broker), so the broker stops first and the writers flush last.
 */
export const buildGatewayModule = (deps: GatewayModuleDeps) => {
  const store = new LiveStateStore();
  /** What devices report every second, in memory, written in batches (a background part). */
  const live = { store, writer: new LiveStateWriter(deps.db, store, deps.clock) };
  const { parts, ...gateway } = buildDeviceGateway({ ...deps, live });
  const services = {
    /** The device gateway: broker, ingest, directory, online/offline, command delivery. */
    ...gateway,
    live,
    /** When each sleep monitor last measured someone (the devices module's device states read it). */
    vitals: new MeasuredVitals(gateway.feed),
    /** The port devices connect to on the embedded broker once it listens; undefined with MQTT_URL. */
    embeddedPort: (): number | undefined =>
      gateway.broker instanceof EmbeddedBroker ? gateway.broker.port : undefined,
    /** Original (raw) data: the calls' service and the retentions; the sleep monitors' seconds are kept as long. */
    raw: {
      data: new RawDataService(deps.db, deps.audit),
      retention: new RawRetention(deps.db, deps.clock, deps.config.rawRetentionDays),
      secondsRetention: new RawRetention(deps.db, deps.clock, deps.config.rawRetentionDays, {
        table: 'device_second',
      }),
    },
  };
  const module: Module<typeof services, ReturnType<typeof rawDataHandlers>> = {
    services,
    handlers: rawDataHandlers(services.raw.data),
    parts: [
      {
        name: 'live device state',
        start: async (report) => {
          await live.writer.load();
          live.writer.start(report);
        },
        stop: () => live.writer.stop(),
      },
      ...parts,
      rawRetentionPart(services.raw.retention),
      rawRetentionPart(services.raw.secondsRetention),
    ],
  };
  return module;
};
export type GatewayServices = ReturnType<typeof buildGatewayModule>['services'];
