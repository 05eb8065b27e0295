import { z } from 'zod';
import {
  ALARM_NOTIFY_MODES,
  CAREGIVER_LEVELS,
  COMMUNITY_ALARM_TYPES,
  LEAVE_BED_MODES,
  MATTRESSES,
  MAX_RESIDENTS_PER_CAREGIVER,
  normalisePhone,
  SLEEP_SENSITIVITIES,
} from '../domain.ts';
import { defineCall, type CallDef } from '../call.ts';
import { flag, intId, loginAccount, nothing, pageOf, pageQuery, remark } from './common.ts';

/**
 * Caregivers (nursing staff, the spec's "nursing" calls), relatives' app bindings and community
 * care providers. The console's two nurse-manage variants (domestic, overseas flag) use the same
 * calls and fields; overseas caregivers differ only in their phone numbers, which is why phones
 * accept E.164 as well as Chinese mobile numbers.
 */

/** Who manages caregivers and communities: provider logins and sub-accounts, platform administrators within their scope. */
const CARE_MANAGERS = ['SUPER_ROLE', 'SENIOR_ROLE', 'ONE_ROLE', 'TWO_ROLE', 'SUB_ROLE'] as const;

/** A phone number, normalised by normalisePhone. */
export const phoneNumber = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .transform((value, ctx) => {
    const normalised = normalisePhone(value);
    if (normalised === null) {
      ctx.issues.push({ code: 'custom', message: 'validation.phone', input: value });
      return z.NEVER;
    }
    return normalised;
  })
  .describe(
    'Mobile number: Chinese mobile (stored as its 11 digits) or international with country code (stored as +E.164)',
  );

/** Control characters: never wanted in a name, and PostgreSQL text cannot hold NUL at all. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /^[^\u0000-\u001f\u007f-\u009f]*$/;
/** The same, but line breaks and tabs allowed (remarks). */
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_BUT_LINES = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;

/** One line of text, trimmed, at most `max` characters. */
const line = (max: number) => z.string().trim().max(max).regex(CONTROL, { error: 'validation.controlChars' });
/** A remark: at most 200 characters, several lines allowed. */
const note = remark.regex(CONTROL_BUT_LINES, { error: 'validation.controlChars' });
const keyWord = line(64);

const caregiverName = line(64).min(1);
const job = line(64);
const level = z.enum(CAREGIVER_LEVELS).describe('normal (general caregiver) or lead (senior caregiver)');
const residentIds = z
  .array(intId)
  .max(MAX_RESIDENTS_PER_CAREGIVER, { error: 'caregiver.residentLimit' })
  .describe(`Residents the caregiver looks after (at most ${MAX_RESIDENTS_PER_CAREGIVER}); duplicates are ignored`);

export const CaregiverSchema = z.object({
  id: z.number().int(),
  providerId: z.number().int(),
  providerName: z.string().nullable(),
  name: z.string(),
  phone: z.string(),
  job: z.string().nullable(),
  level: z.enum(CAREGIVER_LEVELS),
  enabled: z.boolean(),
  userName: z.string().nullable().describe('Login account of the caregiver app'),
  residents: z.array(z.object({ id: z.number().int(), name: z.string() })).describe('Linked residents'),
  remark: z.string().nullable(),
  createTime: z.string(),
});
export type Caregiver = z.infer<typeof CaregiverSchema>;

export const queryNursingList = defineCall({
  method: 'POST',
  path: '/nursing/queryNursingList',
  auth: CARE_MANAGERS,
  input: 'json',
  request: z.object({
    ...pageQuery,
    keyWord: keyWord.optional().describe('Part of the name, phone or login account'),
    level: level.optional(),
    enabled: flag.optional(),
    id: intId.optional().describe('Only this caregiver (the edit page reads one by id); another tenant’s lists none'),
  }),
  result: pageOf(CaregiverSchema),
  summary: "Caregivers of the caller's providers (the chosen provider when there is one), newest first",
  tag: 'nursing',
});

export const insertNursing = defineCall({
  method: 'POST',
  path: '/nursing/insertNursing',
  creates: true,
  auth: CARE_MANAGERS,
  input: 'json',
  request: z.object({
    name: caregiverName,
    phone: phoneNumber,
    job: job.optional(),
    level: level.default('normal'),
    residentIds: residentIds.default([]),
    userName: loginAccount
      .optional()
      .describe('Login account of the caregiver app; the normalised phone number when omitted'),
    providerId: intId
      .optional()
      .describe('Provider of the caregiver (platform callers); provider callers: the chosen or their own'),
    remark: note.optional(),
  }),
  result: z.object({
    id: z.number().int(),
    userName: z.string().describe('Login account of the caregiver app'),
    initialPassword: z.string().describe('Generated password of the app account, shown once'),
  }),
  summary: 'Create a caregiver with an app login account (role CARER) and a generated password',
  tag: 'nursing',
});

export const operateNursing = defineCall({
  method: 'POST',
  path: '/nursing/operate',
  auth: CARE_MANAGERS,
  input: 'json',
  request: z.object({
    id: intId,
    type: z.enum(['edit', 'enable', 'disable']),
    name: caregiverName.optional(),
    phone: phoneNumber.optional(),
    job: job.nullable().optional(),
    level: level.optional(),
    residentIds: residentIds.optional().describe('Replaces the linked residents when given'),
    remark: note.nullable().optional(),
  }),
  result: nothing,
  summary:
    'Edit, enable or disable a caregiver; disabling also disables its app account and ends its sessions. ' +
    'The login account does not change with the phone number',
  tag: 'nursing',
});

export const resetNursingPassword = defineCall({
  method: 'POST',
  path: '/nursing/resetPassword',
  auth: CARE_MANAGERS,
  input: 'json',
  request: z.object({ id: intId }),
  result: z.object({ initialPassword: z.string().describe('New generated password, shown once') }),
  summary: "Reset the caregiver app account's password to a generated one and end its sessions",
  tag: 'nursing',
});

export const deleteNursing = defineCall({
  method: 'POST',
  path: '/nursing/deleteNursing',
  auth: CARE_MANAGERS,
  input: 'json',
  request: z.object({ id: intId }),
  result: nothing,
  summary: 'Delete a caregiver: its resident links go and its app account is cancelled',
  tag: 'nursing',
});

export const deleteUserFamily = defineCall({
  method: 'GET',
  path: '/app/deleteUserFamily',
  auth: [...CARE_MANAGERS, 'CARER', 'RELATIVES'],
  input: 'query',
  request: z.object({ id: intId.describe('The relative binding: an emergency contact of a resident') }),
  result: nothing,
  summary:
    "Remove a relative's binding to a resident (the emergency contact). Caregivers may remove those of the " +
    'residents they look after, relatives only their own',
  tag: 'family',
});

// --- Communities ---------------------------------------------------------------------------

const alarmTypes = z.array(z.enum(COMMUNITY_ALARM_TYPES)).max(COMMUNITY_ALARM_TYPES.length);

export const CommunityAlarmConfigSchema = z.object({
  level1: z.array(z.enum(COMMUNITY_ALARM_TYPES)).describe('Alarm types raised as level 1 (red)'),
  level2: z
    .array(z.enum(COMMUNITY_ALARM_TYPES))
    .describe("Alarm types raised as level 2 (orange); a type in neither list takes the provider's level"),
  receiverIds: z.array(z.number().int()).describe('Caregivers who receive the alarms'),
  notify: z.array(z.enum(ALARM_NOTIFY_MODES)),
});
export type CommunityAlarmConfig = z.infer<typeof CommunityAlarmConfigSchema>;

const clockTime = z
  .string()
  .trim()
  .min(1)
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'validation.time' })
  .describe('HH:mm, 00:00 to 23:59');

/** Sleep settings of one resident. */
export const sleepConfigFields = {
  leaveBedMode: z
    .enum(LEAVE_BED_MODES)
    .describe('Bed-leaving watch: off, allDay, or sleepTime (only between sleepTime and wakeTime)'),
  sleepTime: clockTime.describe('Usual time to sleep, HH:mm'),
  wakeTime: clockTime.describe('Usual time to wake, HH:mm (may be on the next day); differs from sleepTime'),
  sensitivity: z.enum(SLEEP_SENSITIVITIES).describe('Sleep monitor sensitivity'),
  mattress: z.enum(MATTRESSES).describe('Mattress material'),
};
export const SleepConfigSchema = z.object({
  leaveBedMode: z.enum(LEAVE_BED_MODES),
  sleepTime: z.string(),
  wakeTime: z.string(),
  sensitivity: z.enum(SLEEP_SENSITIVITIES),
  mattress: z.enum(MATTRESSES),
});
export type SleepConfig = z.infer<typeof SleepConfigSchema>;

export const CommunitySchema = z.object({
  id: z.number().int(),
  providerId: z.number().int(),
  providerName: z.string().nullable(),
  name: z.string(),
  address: z.string().nullable(),
  contact: z.string().nullable(),
  phone: z.string().nullable(),
  remark: z.string().nullable(),
  residentCount: z.number().int().describe('Residents of the community'),
  alarmConfig: CommunityAlarmConfigSchema.nullable(),
  createTime: z.string(),
});
export type Community = z.infer<typeof CommunitySchema>;

export const insertCommunity = defineCall({
  method: 'POST',
  path: '/community/insertCommunity',
  creates: true,
  auth: CARE_MANAGERS,
  input: 'json',
  request: z.object({
    name: line(64).min(1).describe('Unique within the provider'),
    address: line(200).optional(),
    contact: line(64).optional().describe('Contact person'),
    phone: phoneNumber.optional(),
    providerId: intId
      .optional()
      .describe('Provider of the community (platform callers); provider callers: the chosen or their own'),
    remark: note.optional(),
  }),
  result: z.object({ id: z.number().int() }),
  summary: 'Create a community (community care provider)',
  tag: 'community',
});

export const updateCommunity = defineCall({
  method: 'POST',
  path: '/community/updateCommunity',
  auth: CARE_MANAGERS,
  input: 'json',
  request: z.object({
    id: intId,
    name: line(64).min(1).describe('Unique within the provider'),
    address: line(200).nullable().optional().describe('null clears it'),
    contact: line(64).nullable().optional().describe('Contact person; null clears it'),
    phone: phoneNumber.nullable().optional().describe('null clears it'),
    remark: note.nullable().optional().describe('null clears it'),
  }),
  result: nothing,
  summary: "Edit a community's name and details (its members and settings stay). Documented extra.",
  tag: 'community',
});

export const queryCommunityList = defineCall({
  method: 'POST',
  path: '/community/queryCommunityList',
  auth: CARE_MANAGERS,
  input: 'json',
  request: z.object({
    ...pageQuery,
    keyWord: keyWord.optional().describe('Part of the name, address, contact or phone'),
    providerId: intId
      .optional()
      .describe('Only this provider’s communities (it must be visible to the caller; otherwise none)'),
  }),
  result: pageOf(CommunitySchema),
  summary: "Communities of the caller's providers (the chosen provider when there is one), newest first",
  tag: 'community',
});

export const saveUserSleepConfig = defineCall({
  method: 'POST',
  path: '/community/saveUserSleepConfig',
  auth: CARE_MANAGERS,
  input: 'json',
  request: z.object({ communityId: intId, residentId: intId, ...sleepConfigFields }),
  result: nothing,
  summary: 'Save the sleep settings of one resident of a community',
  tag: 'community',
});

export const saveUserSleepConfigs = defineCall({
  method: 'POST',
  path: '/community/saveUserSleepConfigs',
  auth: CARE_MANAGERS,
  input: 'json',
  request: z.object({
    communityId: intId,
    residentIds: z.array(intId).min(1).max(1000).describe('Residents of the community; duplicates are ignored'),
    ...sleepConfigFields,
  }),
  result: z.object({ count: z.number().int().describe('Residents whose settings were saved') }),
  summary: 'Save the same sleep settings for several residents of a community (all or none)',
  tag: 'community',
});

export const getUserSleepConfig = defineCall({
  method: 'GET',
  path: '/community/getUserSleepConfig',
  auth: CARE_MANAGERS,
  input: 'query',
  request: z.object({ communityId: intId, residentId: intId }),
  result: SleepConfigSchema.extend({ updateTime: z.string() }).nullable().describe('null: never saved'),
  summary: 'The saved sleep settings of one resident of a community (outside the spec: the console shows them)',
  tag: 'community',
});

export const saveAlarmConfig = defineCall({
  method: 'POST',
  path: '/community/saveAlarmConfig',
  auth: CARE_MANAGERS,
  input: 'json',
  request: z.object({
    communityId: intId,
    level1: alarmTypes.default([]).describe('Alarm types raised as level 1 (red)'),
    level2: alarmTypes
      .default([])
      .describe("Alarm types raised as level 2 (orange); a type in neither list takes the provider's level"),
    receiverIds: z
      .array(intId)
      .max(100)
      .default([])
      .describe("Enabled caregivers of the community's provider who receive its alarms"),
    notify: z.array(z.enum(ALARM_NOTIFY_MODES)).min(1).max(3).default(['page']).describe('How receivers are told'),
  }),
  result: nothing,
  summary: 'Save the alarm settings of a community: alarm levels, receivers and notification modes',
  tag: 'community',
});

export const deleteCommunity = defineCall({
  method: 'POST',
  path: '/community/deleteCommunity',
  auth: CARE_MANAGERS,
  input: 'json',
  request: z.object({ id: intId }),
  result: nothing,
  summary: 'Delete a community that no resident belongs to',
  tag: 'community',
});

/** Calls of the caregivers domain (issue 4). */
export const caregiverCalls = {
  queryNursingList,
  insertNursing,
  operateNursing,
  resetNursingPassword,
  deleteNursing,
  deleteUserFamily,
  insertCommunity,
  updateCommunity,
  queryCommunityList,
  saveUserSleepConfig,
  saveUserSleepConfigs,
  getUserSleepConfig,
  saveAlarmConfig,
  deleteCommunity,
} as const satisfies Record<string, CallDef>;
