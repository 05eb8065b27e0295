import type { FormInstance } from 'antd';
import { ApiError } from '../../shared/api/client.ts';

/**
 * Which form field a server refusal is about, by its message key: the registry checks of an add
 * (spec section 8: id format, not registered, type mismatch, already added, added by another
 * provider) and of a replacement or removal (not in stock, same device).
 */
const DEVICE_ID_REFUSALS = [
  'device.idFormat',
  'device.notRegistered',
  'device.alreadyAdded',
  'device.addedByOther',
  'device.notInStock',
  'deviceStock.exists',
];
const TYPE_REFUSALS = [
  'device.typeMismatch',
  'device.typeUnknown',
  'device.notSubDeviceType',
  'deviceStock.modelMismatch',
];

export interface RefusalFields {
  deviceId?: string;
  deviceType?: string;
}

/**
 * Puts a refusal of the server under the field it is about, in the server's localised words, so
 * the user sees it where they typed and keeps everything they entered. Answers false when the
 * refusal is about no field of this form (the caller shows it another way).
 */
export const showRefusalOnField = (form: FormInstance, error: unknown, fields: RefusalFields): boolean => {
  if (!(error instanceof ApiError) || !error.msgKey) return false;
  const field = DEVICE_ID_REFUSALS.includes(error.msgKey)
    ? fields.deviceId
    : TYPE_REFUSALS.includes(error.msgKey)
      ? fields.deviceType
      : undefined;
  if (!field) return false;
  form.setFields([{ name: field, errors: [error.message] }]);
  return true;
};

/** One refused row of a registry import, as the server reports it. */
export interface RowProblem {
  index: number;
  field: string;
  msgKey: string;
  msg: string;
}

export const rowProblemsOf = (error: unknown): RowProblem[] => {
  if (!(error instanceof ApiError) || typeof error.data !== 'object' || error.data === null) return [];
  const problems = (error.data as { problems?: unknown }).problems;
  return Array.isArray(problems) ? (problems as RowProblem[]) : [];
};
