import { z } from 'zod';
import { defineCall, type BinaryBody, type CallDef } from '../call.ts';
import { DEVICE_ID_MAX } from '../domain.ts';
import { intId, pageOf, pageQuery } from './common.ts';
import { deviceIdSchema } from './devices.ts';

/**
 * Calls of the original (raw) data screen (issue 9, `/deviceManage/historyData`): the raw samples
 * kept for devices whose raw upload is on (`/device/isUploadData`), one stored row per device and
 * minute, listed per device and day, downloaded as CSV and deleted. Rows older than the retention
 * period (`RAW_RETENTION_DAYS`, default 31 days) are deleted by the server on its own.
 *
 * Days are UTC days: the platform has no time-zone setting, and the CSV's times are UTC ISO 8601,
 * so one day is 00:00 to 24:00 UTC whatever the time zone of the server or the console.
 *
 * Visibility: a raw row belongs to the provider the device served when the row was recorded.
 * Administrators limited by data permission see, download and delete only their providers' rows;
 * unlimited administrators see every row.
 */

/** Platform device administrators, like the raw-data upload switch itself. */
const ADMINS = ['SUPER_ROLE', 'SENIOR_ROLE'] as const;

const time = z.string().describe('ISO 8601, UTC');

/** A UTC day; a missing one reads "… is required", a malformed one names the format. */
export const rawDaySchema = z.iso
  .date({
    error: (issue) =>
      issue.input === undefined || issue.input === '' ? 'validation.required' : 'originData.dayFormat',
  })
  .describe('A UTC day, YYYY-MM-DD');

export const OriginDataRowSchema = z.object({
  deviceId: z.string(),
  deviceType: z
    .number()
    .int()
    .nullable()
    .describe('Type code of the device-type catalogue; null when the device ID is no longer registered'),
  deviceName: z.string().nullable().describe("The device's display name; null when unnamed or no longer added"),
  providerId: z.number().int().nullable().describe('The provider the device served at the last minute of the day'),
  providerName: z.string().nullable(),
  day: z.string().describe('UTC day, YYYY-MM-DD'),
  minutes: z.number().int().describe('Minutes of the day with samples (stored rows)'),
  samples: z.number().int().describe('Samples (device messages) of the day'),
  firstTime: time.describe('Start of the first minute with samples'),
  lastTime: time.describe('Start of the last minute with samples'),
  deviceMinutes: z
    .number()
    .int()
    .describe('Minutes with samples of this device on every day the caller sees (what deleteAll removes)'),
  deviceDays: z.number().int().describe('Days with samples of this device the caller sees'),
});
export type OriginDataRow = z.infer<typeof OriginDataRowSchema>;

const deleted = z.object({ deleted: z.number().int().describe('Minutes (stored rows) deleted') });
const binary = z.custom<BinaryBody>();

export const originDataCalls = {
  originDataList: defineCall({
    method: 'POST',
    path: '/originData/getDataListPage',
    auth: ADMINS,
    input: 'json',
    request: z.object({
      ...pageQuery,
      deviceId: z
        .string()
        .trim()
        .max(DEVICE_ID_MAX)
        .regex(/^[A-Za-z0-9-]*$/, { error: 'device.idFormat' })
        .optional()
        .describe('Device IDs containing this (case-insensitive)'),
      day: rawDaySchema.optional(),
      providerId: intId.optional().describe('Only rows of this provider (must be visible)'),
    }),
    result: pageOf(OriginDataRowSchema),
    summary:
      'Raw data kept per device and UTC day, newest day first, then by device ID: minutes and samples of the day, ' +
      'first and last minute, and what the device holds in all. Limited administrators see their providers\u2019 rows only',
    tag: 'originData',
  }),
  originDataDownload: defineCall({
    method: 'GET',
    path: '/originData/download',
    auth: ADMINS,
    input: 'query',
    request: z.object({ deviceId: deviceIdSchema, day: rawDaySchema }),
    result: binary,
    produces: 'binary',
    summary:
      'The raw samples of one device and UTC day as CSV (<deviceId>-<day>.csv), one line per sample in time order: ' +
      'time (ISO 8601, UTC, milliseconds), hr, rr, inBed (0/1), asleep (0/1), move, rri (beat intervals in ms, ' +
      'space-separated; empty when none were sent). A day without samples gives the header line only. ' +
      'device.notFound when the caller sees neither the device nor any raw data of it',
    tag: 'originData',
  }),
  originDataDelete: defineCall({
    method: 'GET',
    path: '/originData/delete',
    auth: ADMINS,
    input: 'query',
    request: z.object({ deviceId: deviceIdSchema, day: rawDaySchema }),
    result: deleted,
    summary:
      'Delete the raw data of one device and UTC day (the rows the caller sees); audited. device.notFound when the ' +
      'caller sees neither the device nor any raw data of it',
    tag: 'originData',
  }),
  originDataDeleteAll: defineCall({
    method: 'GET',
    path: '/originData/deleteAll',
    auth: ADMINS,
    input: 'query',
    request: z.object({ deviceId: deviceIdSchema }),
    result: deleted,
    summary:
      'Delete all raw data of one device, every day (spec: "clear raw data" of a device; the rows the caller sees); ' +
      'audited. The raw upload setting is unchanged. device.notFound when the caller sees neither the device nor ' +
      'any raw data of it',
    tag: 'originData',
  }),
} as const satisfies Record<string, CallDef>;
