import {
  DEVICE_TYPES,
  type Firmware,
  type FirmwareState,
  type Rollout,
  type UpgradeCounts,
  type UpgradeState,
} from '@vigil/contract/browser';
import type { TFunction } from 'i18next';

export {
  DEFAULT_FAILURE_THRESHOLD,
  DEFAULT_ROLLOUT_STAGES,
  FIRMWARE_STATES,
  FIRMWARE_VERSION_MAX,
  FIRMWARE_VERSION_PATTERN,
  UPGRADE_STATES,
} from '@vigil/contract/browser';
export type { Firmware, FirmwareState, GreyDevice, Rollout, UpgradeRow, UpgradeState } from '@vigil/contract/browser';

/** The MD5 the upload carries: 32 hexadecimal digits (the server compares it with the file's). */
export const MD5_PATTERN = /^[0-9a-fA-F]{32}$/;
/** At most this many stages in a full release (the contract's limit). */
export const MAX_STAGES = 10;
/** An open progress drawer asks for the rollout's figures this often while it runs. */
export const PROGRESS_POLL_MS = 5_000;
/** The list refreshes this often while a rollout on its page runs. */
export const LIST_REFRESH_MS = 15_000;

/** "M8701W · Sleep monitor", or the bare code for a type the catalogue does not know. */
export const deviceTypeLabel = (t: TFunction, code: number): string => {
  const type = DEVICE_TYPES.find((d) => d.code === code);
  return type ? `${type.model} · ${t(`kind.${type.kind}`)}` : String(code);
};

/** Every device type of the catalogue as select options. */
export const deviceTypeOptions = (t: TFunction) =>
  DEVICE_TYPES.map((type) => ({ value: type.code, label: deviceTypeLabel(t, type.code) }));

/** "12.4 MB" in the interface language's number format. */
export const formatSize = (t: TFunction, bytes: number, language: string): string => {
  const units = ['size.b', 'size.kb', 'size.mb', 'size.gb'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = new Intl.NumberFormat(language, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
  return t(units[unit] ?? 'size.b', { value: text });
};

/** The first and last digits of an MD5, for a narrow column (the whole one is copied). */
export const shortMd5 = (md5: string): string => (md5.length > 14 ? `${md5.slice(0, 8)}…${md5.slice(-4)}` : md5);

/**
 * Full-release stages typed as a comma list ("5, 25, 100"): the numbers, or null when they are
 * not what the server takes (whole per cents from 1 to 100, rising, ending at 100, at most ten).
 */
export const parseStages = (text: string): number[] | null => {
  const parts = text
    .split(/[,，、;；\s]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length || parts.length > MAX_STAGES || parts.some((p) => !/^\d{1,3}$/.test(p))) return null;
  const stages = parts.map(Number);
  const rising = stages.every((p, i) => p >= 1 && p <= 100 && (i === 0 || p > (stages[i - 1] ?? 0)));
  return rising && stages.at(-1) === 100 ? stages : null;
};

/** A rollout that still sends upgrades or may again: pause, resume and stop apply to it. */
export const isLive = (rollout: Rollout | null): boolean => rollout?.state === 'running' || rollout?.state === 'paused';

/** A rollout whose figures are still moving: the progress drawer polls it. */
export const isMoving = (rollout: Rollout | null): boolean =>
  rollout !== null && (rollout.state === 'running' || rollout.counts.inProgress > 0);

/** What can be done with a package in its state (the server refuses the rest). */
export const actionsFor = (pkg: Firmware) => ({
  /** The whitelist changes only before the full release, and never once offline. */
  editWhitelist: pkg.state === 'unpublished' || pkg.state === 'grey',
  grey: pkg.state === 'unpublished',
  full: pkg.state === 'unpublished' || pkg.state === 'grey',
  pause: pkg.rollout?.state === 'running',
  resume: pkg.rollout?.state === 'paused',
  stop: isLive(pkg.rollout),
  offline: pkg.state === 'grey' || pkg.state === 'full',
  remove: pkg.state === 'unpublished',
  progress: pkg.rollout !== null,
});

export const STATE_COLORS: Record<FirmwareState, string> = {
  unpublished: 'blue',
  grey: 'gold',
  full: 'green',
  offline: 'default',
};

export const UPGRADE_COLORS: Record<UpgradeState, string> = {
  pending: 'default',
  deferred: 'orange',
  sent: 'processing',
  downloading: 'processing',
  installing: 'processing',
  succeeded: 'success',
  failed: 'error',
  cancelled: 'default',
};

/** An upgrade the device is working on: its download progress means something. */
export const isUnderWay = (state: UpgradeState): boolean =>
  state === 'sent' || state === 'downloading' || state === 'installing';

/** Shares of a rollout's devices by what happened to them, in per cent of the total (for the bar). */
export const shares = (counts: UpgradeCounts) => {
  const of = (n: number) => (counts.total > 0 ? (n * 100) / counts.total : 0);
  return {
    succeeded: of(counts.succeeded),
    failed: of(counts.failed),
    inProgress: of(counts.inProgress),
    deferred: of(counts.deferred),
  };
};
