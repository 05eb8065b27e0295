import { z } from 'zod';
import {
  DEVICE_ALG_MODE_MAX,
  DEVICE_ID_MAX,
  DEVICE_ID_PATTERN,
  DEVICE_COMM_MODES,
  DEVICE_COMMAND_STATES,
  DEVICE_COMMANDS,
  DEVICE_GROUP_NAMES,
  DEVICE_INSTALL_STATES,
  DEVICE_PAIR_STATES,
  DEVICE_SENSOR_STATES,
  DEVICE_NAME_MAX,
  DEVICE_SECRET_MAX,
  DEVICE_SECRET_MIN,
  DEVICE_SECRET_PATTERN,
  DEVICE_STOCK_IMPORT_MAX,
  SIGNAL_UNITS,
} from '../domain.ts';
import { defineCall, type CallDef } from '../call.ts';
import { CONSTANTS } from '../constants.ts';
import { PAIRING_COMMANDS } from '../device-protocol.ts';
import { DEVICE_KINDS, DEVICE_TYPES } from '../device-types.ts';
import { UPGRADE_STATES } from '../firmware-constants.ts';
import { flag, intId, nothing, pageOf, pageQuery, remark } from './common.ts';

/**
 * Calls of the devices domain (issue 4): the device registry (stock) loaded by platform
 * administrators, the devices providers add from it, commands queued for devices, operator
 * (telecom) platform sync and gateway hosts with their sub-devices (`/he/…`).
 *
 * Devices are named by their plaintext device ID (`deviceId`, stored upper-case) everywhere.
 */

/** Provider accounts and device administrators change devices; government viewers never do. */
const EDITORS = ['SUPER_ROLE', 'SENIOR_ROLE', 'ONE_ROLE', 'TWO_ROLE', 'SUB_ROLE'] as const;
/** Installers (app) also add, pair, initialise and restart devices on site. */
const INSTALLERS = [...EDITORS, 'MAINTAIN'] as const;
/** Device lists: editors and installers. */
const READERS = INSTALLERS;
/** The registry, raw-data upload and moving gateways between providers: platform device administrators. */
const ADMINS = ['SUPER_ROLE', 'SENIOR_ROLE'] as const;

const TYPE_CODES = DEVICE_TYPES.map((t) => t.code);
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

/** Digits, letters and '-' only (spec: "id format wrong"); normalised to upper case. */
export const deviceIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(DEVICE_ID_MAX)
  .regex(DEVICE_ID_PATTERN, { error: 'device.idFormat' })
  .transform((s) => s.toUpperCase())
  .describe('Device ID: digits, letters and -, at most 64; case-insensitive (stored upper-case)');
/** A type code of the device-type catalogue. */
export const deviceTypeSchema = z.coerce
  .number<number>()
  .int()
  .min(Math.min(...TYPE_CODES))
  .max(Math.max(...TYPE_CODES))
  .refine((code) => TYPE_CODES.includes(code), { error: 'device.typeUnknown' })
  .describe('Type code of the device-type catalogue (GET /device/deviceTypes)');
const deviceName = z
  .string()
  .trim()
  .max(DEVICE_NAME_MAX)
  .regex(NO_CONTROL, { error: 'validation.format' })
  .describe(`Display name, at most ${DEVICE_NAME_MAX} characters; empty clears it`);
const commMode = z.enum(DEVICE_COMM_MODES);
/** A required true/false (form or JSON): a missing value reads "… is required", not "… is invalid". */
const requiredFlag = z.union(
  [z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')],
  {
    error: (issue) => (issue.input === undefined || issue.input === '' ? 'validation.required' : 'validation.invalid'),
  },
);
const providerFilter = intId
  .optional()
  .describe('Only this provider (must be visible); default: the chosen provider, else the whole scope');

const digits = (n: string) => new RegExp(`^[0-9]{${n}}$`);
/**
 * What a device connects with: its MQTT password (client ID and user name are its device ID).
 * Taken exactly as sent (not trimmed: a space is never part of one); stored only as a hash.
 */
export const deviceSecretSchema = z
  .string()
  .regex(DEVICE_SECRET_PATTERN, { error: 'device.secretFormat' })
  .describe(
    `Device secret (MQTT password): ${DEVICE_SECRET_MIN} to ${DEVICE_SECRET_MAX} visible ASCII characters, ` +
      'no spaces; stored only as a hash, never answered back',
  );
/** One registry entry as an administrator loads it. */
export const DeviceStockRowInputSchema = z.object({
  deviceId: deviceIdSchema,
  cipherId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9+/=_-]{1,128}$/, { error: 'validation.format' })
    .optional()
    .describe('Ciphertext device ID printed on the label (letters, digits, + / = _ -; at most 128)'),
  deviceType: deviceTypeSchema,
  imei: z.string().trim().regex(digits('15'), { error: 'device.imeiFormat' }).optional(),
  imei4g: z.string().trim().regex(digits('15'), { error: 'device.imeiFormat' }).optional(),
  iccid: z
    .string()
    .trim()
    .regex(/^[0-9]{18,20}[0-9A-Fa-f]?$/, { error: 'device.iccidFormat' })
    .optional(),
  model: z.string().trim().max(32).optional().describe("Must be the type's model when given"),
  batch: z.string().trim().max(64).regex(NO_CONTROL, { error: 'validation.format' }).optional(),
  firmwareType: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._-]{1,32}$/, { error: 'validation.format' })
    .optional(),
  secret: deviceSecretSchema.optional(),
});
export type DeviceStockRowInput = z.input<typeof DeviceStockRowInputSchema>;

const PLACE_RULES =
  'A device has at most one place (decision 0046): a room (roomId, with bunkId a bed of it), a bed (bunkId), ' +
  'a floor or area (areaId), or for a badge the resident who wears it (userId) and for a nurse watch the ' +
  'caregiver (caregiverId). Sleep monitors and fall radars are placed by their bed link (updateBunk) and take ' +
  'none. Each must be of the device\u2019s provider. Refused: device.placeNotFound, device.placeOtherProvider, ' +
  'device.placeOneOnly, device.placeBedNotInRoom, device.placedByBed, device.placeWorn, device.placeNotWorn';

/** A device's place as a call sets it (decision 0046); null clears on an edit. */
export const devicePlaceFields = {
  roomId: intId.describe('The room the device is in (call button, door sensor, smoke sensor, host…)'),
  bunkId: intId.describe('The bed the device is at; its room is implied (with roomId it must be a bed of it)'),
  areaId: intId.describe('A floor or an area (a corridor smoke sensor, a floor\u2019s gateway host)'),
  userId: intId.describe('The resident who wears it (badge)'),
  caregiverId: intId.describe('The caregiver who wears it (nurse watch)'),
};
export type DevicePlaceInput = { [K in keyof typeof devicePlaceFields]?: number | null | undefined };
export const DEVICE_PLACE_KEYS = Object.keys(devicePlaceFields) as (keyof typeof devicePlaceFields)[];

/** One device a provider adds (insertDevice; the batch add of a later spreadsheet import takes the same rows). */
export const DeviceAddInputSchema = z.object({
  deviceId: deviceIdSchema,
  deviceType: deviceTypeSchema,
  name: deviceName.optional(),
  commMode: commMode
    .optional()
    .describe('Default: 4g when the registry holds a 4G module IMEI, nb-iot when it holds an IMEI, else none'),
  firmwareType: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._-]{1,32}$/, { error: 'validation.format' })
    .optional()
    .describe("Must match the registry's firmware type when both are known"),
  remark: remark.optional(),
  providerId: intId
    .optional()
    .describe('Provider the device is added to (platform and class 1 callers); default: the chosen provider'),
  roomId: devicePlaceFields.roomId.optional(),
  bunkId: devicePlaceFields.bunkId.optional(),
  areaId: devicePlaceFields.areaId.optional(),
  userId: devicePlaceFields.userId.optional(),
  caregiverId: devicePlaceFields.caregiverId.optional(),
});
export type DeviceAddInput = z.input<typeof DeviceAddInputSchema>;

const time = z.string().describe('ISO 8601');

/**
 * A device's state as every screen shows it: one derivation on the server (decision 0034) from
 * what the device reports (online as the gateway decides it), its bed or gateway host, its open
 * commands and its recent vitals.
 */
export const DeviceStateSchema = z.object({
  online: z.boolean().describe('As the device gateway decides it now (docs/device-protocol.md "Online and offline")'),
  lastSeenTime: time.nullable(),
  installed: z.boolean().describe('installState is not none'),
  installState: z
    .enum(DEVICE_INSTALL_STATES)
    .describe(
      'bed: linked to a bed; host: paired with its gateway host; reporting: online but at no bed and under no host; none',
    ),
  paired: z.boolean().describe('pairState is paired'),
  pairState: z
    .enum(DEVICE_PAIR_STATES)
    .nullable()
    .describe(
      'A gateway sub-device\u2019s pairing (null for other devices); a sensor heard through its host is paired',
    ),
  sensorInitialised: z.boolean().describe('sensorState is initialised'),
  sensorState: z
    .enum(DEVICE_SENSOR_STATES)
    .nullable()
    .describe(
      'A sleep monitor\u2019s sensor (null for other devices): initialised once the device acknowledged an ' +
        'initialisation, or while it measures (vitals in the last 24 hours)',
    ),
  battery: z.number().int().nullable().describe('Per cent'),
  signal: z.number().int().nullable().describe('In signalUnit'),
  signalUnit: z.enum(SIGNAL_UNITS).nullable().describe('dBm (negative values) or percent (a 0\u2013100 level)'),
});
export type DeviceState = z.infer<typeof DeviceStateSchema>;

export const DeviceRowSchema = z.object({
  id: z.number().int(),
  deviceId: z.string(),
  cipherId: z.string().nullable(),
  deviceType: z.number().int(),
  model: z.string(),
  kind: z.enum(DEVICE_KINDS),
  group: z.enum(DEVICE_GROUP_NAMES),
  name: z.string().nullable(),
  commMode: commMode.nullable(),
  online: DeviceStateSchema.shape.online,
  lastSeenTime: time.nullable(),
  firmwareVersion: z.string().nullable(),
  hardwareVersion: z.string().nullable(),
  signal: DeviceStateSchema.shape.signal,
  battery: DeviceStateSchema.shape.battery,
  installed: DeviceStateSchema.shape.installed,
  paired: DeviceStateSchema.shape.paired,
  sensorInitialised: DeviceStateSchema.shape.sensorInitialised,
  installState: DeviceStateSchema.shape.installState,
  pairState: DeviceStateSchema.shape.pairState,
  sensorState: DeviceStateSchema.shape.sensorState,
  signalUnit: DeviceStateSchema.shape.signalUnit,
  sensitivity: z.number().int().nullable(),
  reportInterval: z.number().int().nullable().describe('Requested reporting interval (seconds)'),
  algMode: z.number().int().nullable().describe('Requested algorithm mode'),
  uploadData: z.boolean().describe('Raw data of this device is kept (original data screen)'),
  imei: z.string().nullable(),
  imei4g: z.string().nullable(),
  iccid: z.string().nullable(),
  hostDeviceId: z.string().nullable().describe('Gateway host of a sub-device'),
  subDeviceCount: z.number().int().describe('Sub-devices of a gateway host (0 otherwise)'),
  thirdPartyId: z.string().nullable().describe('Registration on the operator IoT platform'),
  thirdPartyStatus: z.enum(['online', 'offline', 'unknown']).nullable(),
  thirdPartySyncTime: time.nullable(),
  firmwareUpgrade: z
    .object({
      version: z.string().describe('The version it is upgraded to'),
      state: z.enum(UPGRADE_STATES),
      progress: z.number().int().describe('Per cent of the download'),
    })
    .nullable()
    .describe('Its latest firmware upgrade (docs/firmware.md), or null when it never had one'),
  pendingCommands: z
    .array(z.enum([...DEVICE_COMMANDS, ...PAIRING_COMMANDS]))
    .describe(
      'Commands queued and not yet answered by the device; a gateway host\u2019s include the pairing commands ' +
        'it was sent, a sub-device\u2019s the pairing commands naming it',
    ),
  providerId: z.number().int(),
  providerName: z.string(),
  placeKind: z
    .enum(['bed', 'room', 'area', 'resident', 'caregiver'])
    .nullable()
    .describe(
      'What its place is (decision 0046): bed (linked to a bed, or placed at one), room, area (a floor or an ' +
        'area), resident or caregiver (who wears it); null: place not set',
    ),
  bunkId: z.number().int().nullable().describe('The bed: the one it is linked to or placed at, or its wearer\u2019s'),
  bunkName: z.string().nullable(),
  roomId: z.number().int().nullable().describe('The room: its bed\u2019s, its own, or its wearer\u2019s'),
  roomName: z.string().nullable(),
  floorId: z.number().int().nullable().describe('The floor of that room, or the floor it is placed on'),
  floorName: z.string().nullable(),
  areaId: z.number().int().nullable().describe('The area (building) above that floor, or the area it is placed in'),
  areaName: z.string().nullable(),
  userId: z.number().int().nullable().describe('The resident in that bed, or who wears it'),
  userName: z.string().nullable().describe("The resident's name"),
  caregiverId: z.number().int().nullable().describe('The caregiver who wears it (nurse watch)'),
  caregiverName: z.string().nullable(),
  remark: z.string().nullable(),
  createTime: time,
});
export type DeviceRow = z.infer<typeof DeviceRowSchema>;

export const DeviceSubRowSchema = DeviceRowSchema.pick({
  id: true,
  deviceId: true,
  deviceType: true,
  model: true,
  kind: true,
  name: true,
  online: true,
  lastSeenTime: true,
  battery: true,
  signal: true,
  signalUnit: true,
  paired: true,
  pairState: true,
  installed: true,
  installState: true,
  pendingCommands: true,
});
export const DeviceHostRowSchema = DeviceRowSchema.extend({ subDevices: z.array(DeviceSubRowSchema) });

export const DeviceStockRowSchema = z.object({
  deviceId: z.string(),
  cipherId: z.string().nullable(),
  deviceType: z.number().int(),
  model: z.string().nullable(),
  imei: z.string().nullable(),
  imei4g: z.string().nullable(),
  iccid: z.string().nullable(),
  firmwareType: z.string().nullable(),
  batch: z.string().nullable(),
  importTime: time,
  hasSecret: z.boolean().describe('A device secret is set (the secret and its hash are never answered)'),
  secretSetTime: time.nullable().describe('When the secret was set or last rotated'),
  stockState: z.enum(['in_stock', 'added']),
  providerId: z.number().int().nullable().describe('The provider that added it'),
  providerName: z.string().nullable(),
});

export const DeviceRowProblemSchema = z.object({
  index: z.number().int().describe('Position in the list, from 0'),
  field: z.string(),
  msgKey: z.string(),
  msg: z.string(),
});
export type DeviceRowProblem = z.infer<typeof DeviceRowProblemSchema>;

export const DeviceCommandReceiptSchema = z
  .object({
    commandId: z.number().int(),
    command: z.enum(DEVICE_COMMANDS),
    state: z.literal('pending'),
    queuedTime: time,
  })
  .describe(
    'The command is queued durably for the device gateway; it is not yet delivered. ' +
      'The device list shows it under pendingCommands until the device acknowledges it.',
  );

/** How long a host listens for a sensor whose pairing button is held (subDevicePair2), seconds. */
export const PAIR_SCAN_SECONDS = { min: 10, max: 300, default: 60 } as const;

const commandState = z.enum(DEVICE_COMMAND_STATES);
const pairingCommand = z.enum(PAIRING_COMMANDS);

/** One command of a device's history, as /device/commandList answers it. */
export const DeviceCommandRowSchema = z.object({
  id: z.number().int(),
  deviceId: z
    .string()
    .describe('The device it is addressed to: the device itself, or for a sub-device\u2019s pairing its gateway host'),
  command: z.enum([...DEVICE_COMMANDS, ...PAIRING_COMMANDS]),
  params: z.record(z.string(), z.unknown()).describe('What the device is sent (`params` of the cmd message)'),
  state: commandState.describe(
    'pending (queued) → sent → acked or failed; superseded by a newer one, expired unanswered after 24 h, ' +
      'cancelled when the device left',
  ),
  attempts: z.number().int().describe('How many times it was sent'),
  error: z.string().nullable().describe('Why the device refused it (failed)'),
  createTime: time.describe('Queued'),
  sentTime: time.nullable().describe('Last sent to the device'),
  ackTime: time.nullable().describe('Answered ok'),
  updateTime: time.describe('Last change of state'),
});
export type DeviceCommandRow = z.infer<typeof DeviceCommandRowSchema>;

/** A pairing command queued for a gateway host. */
export const PairingReceiptSchema = z
  .object({
    commandId: z.number().int(),
    command: pairingCommand,
    state: z.literal('pending'),
    queuedTime: time,
    hostDeviceId: z.string(),
    deviceId: z.string().describe('The sub-device'),
    hostOnline: z
      .boolean()
      .describe('The host is online now, so the command goes out at once; otherwise when it connects'),
  })
  .describe(
    'The pairing command is queued for the host; follow it with /he/subDevicePairStatus until its state is final.',
  );

const pairingRequest = DeviceAddInputSchema.pick({ deviceId: true, deviceType: true, name: true, remark: true }).extend(
  {
    hostDeviceId: deviceIdSchema.describe('The gateway host'),
  },
);
const PAIRING_SUMMARY =
  'The sub-device must be under the host (added with /he/insertDevice), or still in stock: it is then added ' +
  'under the host first, with its name and remark (the same checks as /he/insertDevice, fewer than ' +
  `${CONSTANTS.maxSubDevicesPerGateway} per host). Refused: device.hostNotFound, device.notGateway, ` +
  'device.notUnderHost (added elsewhere), ' +
  'device.gatewayFull. A newer pairing command for the same sub-device supersedes a pending one.';

const deviceRef = z.object({ deviceId: deviceIdSchema });
const telecomOutcome = z.enum(['removed', 'not_registered', 'disabled', 'failed']);

const TELECOM_NOTE =
  ' Needs TELECOM_API_URL; without it the call answers telecom.disabled. Only NB-IoT and 4G devices with an IMEI are registered.';

export const deviceCalls = {
  // --- Registry (stock) ------------------------------------------------------------------------
  deviceStockImport: defineCall({
    method: 'POST',
    path: '/device/stock/import',
    creates: true,
    auth: ADMINS,
    input: 'json',
    request: z.object({
      rows: z
        .array(DeviceStockRowInputSchema)
        .max(DEVICE_STOCK_IMPORT_MAX)
        .describe(`1 to ${DEVICE_STOCK_IMPORT_MAX} registry entries (one for a single entry)`),
    }),
    result: z.object({ added: z.number().int() }),
    summary:
      'Load manufactured device IDs into the registry (all or nothing). A refused import answers inner 400 ' +
      'deviceStock.rowErrors with data.problems (index, field, msgKey, msg) and adds nothing. Documented extra.',
    tag: 'device',
  }),
  deviceStockList: defineCall({
    method: 'POST',
    path: '/device/stock/list',
    auth: ADMINS,
    input: 'json',
    request: z.object({
      ...pageQuery,
      keyWord: z.string().trim().max(64).optional().describe('Matches device ID, cipher ID, IMEI, ICCID and batch'),
      deviceType: deviceTypeSchema.optional(),
      stockState: z.enum(['in_stock', 'added']).optional(),
    }),
    result: pageOf(DeviceStockRowSchema),
    summary:
      'Registry entries, newest first, with their state: in stock, or added by a provider. Administrators ' +
      'limited by data permission see entries in stock and those added by their providers. Documented extra.',
    tag: 'device',
  }),
  deviceStockRemove: defineCall({
    method: 'POST',
    path: '/device/stock/remove',
    auth: ADMINS,
    input: 'json',
    request: deviceRef,
    result: nothing,
    summary:
      'Remove a registry entry loaded by mistake; only while it is in stock (device.notInStock once a provider ' +
      'added it, device.notRegistered when unknown). Documented extra.',
    tag: 'device',
  }),
  deviceStockSetSecret: defineCall({
    method: 'POST',
    path: '/device/stock/setSecret',
    auth: ADMINS,
    input: 'json',
    request: z.object({
      deviceId: deviceIdSchema,
      secret: deviceSecretSchema.optional().describe('The secret to set; without it the server generates one (rotate)'),
    }),
    result: z.object({
      deviceId: z.string(),
      secret: z.string().describe('The secret now set, in plain text: answered this one time only'),
    }),
    summary:
      'Set or rotate the secret a registry device connects with (MQTT password; client ID and user name are its ' +
      'device ID). With secret that one is set, without it the server generates one; the old secret stops working. ' +
      'The answer carries the secret in plain text this one time only: the server keeps only a hash. ' +
      'device.notRegistered when unknown. An Idempotency-Key is ignored here: the answer is never stored for ' +
      'replay, since it holds the secret. Documented extra.',
    tag: 'device',
    secretAnswer: true,
  }),

  // --- Devices -----------------------------------------------------------------------------------
  getDeviceList: defineCall({
    method: 'POST',
    path: '/device/getDeviceList',
    auth: READERS,
    input: 'json',
    request: z.object({
      ...pageQuery,
      deviceType: deviceTypeSchema.optional(),
      kind: z.enum(DEVICE_GROUP_NAMES).optional().describe('sleep, fall, security, gateway or wearable devices'),
      online: flag.optional(),
      keyWord: z
        .string()
        .trim()
        .max(64)
        .optional()
        .describe('Matches device ID, device name, bed, room and resident name'),
      providerId: providerFilter,
      roomId: intId.optional().describe('Only devices whose place is this room or a bed of it'),
      areaId: intId.optional().describe('Only devices whose place is in this floor or area (its rooms included)'),
      placed: flag.optional().describe('true: only devices with a place; false: only those whose place is not set'),
    }),
    result: pageOf(DeviceRowSchema),
    summary: 'Devices with their state, bed, room and resident, newest first',
    tag: 'device',
  }),
  getDeviceSummary: defineCall({
    method: 'GET',
    path: '/device/getDeviceSummary',
    auth: READERS,
    input: 'query',
    request: z.object({ providerId: providerFilter }),
    result: z.object({
      total: z.number().int(),
      online: z.number().int(),
      offline: z.number().int(),
      groups: z.array(
        z.object({
          kind: z.enum(DEVICE_GROUP_NAMES),
          total: z.number().int(),
          online: z.number().int(),
          offline: z.number().int(),
        }),
      ),
    }),
    summary: 'Device counts (total, online, offline), overall and per group',
    tag: 'device',
  }),
  deviceTypes: defineCall({
    method: 'GET',
    path: '/device/deviceTypes',
    auth: 'session',
    input: 'query',
    request: z.object({
      abroad: flag
        .optional()
        .describe('The console\u2019s overseas flag: true lists ED719W, false ED719N; omitted lists every type'),
    }),
    result: z.array(
      z.object({
        code: z.number().int(),
        model: z.string(),
        kind: z.enum(DEVICE_KINDS),
        group: z.enum(DEVICE_GROUP_NAMES),
        market: z.enum(['abroad', 'domestic']).nullable(),
      }),
    ),
    summary: 'The device-type catalogue',
    tag: 'device',
  }),
  insertDevice: defineCall({
    method: 'POST',
    path: '/device/insertDevice',
    creates: true,
    auth: INSTALLERS,
    input: 'json',
    request: DeviceAddInputSchema,
    result: z.object({ id: z.number().int(), deviceId: z.string() }),
    summary:
      'Add a registry device to a provider, optionally with its place. Refused: device.idFormat, ' +
      'device.notRegistered, device.typeMismatch, device.alreadyAdded (visible to the caller), device.addedByOther. ' +
      PLACE_RULES,
    tag: 'device',
  }),
  updateDevice: defineCall({
    method: 'POST',
    path: '/device/updateDevice',
    auth: EDITORS,
    input: 'json',
    request: z.object({
      deviceId: deviceIdSchema,
      name: deviceName.nullable().optional(),
      commMode: commMode.nullable().optional(),
      remark: remark.nullable().optional(),
      roomId: devicePlaceFields.roomId.nullable().optional(),
      bunkId: devicePlaceFields.bunkId.nullable().optional(),
      areaId: devicePlaceFields.areaId.nullable().optional(),
      userId: devicePlaceFields.userId.nullable().optional(),
      caregiverId: devicePlaceFields.caregiverId.nullable().optional(),
    }),
    result: nothing,
    summary:
      'Rename a device or change its communication mode, remark or place; omitted fields are kept. The place is ' +
      'set as a whole: when any of roomId, bunkId, areaId, userId, caregiverId is sent, those sent non-null make ' +
      'the new place and the others are cleared (all null: place not set). The move applies to the device\u2019s ' +
      `very next alarm. ${PLACE_RULES}`,
    tag: 'device',
  }),
  deleteDevice: defineCall({
    method: 'GET',
    path: '/device/deleteDevice',
    auth: EDITORS,
    input: 'query',
    request: deviceRef,
    result: z.object({
      telecom: telecomOutcome.describe('What happened to its operator registration, after the device was removed'),
      telecomMsg: z.string().nullable(),
    }),
    summary:
      'Remove a device from its provider: it returns to stock and its pending commands are cancelled. Refused ' +
      'while it is linked to a bed (device.linkedToBed) or, for a gateway host, while it has sub-devices',
    tag: 'device',
  }),
  isUploadData: defineCall({
    method: 'POST',
    path: '/device/isUploadData',
    auth: ADMINS,
    input: 'json',
    request: z.object({ deviceId: deviceIdSchema, uploadData: requiredFlag }),
    result: nothing,
    summary: 'Keep (or stop keeping) the raw data of a device for the original-data screen',
    tag: 'device',
  }),
  updateInterval: defineCall({
    method: 'GET',
    path: '/device/updateInterval',
    auth: INSTALLERS,
    input: 'query',
    request: z.object({
      deviceId: deviceIdSchema,
      interval: z.coerce
        .number<number>()
        .int()
        .min(CONSTANTS.reportingIntervalMin)
        .max(CONSTANTS.reportingIntervalMax)
        .describe('Reporting interval in seconds, 1 to 254'),
    }),
    result: DeviceCommandReceiptSchema,
    summary: 'Queue a new reporting interval for a device (delivered by the device gateway)',
    tag: 'device',
  }),
  updateAlgMode: defineCall({
    method: 'POST',
    path: '/device/updateAlgMode',
    auth: INSTALLERS,
    input: 'form',
    request: z.object({
      deviceId: deviceIdSchema,
      algMode: z.coerce
        .number<number>()
        .int()
        .min(0)
        .max(DEVICE_ALG_MODE_MAX)
        .describe('Algorithm mode code, 0 to 255'),
    }),
    result: DeviceCommandReceiptSchema,
    summary: 'Queue an algorithm mode for a sleep monitor or fall radar (delivered by the device gateway)',
    tag: 'device',
  }),
  forceInitSensor: defineCall({
    method: 'POST',
    path: '/device/forceInitSensor',
    auth: INSTALLERS,
    input: 'form',
    request: z.object({
      deviceId: deviceIdSchema,
      emptyBed: requiredFlag.describe(
        'The caller confirms nobody is on the bed: a sensor is initialised on an empty bed',
      ),
    }),
    result: DeviceCommandReceiptSchema,
    summary:
      'Queue the initialisation of an installed sleep sensor (linked to a bed); refused unless the bed is confirmed empty',
    tag: 'device',
  }),
  restartDevice: defineCall({
    method: 'POST',
    path: '/deviceManage/restartDevice',
    auth: INSTALLERS,
    input: 'json',
    request: deviceRef,
    result: DeviceCommandReceiptSchema,
    summary: 'Queue a restart; only online devices can be restarted (device.restartOffline)',
    tag: 'device',
  }),
  deviceCommandList: defineCall({
    method: 'GET',
    path: '/device/commandList',
    auth: READERS,
    input: 'query',
    request: z.object({ deviceId: deviceIdSchema, ...pageQuery }),
    result: pageOf(DeviceCommandRowSchema),
    summary:
      'The commands of a device with their states, newest first; a sub-device\u2019s include the pairing ' +
      'commands its gateway host was sent for it. Documented extra.',
    tag: 'device',
  }),
  syncThirdDevice: defineCall({
    method: 'POST',
    path: '/device/syncThirdDevice',
    auth: EDITORS,
    input: 'json',
    request: deviceRef,
    result: z.object({
      deviceId: z.string(),
      thirdPartyId: z.string(),
      thirdPartyStatus: z.enum(['online', 'offline', 'unknown']),
      thirdPartySyncTime: time,
    }),
    summary: `Register a device on the operator IoT platform when needed and read its status.${TELECOM_NOTE}`,
    tag: 'device',
  }),
  syncAllThirdDevice: defineCall({
    method: 'GET',
    path: '/device/syncAllThirdDevice',
    auth: EDITORS,
    input: 'query',
    request: z.object({ providerId: providerFilter }),
    result: z.object({
      total: z.number().int().describe('NB-IoT and 4G devices with an IMEI in the scope'),
      synced: z.number().int(),
      failed: z.array(z.object({ deviceId: z.string(), msgKey: z.string(), msg: z.string() })),
    }),
    summary: `Sync every NB-IoT and 4G device of the scope with the operator IoT platform.${TELECOM_NOTE}`,
    tag: 'device',
  }),

  // --- Gateway hosts and sub-devices ----------------------------------------------------------------
  heGetDeviceList: defineCall({
    method: 'POST',
    path: '/he/getDeviceList',
    auth: READERS,
    input: 'json',
    request: z.object({
      ...pageQuery,
      online: flag.optional(),
      keyWord: z.string().trim().max(64).optional().describe('Matches the host and its sub-devices (ID and name)'),
      providerId: providerFilter,
    }),
    result: pageOf(DeviceHostRowSchema),
    summary: 'Gateway hosts with their sub-devices, newest first',
    tag: 'device',
  }),
  heAddHost: defineCall({
    method: 'POST',
    path: '/he/addHost',
    creates: true,
    auth: INSTALLERS,
    input: 'json',
    request: DeviceAddInputSchema.omit({ deviceType: true }),
    result: z.object({ id: z.number().int(), deviceId: z.string() }),
    summary: 'Add a gateway host (type LHD8100) from the registry; the same checks as insertDevice',
    tag: 'device',
  }),
  heInsertDevice: defineCall({
    method: 'POST',
    path: '/he/insertDevice',
    creates: true,
    auth: INSTALLERS,
    input: 'json',
    request: DeviceAddInputSchema.omit({ providerId: true }).extend({
      hostDeviceId: deviceIdSchema.describe('The gateway host; the sub-device joins its provider'),
    }),
    result: z.object({ id: z.number().int(), deviceId: z.string() }),
    summary: `Add a security sensor under a gateway host (fewer than ${CONSTANTS.maxSubDevicesPerGateway} per host)`,
    tag: 'device',
  }),
  heReplaceDevice: defineCall({
    method: 'POST',
    path: '/he/replaceDevice',
    auth: INSTALLERS,
    input: 'json',
    request: z.object({
      deviceId: deviceIdSchema.describe('The gateway host or sub-device taken out (returns to stock)'),
      newDeviceId: deviceIdSchema.describe('A registry device of the same type, in stock'),
    }),
    result: z.object({
      id: z.number().int(),
      deviceId: z.string(),
      telecom: telecomOutcome.describe('What happened to the old device\u2019s operator registration'),
      telecomMsg: z.string().nullable(),
    }),
    summary:
      'Replace a gateway host (its sub-devices move to the new host) or a sub-device (the new one joins the host), ' +
      'keeping name and remark; the old device returns to stock and its pending commands are cancelled',
    tag: 'device',
  }),
  heDeleteDevice: defineCall({
    method: 'DELETE',
    path: '/he/deleteDevice',
    auth: EDITORS,
    input: 'query',
    request: z.object({ deviceId: deviceIdSchema, deviceType: deviceTypeSchema }),
    result: z.object({ telecom: telecomOutcome, telecomMsg: z.string().nullable() }),
    summary: 'Remove a gateway host (without sub-devices) or a sub-device; deviceType must be its type',
    tag: 'device',
  }),
  heSubDevicePair: defineCall({
    method: 'POST',
    path: '/he/subDevicePair',
    auth: INSTALLERS,
    input: 'json',
    request: pairingRequest,
    result: PairingReceiptSchema,
    summary:
      'Pair a sub-device with its gateway host by device ID: queues the `pair` command to the host, params ' +
      '{deviceId, deviceType}. May be queued while the host is offline (sent when it connects). Its ' +
      `acknowledgement marks the sub-device paired. ${PAIRING_SUMMARY}`,
    tag: 'device',
  }),
  heSubDevicePair2: defineCall({
    method: 'POST',
    path: '/he/subDevicePair2',
    auth: INSTALLERS,
    input: 'json',
    request: pairingRequest.extend({
      seconds: z.coerce
        .number<number>()
        .int()
        .min(PAIR_SCAN_SECONDS.min)
        .max(PAIR_SCAN_SECONDS.max)
        .default(PAIR_SCAN_SECONDS.default)
        .describe(
          `How long the host listens, ${PAIR_SCAN_SECONDS.min} to ${PAIR_SCAN_SECONDS.max} seconds ` +
            `(default ${PAIR_SCAN_SECONDS.default})`,
        ),
    }),
    result: PairingReceiptSchema,
    summary:
      'Pair a sub-device with the pairing button: queues `pair_scan` to the host, params {deviceId, deviceType, ' +
      'seconds}; the host listens that long and the sensor joins when its pairing button is held 3 s. Only ' +
      'while the host is online (device.hostOffline): a window opening later would find nobody at the sensor. ' +
      `Its acknowledgement marks the sub-device paired. ${PAIRING_SUMMARY}`,
    tag: 'device',
  }),
  heSubDevicePairStatus: defineCall({
    method: 'GET',
    path: '/he/subDevicePairStatus',
    auth: READERS,
    input: 'query',
    request: z.object({
      hostDeviceId: deviceIdSchema.describe('The gateway host'),
      deviceId: deviceIdSchema.describe('The sub-device'),
    }),
    result: z.object({
      hostDeviceId: z.string(),
      deviceId: z.string(),
      paired: z.boolean().describe('The sub-device is paired now'),
      hostOnline: z.boolean(),
      command: z
        .object({
          commandId: z.number().int(),
          command: pairingCommand,
          state: commandState,
          error: z.string().nullable().describe('The host\u2019s reason, when failed'),
          attempts: z.number().int(),
          queuedTime: time,
          sentTime: time.nullable(),
          ackTime: time.nullable(),
          updateTime: time,
        })
        .nullable()
        .describe(
          'The latest pairing command for this sub-device (compare its commandId with the receipt\u2019s: a newer ' +
            'request supersedes yours); null when there is none',
        ),
    }),
    summary:
      'Progress of pairing a sub-device: the state of its latest pairing command and whether it ' +
      'is paired; the console polls it while its pairing dialog is open. Final states: acked, failed (with the ' +
      'host\u2019s error), expired, superseded, cancelled.',
    tag: 'device',
  }),
  heSubDeviceUnPair: defineCall({
    method: 'POST',
    path: '/he/subDeviceUnPair',
    auth: INSTALLERS,
    input: 'json',
    request: z.object({
      hostDeviceId: deviceIdSchema.describe('The gateway host'),
      deviceId: deviceIdSchema.describe('The sub-device'),
    }),
    result: PairingReceiptSchema,
    summary:
      'Unpair a sub-device from its host: queues `unpair` to the host, params {deviceId, deviceType} (also ' +
      'while the host is offline). Its acknowledgement marks the sub-device unpaired; it stays under the host ' +
      'until deleted. Refused: device.hostNotFound, device.notGateway, device.notUnderHost.',
    tag: 'device',
  }),
  heChangProvider: defineCall({
    method: 'POST',
    path: '/he/changProvider',
    auth: ADMINS,
    input: 'form',
    request: z.object({
      deviceId: deviceIdSchema.describe('The gateway host'),
      providerId: intId.describe('The provider it moves to, with all its sub-devices'),
    }),
    result: z.object({ moved: z.number().int().describe('Host and sub-devices moved') }),
    summary: 'Move a gateway host and its sub-devices to another provider; refused while any is linked to a bed',
    tag: 'device',
  }),
} as const satisfies Record<string, CallDef>;
