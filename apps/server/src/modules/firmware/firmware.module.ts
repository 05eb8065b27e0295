import path from 'node:path';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { BackgroundPacer } from '../../core/background-pacer.ts';
import type { Module } from '../../module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CommandService } from '../devices/command.service.ts';
import type { DeviceFeed } from '../gateway/index.ts';
import type { SleepSettingService } from '../sleep-settings/sleep-setting.service.ts';
import { firmwareHandlers } from './firmware.routes.ts';
import { FirmwareService } from './firmware.service.ts';
import { PackageCache } from './package-cache.ts';
import { RolloutDriver } from './rollout-driver.ts';

export interface FirmwareDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  commands: CommandService;
  /** The process's one pacer of background database work (decision 0028). */
  pacer: BackgroundPacer;
  feed: DeviceFeed;
  /** Residents' sleep settings: a device is not upgraded in its resident's sleep hours while in bed. */
  sleepSettings: Pick<SleepSettingService, 'savedOfMany'>;
  dataDir: string;
  timeZone: string;
  firmware: { maxBytes: number; linkMs: number; timeoutMs: number; everyMs: number };
}

/**
 * Firmware over the air (docs/firmware.md): packages and their release (the calls), the rollout
 * driver (a background part) and the copy of the packages devices download from.
 */
export const buildFirmwareModule = (
  deps: FirmwareDeps,
): Module<
  { firmware: FirmwareService; rollouts: RolloutDriver; cache: PackageCache },
  ReturnType<typeof firmwareHandlers>
> => {
  const { pacer } = deps;
  const firmware = new FirmwareService(deps.db, deps.clock, deps.audit, deps.firmware.maxBytes);
  const rollouts = new RolloutDriver(deps.db, deps.clock, firmware.repo, deps.commands, deps.feed, deps.sleepSettings, {
    everyMs: deps.firmware.everyMs,
    timeoutMs: deps.firmware.timeoutMs,
    linkMs: deps.firmware.linkMs,
    timeZone: deps.timeZone,
    pacer,
  });
  firmware.onChanged = () => rollouts.poke();
  const cache = new PackageCache(deps.db, firmware.store, path.join(deps.dataDir, 'firmware'), pacer);
  return { services: { firmware, rollouts, cache }, handlers: firmwareHandlers(firmware), parts: [rollouts] };
};
