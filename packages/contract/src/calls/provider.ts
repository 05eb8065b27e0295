import { z } from 'zod';
import { defineCall } from '../call.ts';
import { flag, intId, loginAccount, logoUrl, nothing, pageOf, pageQuery, remark } from './common.ts';

const MANAGERS = ['SUPER_ROLE', 'SENIOR_ROLE', 'BUSINESS_ROLE', 'ONE_ROLE'] as const;

export const ProviderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  number: z.string(),
  domain: z.string(),
  userName: z.string().nullable().describe('Login account of the provider'),
  providerClass: z.union([z.literal(1), z.literal(2)]),
  parentId: z.number().int().nullable(),
  parentName: z.string().nullable(),
  logoUrl: z.string().nullable(),
  platformName: z.string().nullable(),
  enabled: z.boolean(),
  remark: z.string().nullable(),
  createTime: z.string(),
  loginLockedUntil: z
    .string()
    .nullable()
    .optional()
    .describe('In lists: the login account is locked after failed passwords until this time; /account/unlock lifts it'),
});
export type Provider = z.infer<typeof ProviderSchema>;

const providerName = z.string().trim().min(1).max(64);
const providerNumber = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{1,32}$/);
const platformName = z.string().trim().min(1).max(20);

export const queryProviderList = defineCall({
  method: 'POST',
  path: '/provider/queryProviderList',
  auth: MANAGERS,
  input: 'json',
  request: z.object({
    ...pageQuery,
    keyWord: z.string().trim().max(64).optional(),
    providerClass: z.union([z.literal(1), z.literal(2)]).optional(),
    parentId: intId.optional(),
    enabled: flag.optional(),
  }),
  result: pageOf(ProviderSchema),
  summary: 'Providers visible to the caller, newest first',
  tag: 'provider',
});

export const insertProvider = defineCall({
  method: 'POST',
  path: '/provider/insertProvider',
  creates: true,
  auth: MANAGERS,
  input: 'json',
  request: z.object({
    name: providerName,
    number: providerNumber.optional(),
    userName: loginAccount,
    passWord: z.string().min(1).max(1024).optional(),
    rsa: flag.default(false),
    parentId: intId
      .optional()
      .describe('Class 1 parent: makes a class 2 provider. Class 1 callers always create under themselves'),
    logoUrl: logoUrl.optional(),
    platformName: platformName.optional(),
    remark: remark.optional(),
  }),
  result: z.object({
    id: z.number().int(),
    initialPassword: z.string().nullable().describe('Generated password, shown once, when none was given'),
  }),
  summary: 'Create a provider and its login account',
  tag: 'provider',
});

export const restProviderPwd = defineCall({
  method: 'POST',
  path: '/provider/restProviderPwd',
  auth: MANAGERS,
  input: 'json',
  request: z.object({ id: intId }),
  result: z.object({ initialPassword: z.string() }),
  summary: "Reset the provider login account's password to a new generated one, shown once",
  tag: 'provider',
});

export const operateProvider = defineCall({
  method: 'POST',
  path: '/provider/operateProvider',
  auth: MANAGERS,
  input: 'json',
  request: z.object({
    id: intId,
    type: z.enum(['edit', 'enable', 'disable']),
    name: providerName.optional(),
    number: providerNumber.optional(),
    logoUrl: logoUrl.nullable().optional(),
    platformName: platformName.nullable().optional(),
    remark: remark.nullable().optional(),
  }),
  result: nothing,
  summary: 'Edit, enable or disable a provider; disabling blocks the login of all its accounts and subordinates',
  tag: 'provider',
});

export const getProvider = defineCall({
  method: 'GET',
  path: '/provider/getProvider',
  auth: [...MANAGERS, 'TWO_ROLE', 'SUB_ROLE'],
  input: 'query',
  request: z.object({ id: intId }),
  result: ProviderSchema,
  summary: 'One provider visible to the caller',
  tag: 'provider',
});

export const deleteProvider = defineCall({
  method: 'GET',
  path: '/provider/deleteProvider',
  auth: MANAGERS,
  input: 'query',
  request: z.object({ id: intId }),
  result: nothing,
  summary: 'Delete a provider without subordinates; its accounts are cancelled',
  tag: 'provider',
});
