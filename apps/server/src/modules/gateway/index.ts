/**
 * The device gateway's front door: all that other modules, the app and main may use of it
 * (an ESLint rule keeps them out of the rest; tests also have `testing.ts`). Where a module only
 * reads a part of the gateway, the type here is the narrow view it reads, not the class behind it.
 */
import type { DeviceDirectory as Directory } from './ingest/device-directory.ts';
import type { DeviceFeed as Feed } from './ingest/device-feed.ts';
import type { DeviceMoves } from './ingest/device-moves.ts';
import type { EventsStoredHook } from './device-gateway.ts';
import type { LiveStateStore as Store } from './live/live-state.ts';
import type { MeasuredVitals as Vitals } from './live/measured-vitals.ts';

// The module, for the app's composition root; its HTTP ways in outside the call contract.
export { buildGatewayModule, type GatewayModuleDeps, type GatewayServices } from './gateway.module.ts';
export { registerGatewayRoutes } from './gateway.routes.ts';
export { serverLoginOf } from './broker/external-broker.ts';
/** What the gateway needs of the device commands the devices module keeps. */
export type { CommandDelivery, QueuedCommand } from './broker/command-dispatcher.ts';

/** Where a device serves now (provider, bed, resident), as each of its messages is stamped. */
export type { DeviceContext } from './ingest/device-directory.ts';
/** Every known device's context, kept current on every move. */
export type DeviceDirectory = Pick<Directory, 'get' | 'lookup' | 'all' | 'version' | 'onChange'>;
/** What devices send, as it is taken in: vitals, status, stored events. */
export type DeviceFeed = Pick<Feed, 'subscribe' | 'latestVitals'>;
export type { FeedItem, StoredDeviceEvent } from './ingest/device-feed.ts';
/** The record of a move of devices, a bed's occupant or a resident, in the moving transaction. */
export type { DeviceMoves, DeviceMovedHook } from './ingest/device-moves.ts';
/** Work done in the transaction that stores a batch of device events (the alarms'). */
export type { EventsStoredHook, EventsStoredWork } from './device-gateway.ts';

/** The gateway as the modules built after it use it. */
export interface DeviceGateway {
  feed: DeviceFeed;
  directory: DeviceDirectory;
  moves: DeviceMoves;
  /** Adds work to the transaction that stores each batch of device events (before start). */
  onEventsStored(hook: EventsStoredHook): void;
}

/** What each device reported last and whether it is online, in memory. */
export type LiveStateStore = Pick<Store, 'get' | 'onOnlineChange'>;
export type { LiveState } from './live/live-state.ts';
/** When each sleep monitor last measured someone. */
export type MeasuredVitals = Pick<Vitals, 'since'>;

/** A sleep monitor's seconds of a minute, as stored (`device_second`). */
export { emptySeconds, readSecond, writeSecond, type SecondReading } from './ingest/seconds-of-minute.ts';
/** Device secrets: made and hashed when devices come into stock, checked when they connect. */
export { generateDeviceSecret, hashDeviceSecret, verifyDeviceSecret } from './credentials/secret.ts';
/** The demo care home main starts with DEMO=1. */
export { startDemo, type RunningDemo } from './demo/demo-care-home.ts';
