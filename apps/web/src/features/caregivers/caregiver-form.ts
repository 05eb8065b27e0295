import type { EndpointRequest, operateNursing } from '@vigil/contract/browser';
import {
  blankToUndefined,
  internationalNumber,
  normalisePhone,
  type CaregiverLevel,
  type CaregiverRow,
  type NewCaregiver,
  type Variant,
} from './caregiver-model.ts';
import { splitPhone } from './country-codes.ts';

/** What the create/edit form holds. The overseas variant splits the phone into code and number. */
export interface CaregiverFields {
  name: string;
  countryCode?: string;
  phone: string;
  job?: string;
  level: CaregiverLevel;
  /** Create only: the app login; empty means the phone number. */
  userName?: string;
  residentIds: number[];
  remark?: string;
}

/** The phone as the form's variant has it, the way the server will store it when it is valid. */
export const phoneOf = (fields: Pick<CaregiverFields, 'countryCode' | 'phone'>, variant: Variant): string => {
  const typed =
    variant === 'overseas' && fields.countryCode
      ? internationalNumber(fields.countryCode, fields.phone ?? '')
      : (fields.phone ?? '').trim();
  return normalisePhone(typed) ?? typed;
};

export const initialFields = (
  caregiver: CaregiverRow | null,
  variant: Variant,
  defaultCode: string,
): Partial<CaregiverFields> => {
  const base = variant === 'overseas' ? { countryCode: defaultCode } : {};
  if (!caregiver) return { ...base, level: 'normal', residentIds: [] };
  const phone =
    variant === 'overseas'
      ? (() => {
          const split = splitPhone(caregiver.phone, defaultCode);
          return { countryCode: split.countryCode, phone: split.national };
        })()
      : { phone: caregiver.phone };
  return {
    ...base,
    ...phone,
    name: caregiver.name,
    job: caregiver.job ?? undefined,
    level: caregiver.level,
    residentIds: caregiver.residents.map((r) => r.id),
    remark: caregiver.remark ?? undefined,
  };
};

export const toInsert = (fields: CaregiverFields, variant: Variant): NewCaregiver => ({
  name: fields.name.trim(),
  phone: phoneOf(fields, variant),
  job: blankToUndefined(fields.job),
  level: fields.level,
  residentIds: fields.residentIds ?? [],
  userName: blankToUndefined(fields.userName),
  remark: blankToUndefined(fields.remark),
});

/** An edit sends every field, clearing job and remark with null, and replaces the linked residents. */
export const toEdit = (
  id: number,
  fields: CaregiverFields,
  variant: Variant,
): EndpointRequest<typeof operateNursing> => ({
  id,
  type: 'edit',
  name: fields.name.trim(),
  phone: phoneOf(fields, variant),
  job: blankToUndefined(fields.job) ?? null,
  level: fields.level,
  residentIds: fields.residentIds ?? [],
  remark: blankToUndefined(fields.remark) ?? null,
});
