import { z } from 'zod';
import { defineCall } from '../call.ts';
import { ROLES } from '../roles.ts';
import { flag, intId, loginAccount, pageOf, pageQuery, remark } from './common.ts';

const ACCOUNT_MANAGERS = ['SUPER_ROLE', 'SENIOR_ROLE', 'BUSINESS_ROLE', 'ONE_ROLE', 'TWO_ROLE'] as const;

export const AccountSchema = z.object({
  id: z.number().int(),
  userName: z.string(),
  nickName: z.string(),
  role: z.enum(ROLES),
  providerId: z.number().int().nullable(),
  providerName: z.string().nullable(),
  permissionType: z.number().int(),
  providerIds: z
    .array(z.number().int())
    .describe('Data permission: providers this account may see when permissionType is 1'),
  enabled: z.boolean(),
  remark: z.string().nullable(),
  lastLoginTime: z.string().nullable(),
  createTime: z.string(),
  lockedUntil: z
    .string()
    .nullable()
    .describe('Sign-in locked after failed passwords until this time (from at least one address); null: not locked'),
});
export type Account = z.infer<typeof AccountSchema>;

const nickName = z.string().trim().min(1).max(64);
const permissionType = z.union([z.literal(0), z.literal(1)]);

export const queryAccountList = defineCall({
  method: 'POST',
  path: '/account/queryAccountList',
  auth: ACCOUNT_MANAGERS,
  input: 'json',
  request: z.object({
    ...pageQuery,
    keyWord: z.string().trim().max(64).optional(),
    role: z.enum(ROLES).optional(),
    enabled: flag.optional(),
  }),
  result: pageOf(AccountSchema),
  summary: 'Accounts the caller manages, newest first',
  tag: 'account',
});

export const insertAccount = defineCall({
  method: 'POST',
  path: '/account/insertAccount',
  creates: true,
  auth: ACCOUNT_MANAGERS,
  input: 'json',
  request: z.object({
    userName: loginAccount,
    nickName,
    role: z.enum(ROLES),
    passWord: z.string().min(1).max(1024).optional(),
    rsa: flag.default(false),
    providerId: intId
      .optional()
      .describe('Provider the account belongs to (platform callers); provider callers: their own'),
    permissionType: permissionType.default(0),
    providerIds: z.array(intId).max(1000).default([]),
    remark: remark.optional(),
  }),
  result: z.object({ id: z.number().int(), initialPassword: z.string().nullable() }),
  summary: 'Create a sub-account, installer, social worker or viewer account',
  tag: 'account',
});

export const operateAccount = defineCall({
  method: 'POST',
  path: '/account/operate',
  auth: ACCOUNT_MANAGERS,
  input: 'json',
  request: z.object({
    id: intId,
    type: z.enum(['edit', 'enable', 'disable', 'resetPassword']),
    nickName: nickName.optional(),
    permissionType: permissionType.optional(),
    providerIds: z.array(intId).max(1000).optional(),
    remark: remark.nullable().optional(),
  }),
  result: z.object({ initialPassword: z.string().nullable() }),
  summary: 'Edit, enable, disable or reset the password of an account',
  tag: 'account',
});

export const changeProvider = defineCall({
  method: 'POST',
  path: '/account/changeProvider',
  auth: 'session',
  input: 'json',
  request: z.object({ domain: z.string().trim().min(1).max(64) }),
  result: z.object({ providerId: z.number().int(), providerName: z.string(), domain: z.string() }),
  summary: 'Choose the provider the session works on (class 1 and multi-provider accounts)',
  tag: 'account',
  loginSensitive: true,
});

export const unlockAccount = defineCall({
  method: 'POST',
  path: '/account/unlock',
  auth: ['SUPER_ROLE', 'SENIOR_ROLE', 'BUSINESS_ROLE', 'ONE_ROLE', 'TWO_ROLE'],
  input: 'json',
  request: z.object({ userName: z.string().trim().min(1).max(64).describe('Login account to unlock') }),
  result: z.object({ cleared: z.number().int().describe('Addresses whose lock or failure count was lifted') }),
  summary:
    'Lift the sign-in lock of an account the caller manages (its own accounts, or the login account of a provider ' +
    'it manages), from every address. Documented extra.',
  tag: 'account',
});
