import { eq, sql } from 'drizzle-orm';
import { deviceLiveState as live, devices } from '../../db/schema.ts';

/*
 * What a device last reported, written by the device gateway (device_live_state); the device
 * row's own columns only for a device that never spoke to this gateway. Shared SQL of the device
 * lists: the devices module's and the firmware module's read the same way.
 */
export const liveOnline = sql<boolean>`coalesce(${live.online}, ${devices.online})`;
export const liveFirmwareVersion = sql<string | null>`coalesce(${live.firmwareVersion}, ${devices.firmwareVersion})`;
/** Joins a device row to what the gateway last wrote of it. */
export const withLiveState = eq(live.deviceId, devices.deviceId);
