import { z } from 'zod';
import { CONTACT_RELATIONS, MEDICAL_HISTORY, RESIDENT_LIMITS, RESIDENT_STATES } from '../domain.ts';
import { defineCall, type CallDef } from '../call.ts';
import type { Role } from '../roles.ts';
import { phoneNumber } from './caregivers.ts';
import { flag, intId, nothing, pageOf, pageQuery, remark } from './common.ts';

/**
 * Residents (the spec's "users"), their emergency contacts, linked carers and temporary
 * absences (issue 4). Wire names follow the spec (`user…`); occupancy (check-in, check-out,
 * beds) belongs to the facility calls.
 */

/** Provider accounts that manage residents (the console's people-manage screens). */
const MANAGERS = ['ONE_ROLE', 'TWO_ROLE', 'SUB_ROLE'] as const satisfies readonly Role[];
/** Staff who look after residents day to day: they read residents and record temporary absences. */
const CARE_STAFF = [...MANAGERS, 'SOCIAL_WORKER', 'CARER'] as const satisfies readonly Role[];

/**
 * Whether text holds control characters: PostgreSQL cannot store NUL, and the others only hide
 * in names. Free text may keep tabs and line breaks.
 */
const hasControl = (s: string, allowBreaks: boolean): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x7f || (c < 0x20 && !(allowBreaks && (c === 0x09 || c === 0x0a || c === 0x0d)))) return true;
  }
  return false;
};
const noControl = (allowBreaks: boolean) => (s: string) => !hasControl(s, allowBreaks);
/** One line of text: trimmed, at most `max` characters, no control characters. */
const line = (max: number) => z.string().trim().max(max).refine(noControl(false), { error: 'resident.controlChars' });
/** Free text (remarks, history): line breaks allowed. */
const text = (max: number) => z.string().trim().max(max).refine(noControl(true), { error: 'resident.controlChars' });
const remarkText = remark.refine(noControl(true), { error: 'resident.controlChars' });

const residentName = line(RESIDENT_LIMITS.nameMaxLength).min(1);
const gender = z.union([z.literal(0), z.literal(1)]).describe('0 male, 1 female');
const birthDate = z.iso
  .date({ error: 'resident.birthDateFormat' })
  .describe(`YYYY-MM-DD; not in the future, age at most ${RESIDENT_LIMITS.maxAgeYears}`);
const bodySize = (max: number) => z.number().int().min(1).max(max);

export const EmergencyContactInput = z.object({
  id: intId.optional().describe('An existing contact of this resident being edited (update only); omitted: a new one'),
  name: line(RESIDENT_LIMITS.contactNameMaxLength).min(1),
  phone: phoneNumber.describe(
    'Normalised like caregiver phones (normalisePhone): relatives sign in with it. A Chinese mobile number is kept as 11 digits, any other as + and country code',
  ),
  relation: z.enum(CONTACT_RELATIONS),
});
export type EmergencyContactIn = z.output<typeof EmergencyContactInput>;

const contacts = z
  .array(EmergencyContactInput)
  .max(RESIDENT_LIMITS.maxContacts)
  .describe(`Emergency contacts, at most ${RESIDENT_LIMITS.maxContacts}; each phone once per resident`);
const medicalHistory = z.array(z.enum(MEDICAL_HISTORY)).max(MEDICAL_HISTORY.length).describe('Medical history flags');
const caregiverIds = z
  .array(intId)
  .max(RESIDENT_LIMITS.maxCarers)
  .describe(`Linked carers: caregivers of the resident's provider, at most ${RESIDENT_LIMITS.maxCarers}`);
const confirm = flag
  .default(false)
  .describe('Save even though a resident of the same name exists (answered with msgKey resident.sameName)');

/**
 * A resident's own fields as insertUser takes them. The spreadsheet import validates each row
 * with this schema too, then hands the rows to the residents service.
 */
export const NewResidentSchema = z.object({
  name: residentName,
  gender,
  birthDate,
  height: bodySize(RESIDENT_LIMITS.heightMax).nullable().optional().describe('cm, 1 to 255'),
  weight: bodySize(RESIDENT_LIMITS.weightMax).nullable().optional().describe('kg, 1 to 255'),
  medicalHistory: medicalHistory.default([]),
  otherHistory: text(RESIDENT_LIMITS.otherHistoryMaxLength).nullable().optional(),
  contacts: contacts.default([]),
  priority: flag.default(false).describe('Priority (focus) resident'),
  remark: remarkText.nullable().optional(),
  caregiverIds: caregiverIds.default([]),
  communityId: intId.nullable().optional().describe("Community of the resident's provider"),
});
export type NewResident = z.output<typeof NewResidentSchema>;

const ContactSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  phone: z.string(),
  relation: z.enum(CONTACT_RELATIONS),
});
const CarerSchema = z.object({ id: z.number().int(), name: z.string() });
const AbsenceSchema = z.object({
  id: z.number().int(),
  startTime: z.string(),
  endTime: z.string().nullable().describe('Expected return; the absence ends by itself then'),
  reason: z.string().nullable(),
  active: z.boolean().describe('Started and not ended: bed-leaving alarms pause'),
});

export const ResidentRowSchema = z.object({
  id: z.number().int(),
  providerId: z.number().int(),
  providerName: z.string(),
  name: z.string(),
  gender,
  birthDate: z.string().nullable(),
  age: z.number().int().nullable().describe("Whole years on the server's current date"),
  height: z.number().int().nullable(),
  weight: z.number().int().nullable(),
  medicalHistory: z.array(z.enum(MEDICAL_HISTORY)),
  priority: z.boolean(),
  remark: z.string().nullable(),
  state: z.enum(RESIDENT_STATES),
  admittedAt: z.string().nullable(),
  checkedOutAt: z.string().nullable(),
  bedId: z.number().int().nullable(),
  bedName: z.string().nullable(),
  roomId: z.number().int().nullable().describe("The bed's room, else the address kept after check-out"),
  roomName: z.string().nullable(),
  floorId: z.number().int().nullable(),
  floorName: z.string().nullable(),
  areaId: z.number().int().nullable(),
  areaName: z.string().nullable(),
  communityId: z.number().int().nullable(),
  communityName: z.string().nullable(),
  contactsCount: z.number().int(),
  carers: z.array(CarerSchema),
  away: z.boolean().describe('A temporary absence is in effect now'),
  createTime: z.string(),
});
export type ResidentRow = z.infer<typeof ResidentRowSchema>;

export const ResidentDetailSchema = ResidentRowSchema.extend({
  otherHistory: z.string().nullable(),
  loggedOffAt: z.string().nullable(),
  contacts: z.array(ContactSchema),
  absence: AbsenceSchema.nullable().describe('The open absence (current or planned), if any'),
  updateTime: z.string(),
});
export type ResidentDetail = z.infer<typeof ResidentDetailSchema>;

const ageBound = z.number().int().min(0).max(RESIDENT_LIMITS.maxAgeYears);

export const residentList = defineCall({
  method: 'POST',
  path: '/userManagement/userList',
  auth: CARE_STAFF,
  input: 'json',
  request: z
    .object({
      ...pageQuery,
      keyWord: line(RESIDENT_LIMITS.keywordMaxLength)
        .optional()
        .describe("Part of the resident's name or of an emergency contact's phone"),
      state: z.enum(RESIDENT_STATES).optional(),
      gender: gender.optional(),
      priority: flag.optional(),
      areaId: intId.optional().describe('Area/building or floor/unit: residents whose bed or address is inside it'),
      roomId: intId.optional(),
      communityId: intId.optional().describe('Members of this community'),
      ageMin: ageBound.optional(),
      ageMax: ageBound.optional(),
    })
    .refine((q) => q.ageMin === undefined || q.ageMax === undefined || q.ageMin <= q.ageMax, {
      error: 'resident.ageRange',
      path: ['ageMax'],
    }),
  result: pageOf(ResidentRowSchema),
  summary: 'Residents of the chosen provider (or every visible one), newest first',
  tag: 'resident',
});

export const residentSummary = defineCall({
  method: 'GET',
  path: '/userManagement/userSummary',
  auth: CARE_STAFF,
  input: 'query',
  request: z.object({}),
  result: z.object({
    total: z.number().int(),
    byState: z.object({
      registered: z.number().int(),
      checkedIn: z.number().int(),
      checkedOut: z.number().int(),
      loggedOff: z.number().int(),
    }),
    priority: z.number().int(),
    male: z.number().int(),
    female: z.number().int(),
    away: z.number().int().describe('Checked-in residents temporarily away now'),
  }),
  summary: 'Resident counts by state, priority and gender for the chosen provider (or every visible one)',
  tag: 'resident',
});

export const deleteResident = defineCall({
  method: 'GET',
  path: '/userManagement/deleteById',
  auth: MANAGERS,
  input: 'query',
  request: z.object({ id: intId }),
  result: z.object({
    outcome: z
      .enum(['deleted', 'loggedOff'])
      .describe('deleted: registered and never checked in, removed; loggedOff: address cleared, data kept'),
  }),
  summary:
    'Delete a resident who is not checked in. One never checked in is removed with contacts and carer links; ' +
    'anyone checked in before is logged off instead (address link cleared, data kept). Checked-in residents: ' +
    '300 resident.deleteCheckedIn',
  tag: 'resident',
});

export const insertResident = defineCall({
  method: 'POST',
  path: '/insertUser',
  creates: true,
  auth: MANAGERS,
  input: 'json',
  request: NewResidentSchema.extend({
    providerId: intId.optional().describe('Provider the resident belongs to; default: the chosen one'),
    confirm,
  }),
  result: z.object({ id: z.number().int() }),
  summary:
    'Register a resident (state registered). A same-name resident of the provider answers 300 resident.sameName until re-sent with confirm: true',
  tag: 'resident',
});

export const updateResident = defineCall({
  method: 'POST',
  path: '/updateUser',
  auth: MANAGERS,
  input: 'json',
  request: z.object({
    id: intId,
    name: residentName.optional(),
    gender: gender.optional(),
    birthDate: birthDate.optional(),
    height: bodySize(RESIDENT_LIMITS.heightMax).nullable().optional(),
    weight: bodySize(RESIDENT_LIMITS.weightMax).nullable().optional(),
    medicalHistory: medicalHistory.optional(),
    otherHistory: text(RESIDENT_LIMITS.otherHistoryMaxLength).nullable().optional(),
    contacts: contacts
      .optional()
      .describe('The full list: listed contacts with an id are edited, without one added, unlisted ones removed'),
    priority: flag.optional(),
    remark: remarkText.nullable().optional(),
    caregiverIds: caregiverIds.optional().describe('The full set of linked carers'),
    communityId: intId.nullable().optional(),
    confirm,
  }),
  result: nothing,
  summary:
    "Edit a resident's own fields; omitted fields stay, null clears. Occupancy (state, bed, room, times) is changed by check-in and check-out only",
  tag: 'resident',
});

export const getResident = defineCall({
  method: 'GET',
  path: '/getUserMessageById',
  auth: CARE_STAFF,
  input: 'query',
  request: z.object({ id: intId }),
  result: ResidentDetailSchema,
  summary: 'One resident with emergency contacts, carers, address and open absence',
  tag: 'resident',
});

const instant = z.iso.datetime({ offset: true, error: 'resident.timeFormat' });

export const startAbsence = defineCall({
  method: 'POST',
  path: '/user/transient/post',
  creates: true,
  auth: CARE_STAFF,
  input: 'json',
  request: z.object({
    userId: intId.describe('The resident (checked in)'),
    startTime: instant.optional().describe('ISO 8601 with offset; default now'),
    endTime: instant.optional().describe('Expected return; the absence ends by itself then. Omitted: until ended'),
    reason: text(RESIDENT_LIMITS.absenceReasonMaxLength).optional(),
  }),
  result: AbsenceSchema,
  summary: 'Start (or plan) a temporary absence of a checked-in resident, e.g. a hospital visit; one open at a time',
  tag: 'resident',
});

export const endAbsence = defineCall({
  method: 'GET',
  path: '/user/transient/delete',
  auth: CARE_STAFF,
  input: 'query',
  request: z.object({ userId: intId }),
  result: nothing,
  summary: 'End the open absence of a resident now (a planned one that has not started is removed)',
  tag: 'resident',
});

/** Calls of the residents domain (issue 4). */
export const residentCalls = {
  residentList,
  residentSummary,
  deleteResident,
  insertResident,
  updateResident,
  getResident,
  startAbsence,
  endAbsence,
} as const satisfies Record<string, CallDef>;
