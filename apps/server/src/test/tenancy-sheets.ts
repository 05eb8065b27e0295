import { DEVICE_TYPES, translate } from '@vigil/contract';
import { CAREGIVER_SHEET } from '../modules/caregivers/caregiver-sheet.service.ts';
import { DEVICE_SHEET, HOST_SHEET, INFRARED_SHEET, STOCK_SHEET } from '../modules/devices/device-sheets.ts';
import { BED_SHEET } from '../modules/facility/bed-sheet.service.ts';
import { RESIDENT_SHEET } from '../modules/residents/resident-sheet.service.ts';
import { workbook } from '../modules/spreadsheet/sheet-test-support.ts';
import type { Columns } from '../modules/spreadsheet/table-parser.ts';

/**
 * Spreadsheet imports in the tenancy matrix: the uploaded file is a reference like any other.
 * Each import is probed with a sheet of harmless rows and with sheets whose device columns hold
 * the foreign tenant's device IDs (hosts, sensors), so the checks behind the cells are reached.
 */
const SHEETS: Record<string, Columns> = {
  bunkImportData: BED_SHEET.columns,
  residentBatchAdd: RESIDENT_SHEET.columns,
  deviceBatchAdd: DEVICE_SHEET.columns,
  heHostBatchAdd: HOST_SHEET.columns,
  heInfraredBatchAdd: INFRARED_SHEET.columns,
  deviceStockImportSheet: STOCK_SHEET.columns,
  nursingBatchAdd: CAREGIVER_SHEET.columns,
};

export const isSheetImport = (callName: string): boolean => callName in SHEETS;

let counter = 0;
/** A cell for a column that is not a device reference: valid, and fresh where it must be unique. */
const sample = (column: string): string => {
  counter++;
  switch (column) {
    case 'gender':
      return 'female';
    case 'birthDate':
      return '1950-01-01';
    case 'phone':
      return `137${String(counter).padStart(8, '0')}`;
    case 'deviceType':
      return 'BM8701-2';
    case 'level':
      return 'normal';
    case 'area':
    case 'floor':
    case 'room':
    case 'bed':
    case 'name':
      return `probe${counter}`;
    default:
      return '';
  }
};

/**
 * An upload of the call's template with one row; `deviceCode` (with its catalogue type) goes into
 * every device column, so the row points at that device.
 */
export const sheetUpload = (
  callName: string,
  device?: { code: string; type: number },
): { filename: string; mimetype: string; bytes: Uint8Array } => {
  const columns = SHEETS[callName];
  if (!columns) throw new Error(`no sheet for ${callName}`);
  const keys = Object.keys(columns);
  const header = keys.map((k) => translate('en-US', columns[k]?.header ?? 'sheet.col.name'));
  const model = DEVICE_TYPES.find((t) => t.code === device?.type)?.model ?? 'BM8701-2';
  const row = keys.map((k) => {
    if (device && (k === 'deviceId' || k === 'hostDeviceId')) return device.code;
    if (device && k === 'deviceType') return model;
    // Without a device to point at, bed imports leave the optional device column empty.
    if (k === 'deviceId' && callName === 'bunkImportData') return '';
    if (k === 'deviceId') return `PROBE-${++counter}`;
    return sample(k);
  });
  return {
    filename: 'probe.xlsx',
    mimetype: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    bytes: workbook([header, row]),
  };
};
