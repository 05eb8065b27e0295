import { z } from 'zod';
import { defineCall, type BinaryBody, type CallDef, type UploadedFile } from '../call.ts';
import { CONSTANTS } from '../constants.ts';
import { queryNursingList } from './caregivers.ts';
import { flag, intId } from './common.ts';
import { deviceCalls } from './devices.ts';
import { bunkList } from './facility.ts';
import { residentList } from './residents.ts';

/**
 * Spreadsheet templates, imports and exports of every domain (spec document 1 §5, decision 0012).
 * A template's columns are the import's columns and an export's, so an export re-imports cleanly.
 * Paths the spec names are kept; the others are documented extras.
 */

const MANAGERS = ['SUPER_ROLE', 'SENIOR_ROLE', 'ONE_ROLE', 'TWO_ROLE', 'SUB_ROLE'] as const;
const RESIDENT_MANAGERS = ['ONE_ROLE', 'TWO_ROLE', 'SUB_ROLE'] as const;
const INSTALLERS = [...MANAGERS, 'MAINTAIN'] as const;
const ADMINS = ['SUPER_ROLE', 'SENIOR_ROLE'] as const;

const { maxRows, maxBytes } = CONSTANTS.spreadsheetImport;
const limits = `.xls or .xlsx, at most ${maxBytes / 1024 / 1024} MB and ${maxRows} rows`;
const refusal =
  'All or nothing: a refused import answers inner status 400 with msgKey import.rowErrors and data.problems ' +
  '[{row, column, reason}] (row 1 is the header) listing every bad row, and writes nothing.';

const template = z.object({
  language: z
    .string()
    .max(16)
    .optional()
    .describe("Language of the headers and notes (zh-CN or en-US); default: the request's Accept-Language"),
});
const sheetFile = z.custom<UploadedFile>().optional().describe(limits);
const importInto = z.object({
  file: sheetFile,
  providerId: intId.optional().describe('Provider the rows go to (platform and class 1 callers); default: the chosen'),
});
const imported = z.object({ imported: z.number().int().describe('Rows imported') });
const binary = z.custom<BinaryBody>();

const templateCall = (path: string, auth: CallDef['auth'], what: string, tag: string) =>
  defineCall({
    method: 'GET',
    path,
    auth,
    input: 'query',
    request: template,
    result: binary,
    produces: 'binary',
    summary: `Import template (.xlsx) for ${what}: header row and a sheet of notes, in the caller's language`,
    tag,
  });

export const bunkExcelModel = templateCall('/bunk/excelModel', MANAGERS, 'beds', 'bunk');
export const bunkImportData = defineCall({
  method: 'POST',
  path: '/bunk/importData',
  creates: true,
  auth: MANAGERS,
  input: 'multipart',
  request: importInto,
  result: imported,
  summary:
    'Import beds: areas, floors and rooms are found by name or created; a device ID column links a device of the ' +
    `provider to the bed. A bed that exists or repeats in the file is refused. ${refusal} Documented extra.`,
  tag: 'bunk',
});
export const bunkExportData = defineCall({
  method: 'POST',
  path: '/bunk/exportData',
  auth: bunkList.auth,
  input: 'json',
  request: bunkList.request,
  result: binary,
  produces: 'binary',
  summary: "Beds matching the bed list's filters (paging ignored) as .xlsx, in the template's columns",
  tag: 'bunk',
});

export const residentExcelModel = templateCall(
  '/userManagement/excelModel',
  RESIDENT_MANAGERS,
  'residents',
  'resident',
);
export const residentBatchAdd = defineCall({
  method: 'POST',
  path: '/userManagement/batchAdd',
  creates: true,
  auth: RESIDENT_MANAGERS,
  input: 'multipart',
  request: importInto.extend({
    confirmSameName: flag
      .optional()
      .describe(
        'true: import residents whose name is already registered (or repeats in the file). Without it, a file ' +
          'whose only problems are such names answers inner 300 import.sameNameConfirm with data.problems and ' +
          'data.confirmField "confirmSameName"',
      ),
  }),
  result: imported.extend({ checkedIn: z.number().int().describe('Rows with a bed, checked in to it') }),
  summary:
    'Register residents from a spreadsheet; rows naming a bed (area, floor, room, bed) are checked in to it. A bed ' +
    'that is taken, unknown or named twice, and a name already registered, are reported per row. ' +
    refusal,
  tag: 'resident',
});
export const residentExportData = defineCall({
  method: 'POST',
  path: '/userManagement/exportData',
  auth: residentList.auth,
  input: 'json',
  request: residentList.request,
  result: binary,
  produces: 'binary',
  summary:
    "Residents matching the list's filters (paging ignored) as .xlsx, in the template's columns. Documented extra",
  tag: 'resident',
});

export const deviceExcelModel = templateCall('/device/excelModel', INSTALLERS, 'devices', 'device');
export const deviceBatchAdd = defineCall({
  method: 'POST',
  path: '/device/batchAdd1',
  creates: true,
  auth: INSTALLERS,
  input: 'multipart',
  request: importInto,
  result: imported,
  summary:
    'Add registry devices to a provider from a spreadsheet, with the checks of insertDevice per row (format, ' +
    `registered, type, already added, added by another provider). ${refusal}`,
  tag: 'device',
});
export const deviceExportData = defineCall({
  method: 'POST',
  path: '/device/exportData',
  auth: deviceCalls.getDeviceList.auth,
  input: 'json',
  request: deviceCalls.getDeviceList.request,
  result: binary,
  produces: 'binary',
  summary: "Devices matching the list's filters (paging ignored) as .xlsx, in the template's columns. Documented extra",
  tag: 'device',
});

export const GATEWAY_SHEETS = ['host', 'infrared'] as const;
export const gatewayExcelModel = defineCall({
  method: 'GET',
  path: '/he/excelModel',
  auth: INSTALLERS,
  input: 'query',
  request: template.extend({
    kind: z.enum(GATEWAY_SHEETS).describe('host: gateway hosts; infrared: motion detectors paired to hosts'),
  }),
  result: binary,
  produces: 'binary',
  summary: "Import template (.xlsx) for gateway hosts or their infrared detectors, in the caller's language",
  tag: 'device',
});
export const heHostBatchAdd = defineCall({
  method: 'POST',
  path: '/he/hostBatchAdd',
  creates: true,
  auth: INSTALLERS,
  input: 'multipart',
  request: importInto,
  result: imported,
  summary: `Add gateway hosts from the registry, from a spreadsheet. ${refusal}`,
  tag: 'device',
});
export const heInfraredBatchAdd = defineCall({
  method: 'POST',
  path: '/he/infraredBatchAdd',
  creates: true,
  auth: INSTALLERS,
  input: 'multipart',
  request: z.object({ file: sheetFile }),
  result: imported,
  summary:
    'Pair infrared motion detectors to gateway hosts from a spreadsheet (host ID, device ID, name); fewer than 50 ' +
    `sub-devices per host. ${refusal}`,
  tag: 'device',
});

export const deviceStockExcelModel = templateCall('/device/stock/excelModel', ADMINS, 'the device registry', 'device');
export const deviceStockImportSheet = defineCall({
  method: 'POST',
  path: '/device/stock/importSheet',
  creates: true,
  auth: ADMINS,
  input: 'multipart',
  request: z.object({ file: sheetFile }),
  result: imported,
  summary: `Load manufactured device IDs into the registry from a spreadsheet. ${refusal} Documented extra.`,
  tag: 'device',
});

export const nursingExcelModel = templateCall('/nursing/excelModel', MANAGERS, 'caregivers', 'nursing');
export const ImportedAccountSchema = z.object({
  name: z.string(),
  userName: z.string().describe('Login account of the caregiver app'),
  initialPassword: z.string().describe('Generated password, shown once'),
});
export const nursingBatchAdd = defineCall({
  method: 'POST',
  path: '/nursing/batchAdd',
  creates: true,
  auth: MANAGERS,
  input: 'multipart',
  request: importInto,
  result: imported.extend({ accounts: z.array(ImportedAccountSchema).describe('In row order') }),
  summary:
    'Create caregivers with app accounts from a spreadsheet; each account gets a generated password, answered ' +
    `once. ${refusal}`,
  tag: 'nursing',
});
export const nursingExportData = defineCall({
  method: 'POST',
  path: '/nursing/exportData',
  auth: queryNursingList.auth,
  input: 'json',
  request: queryNursingList.request,
  result: binary,
  produces: 'binary',
  summary:
    "Caregivers matching the list's filters (paging ignored) as .xlsx, in the template's columns. Documented extra",
  tag: 'nursing',
});

/** Spreadsheet calls of every domain (issue 4). */
export const spreadsheetCalls = {
  bunkExcelModel,
  bunkImportData,
  bunkExportData,
  residentExcelModel,
  residentBatchAdd,
  residentExportData,
  deviceExcelModel,
  deviceBatchAdd,
  deviceExportData,
  gatewayExcelModel,
  heHostBatchAdd,
  heInfraredBatchAdd,
  deviceStockExcelModel,
  deviceStockImportSheet,
  nursingExcelModel,
  nursingBatchAdd,
  nursingExportData,
} as const satisfies Record<string, CallDef>;
