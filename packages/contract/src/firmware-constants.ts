/** Firmware over the air: the constants the console shares with the server (docs/firmware.md). */

/**
 * Dotted version numbers, an optional leading v, at most 20 characters (spec: "version name at
 * most 20 of digits and dots"). Compared number by number: 1.10 is newer than 1.9.
 */
export const FIRMWARE_VERSION_PATTERN = /^[vV]?\d{1,9}(\.\d{1,9}){0,7}$/;
export const FIRMWARE_VERSION_MAX = 20;

export const FIRMWARE_STATES = ['unpublished', 'grey', 'full', 'offline'] as const;
export type FirmwareState = (typeof FIRMWARE_STATES)[number];

export const ROLLOUT_STATES = ['running', 'paused', 'stopped', 'done'] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];

/** A device's upgrade to one package, as the device reports it (docs/firmware.md). */
export const UPGRADE_STATES = [
  'pending',
  'deferred',
  'sent',
  'downloading',
  'installing',
  'succeeded',
  'failed',
  'cancelled',
] as const;
export type UpgradeState = (typeof UPGRADE_STATES)[number];

/**
 * Why an upgrade failed or was cancelled: timeout (the device went silent), refused (it answered
 * the command with a refusal), failedOnDevice (it reported the failure), otherVersion (it came
 * back on another version after installing), stopped (the rollout was stopped), offline (the
 * package was taken offline), superseded (a newer release), removed (taken off the whitelist).
 */
export const UPGRADE_REASONS = [
  'timeout',
  'refused',
  'failedOnDevice',
  'otherVersion',
  'stopped',
  'offline',
  'superseded',
  'removed',
] as const;
export type UpgradeReason = (typeof UPGRADE_REASONS)[number];

/** Default stages of a full release: cumulative shares of the devices, in per cent. */
export const DEFAULT_ROLLOUT_STAGES = [5, 25, 100] as const;
/** Default failure share (per cent of a stage's devices) that pauses a rollout. */
export const DEFAULT_FAILURE_THRESHOLD = 20;
