import { z } from 'zod';
import { defineCall, type UploadedFile } from '../call.ts';
import { deviceIdSchema, deviceTypeSchema } from './devices.ts';
import { intId, nothing, pageOf, pageQuery, remark } from './common.ts';
import {
  FIRMWARE_STATES,
  FIRMWARE_VERSION_MAX,
  FIRMWARE_VERSION_PATTERN,
  ROLLOUT_STATES,
  UPGRADE_REASONS,
  UPGRADE_STATES,
} from '../firmware-constants.ts';

/**
 * Firmware over the air (issue 12, docs/firmware.md): packages uploaded by platform
 * administrators, released to a whitelist of devices (grey) and then to every device of the
 * type in the caller's scope (full, in stages), and taken offline. Devices download from
 * `/hardSoft/download` with the address their `ota` command carries (docs/device-protocol.md).
 */

/** The console route /deviceManage/hardSoftUpload is for super and senior administrators only. */
const ADMINS = ['SUPER_ROLE', 'SENIOR_ROLE'] as const;

export const firmwareVersionSchema = z
  .string()
  .trim()
  .max(FIRMWARE_VERSION_MAX, { error: 'firmware.versionFormat' })
  .regex(FIRMWARE_VERSION_PATTERN, { error: 'firmware.versionFormat' })
  .describe('Dotted numbers such as 2.4.10 (an optional leading v), at most 20 characters');

const time = z.string().describe('ISO 8601');

const md5Schema = z
  .string()
  .trim()
  .regex(/^[0-9a-fA-F]{32}$/, { error: 'firmware.md5Format' })
  .transform((s) => s.toLowerCase())
  .describe('MD5 of the zip as 32 hexadecimal digits');

export const UpgradeCountsSchema = z.object({
  total: z.number().int(),
  /** Not yet sent: waiting for its stage, for the device to come online. */
  pending: z.number().int(),
  /** Held back: the device's bed is occupied in its sleep window. */
  deferred: z.number().int(),
  /** Sent, downloading or installing. */
  inProgress: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
});
export type UpgradeCounts = z.infer<typeof UpgradeCountsSchema>;

export const RolloutSchema = z.object({
  kind: z.enum(['grey', 'full']),
  stages: z.array(z.number().int()).describe('Cumulative shares of the devices, in per cent'),
  stage: z.number().int().describe('The open stage (0-based)'),
  failureThreshold: z.number().int().describe('Failed upgrades, per cent of a stage’s devices, that pause the rollout'),
  state: z.enum(ROLLOUT_STATES),
  pausedReason: z.enum(['admin', 'failures']).nullable(),
  forceOccupied: z.boolean(),
  startTime: time,
  counts: UpgradeCountsSchema,
  stageCounts: z.array(UpgradeCountsSchema.extend({ stage: z.number().int(), percent: z.number().int() })),
});
export type Rollout = z.infer<typeof RolloutSchema>;

export const FirmwareSchema = z.object({
  id: z.number().int(),
  deviceType: z.number().int(),
  version: z.string(),
  fileName: z.string(),
  size: z.number().int().describe('Bytes'),
  md5: z.string(),
  sha256: z.string(),
  remark: z.string().nullable(),
  state: z.enum(FIRMWARE_STATES),
  uploadTime: time,
  uploadedBy: z.string().nullable(),
  releaseTime: time.nullable(),
  offlineTime: time.nullable(),
  greyCount: z.number().int().describe('Devices on the whitelist the caller sees'),
  rollout: RolloutSchema.nullable(),
});
export type Firmware = z.infer<typeof FirmwareSchema>;

export const UpgradeRowSchema = z.object({
  deviceId: z.string(),
  deviceType: z.number().int(),
  name: z.string().nullable(),
  providerName: z.string(),
  online: z.boolean(),
  firmwareVersion: z.string().nullable().describe('What the device reports now'),
  fromVersion: z.string().nullable(),
  stage: z.number().int(),
  state: z.enum(UPGRADE_STATES),
  progress: z.number().int().describe('Per cent of the download'),
  reason: z.enum(UPGRADE_REASONS).nullable().describe('Why it failed or was cancelled'),
  error: z
    .string()
    .nullable()
    .describe('What the device said (refused, failedOnDevice); for the server’s own reasons, the reason in English'),
  updateTime: time,
});
export type UpgradeRow = z.infer<typeof UpgradeRowSchema>;

export const GreyDeviceSchema = z.object({
  deviceId: z.string(),
  deviceType: z.number().int(),
  name: z.string().nullable(),
  providerName: z.string(),
  online: z.boolean(),
  firmwareVersion: z.string().nullable(),
  upgradeState: z.enum(UPGRADE_STATES).nullable().describe('Its upgrade to this package, once released'),
  progress: z.number().int().nullable(),
});
export type GreyDevice = z.infer<typeof GreyDeviceSchema>;

const stagesSchema = z
  .array(z.coerce.number<number>().int().min(1).max(100))
  .min(1)
  .max(10)
  .refine((s) => s.every((p, i) => i === 0 || p > (s[i - 1] ?? 0)) && s.at(-1) === 100, {
    error: 'firmware.stages',
  })
  .describe('Cumulative shares in per cent, rising, ending at 100; default 5, 25, 100');

export const firmwareCalls = {
  firmwarePageList: defineCall({
    method: 'POST',
    path: '/firmware/pageList/get',
    auth: ADMINS,
    input: 'json',
    request: z.object({
      ...pageQuery,
      deviceType: deviceTypeSchema.optional(),
      state: z.enum(FIRMWARE_STATES).optional(),
      keyword: z.string().trim().max(64).optional().describe('Part of the version, file name or remark'),
    }),
    result: pageOf(FirmwareSchema),
    summary: 'Firmware packages, newest upload first, each with its release and the upgrades’ counts',
    tag: 'firmware',
  }),
  firmwareUpload: defineCall({
    method: 'POST',
    path: '/firmware/uploadFile',
    auth: ADMINS,
    input: 'multipart',
    // The configured limit (FIRMWARE_MAX_BYTES) replaces this ceiling when the server registers the call.
    maxUploadBytes: 64 * 1024 * 1024,
    request: z.object({
      file: z.custom<UploadedFile>().optional(),
      deviceType: deviceTypeSchema,
      version: firmwareVersionSchema,
      md5: md5Schema,
      remark: remark.optional(),
    }),
    result: FirmwareSchema,
    summary:
      'Upload a firmware package (a zip) with its device type, version, MD5 and remark. Refused: not a zip, MD5 ' +
      'mismatch, a version already uploaded or not higher than the newest released for the type, over the size ' +
      'limit (FIRMWARE_MAX_BYTES). Saved unpublished',
    tag: 'firmware',
  }),
  greyDevicePost: defineCall({
    method: 'POST',
    path: '/firmware/grayDevice/post',
    auth: ADMINS,
    input: 'json',
    request: z.object({
      id: intId,
      deviceIds: z.array(deviceIdSchema).min(1, { error: 'firmware.greyEmpty' }).max(1000),
    }),
    result: z.object({ added: z.number().int() }),
    summary: 'Add devices of the package’s type, in the caller’s scope, to its whitelist',
    tag: 'firmware',
  }),
  firmwarePost: defineCall({
    method: 'POST',
    path: '/firmware/post',
    auth: ADMINS,
    input: 'json',
    request: z.object({
      id: intId,
      release: z.enum(['grey', 'full']).describe('grey: the whitelist only; full: every device of the type in scope'),
      stages: stagesSchema.optional(),
      failureThreshold: z.coerce.number<number>().int().min(1).max(100).optional(),
      forceOccupied: z
        .boolean()
        .optional()
        .describe('Upgrade devices whose bed is occupied in its sleep window now, instead of deferring them'),
    }),
    result: FirmwareSchema,
    summary:
      'Release a package: grey to its whitelist (non-empty), or full in stages that pause by themselves when a ' +
      'stage’s failures pass the threshold',
    tag: 'firmware',
  }),
  firmwareUpdate: defineCall({
    method: 'GET',
    path: '/firmware/update',
    auth: ADMINS,
    input: 'query',
    request: z.object({
      id: intId,
      action: z
        .enum(['pause', 'resume', 'stop', 'offline'])
        .describe('pause / resume / stop the rollout; offline: take the package offline (stops its rollout)'),
    }),
    result: FirmwareSchema,
    summary: 'Pause, resume or stop a package’s rollout at once, or take the package offline',
    tag: 'firmware',
  }),
  greyDeviceDelete: defineCall({
    method: 'GET',
    path: '/firmware/grayDevice/delete',
    auth: ADMINS,
    input: 'query',
    request: z.object({ id: intId, deviceId: deviceIdSchema }),
    result: nothing,
    summary: 'Remove a device from a package’s whitelist',
    tag: 'firmware',
  }),
  greyDeviceList: defineCall({
    method: 'GET',
    path: '/firmware/grayDeviceList/get',
    auth: ADMINS,
    input: 'query',
    request: z.object({ id: intId, ...pageQuery }),
    result: pageOf(GreyDeviceSchema),
    summary: 'A package’s whitelist (the devices the caller sees), each with its upgrade state',
    tag: 'firmware',
  }),
  firmwareUpgradeList: defineCall({
    method: 'POST',
    path: '/firmware/upgradeList',
    auth: ADMINS,
    input: 'json',
    request: z.object({
      id: intId,
      ...pageQuery,
      state: z.enum(UPGRADE_STATES).optional(),
      stage: z.coerce.number<number>().int().min(0).max(9).optional(),
    }),
    result: pageOf(UpgradeRowSchema),
    summary: 'The devices of a package’s release (those the caller sees), each with its stage, state and progress',
    tag: 'firmware',
  }),
  firmwareDelete: defineCall({
    method: 'GET',
    path: '/firmware/delete',
    auth: ADMINS,
    input: 'query',
    request: z.object({ id: intId }),
    result: nothing,
    summary: 'Delete an unpublished package',
    tag: 'firmware',
  }),
};
