import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import type {
  ContactRelation,
  Gender,
  MedicalCondition,
  NewResidentRequest,
  ResidentDetail,
} from './resident-model.ts';
import { RESIDENT_LIMITS } from './resident-model.ts';
import { normalisePhone } from './phone.ts';

export interface ContactFields {
  /** An existing contact being edited: kept so relatives' bindings made from it survive (decision 0009). */
  id?: number;
  name?: string;
  phone?: string;
  relation?: ContactRelation;
}

/** What the register / edit form holds. */
export interface ResidentFormValues {
  name?: string;
  gender?: Gender;
  birthDate?: Dayjs | null;
  height?: number | null;
  weight?: number | null;
  medicalHistory?: MedicalCondition[];
  otherHistory?: string;
  contacts?: ContactFields[];
  priority?: boolean;
  remark?: string;
  caregiverIds?: number[];
  communityId?: number | null;
}

/** The resident's own fields as insertUser takes them (updateUser takes the same plus id). */
export type ResidentFields = Omit<NewResidentRequest, 'providerId' | 'confirm'> & {
  contacts: NonNullable<NewResidentRequest['contacts']>;
};

export const BIRTH_DATE_FORMAT = 'YYYY-MM-DD';

export const EMPTY_RESIDENT: ResidentFormValues = {
  medicalHistory: [],
  contacts: [],
  priority: false,
  caregiverIds: [],
  communityId: null,
  height: null,
  weight: null,
};

/** A resident's stored fields as form values, for editing. */
export const formValuesOf = (resident: ResidentDetail): ResidentFormValues => ({
  name: resident.name,
  gender: resident.gender,
  birthDate: resident.birthDate ? dayjs(resident.birthDate, BIRTH_DATE_FORMAT) : null,
  height: resident.height,
  weight: resident.weight,
  medicalHistory: [...resident.medicalHistory],
  otherHistory: resident.otherHistory ?? undefined,
  contacts: resident.contacts.map((c) => ({ id: c.id, name: c.name, phone: c.phone, relation: c.relation })),
  priority: resident.priority,
  remark: resident.remark ?? undefined,
  caregiverIds: resident.carers.map((c) => c.id),
  communityId: resident.communityId,
});

const text = (value: string | undefined): string | null => value?.trim() || null;

/**
 * The request fields of validated form values. Every field is sent, so an edit that empties one
 * clears it (updateUser: null clears); the other-history text goes only with the "others" flag.
 */
export const residentFields = (values: ResidentFormValues): ResidentFields => {
  const history = values.medicalHistory ?? [];
  return {
    name: (values.name ?? '').trim(),
    gender: values.gender ?? 0,
    birthDate: values.birthDate ? values.birthDate.format(BIRTH_DATE_FORMAT) : '',
    height: values.height ?? null,
    weight: values.weight ?? null,
    medicalHistory: history,
    otherHistory: history.includes('others') ? text(values.otherHistory) : null,
    contacts: (values.contacts ?? []).map((c) => ({
      ...(c.id !== undefined ? { id: c.id } : {}),
      name: (c.name ?? '').trim(),
      phone: (c.phone ?? '').trim(),
      relation: c.relation ?? 'relative',
    })),
    priority: values.priority ?? false,
    remark: text(values.remark),
    caregiverIds: values.caregiverIds ?? [],
    communityId: values.communityId ?? null,
  };
};

export type BirthDateProblem = 'required' | 'future' | 'tooOld';
/** The server's birth-date rules: not in the future, an age of at most 130 years. */
export const birthDateProblem = (value: Dayjs | null | undefined, today: Dayjs = dayjs()): BirthDateProblem | null => {
  if (!value) return 'required';
  if (value.isAfter(today, 'day')) return 'future';
  // Born on this day 131 years ago or earlier: 131 or older.
  if (!value.isAfter(today.subtract(RESIDENT_LIMITS.maxAgeYears + 1, 'year'), 'day')) return 'tooOld';
  return null;
};

export type PhoneProblem = 'required' | 'invalid' | 'duplicate';
/** A contact's phone: valid by the server's rule, and not another contact's number of this resident. */
export const phoneProblem = (
  phone: string | undefined,
  others: readonly (string | undefined)[],
): PhoneProblem | null => {
  if (!phone?.trim()) return 'required';
  const normalised = normalisePhone(phone);
  if (normalised === null) return 'invalid';
  return others.some((o) => o !== undefined && normalisePhone(o) === normalised) ? 'duplicate' : null;
};
