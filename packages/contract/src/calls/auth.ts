import { z } from 'zod';
import { defineCall } from '../call.ts';
import { DEVICE_GROUP_NAMES } from '../domain.ts';
import { LOGIN_FROM, PROVIDER_ROLES, ROLES } from '../roles.ts';
import { flag, nothing } from './common.ts';

export const ProviderOptionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  domain: z.string(),
  available: z.boolean(),
});
export type ProviderOption = z.infer<typeof ProviderOptionSchema>;

/** Session data a client keeps after login (spec document 2, section 3). */
export const SessionInfoSchema = z.object({
  key: z.string().describe('Key for the live socket /login message'),
  permissionType: z.number().int().describe('0: all data of the provider scope, 1: selected providers only'),
  voiceFlag: z.boolean(),
  role: z.enum(ROLES),
  providerRole: z.enum(PROVIDER_ROLES).nullable(),
  uploadDataFlag: z.boolean(),
  menuList: z.array(z.string()),
  landingPath: z.string(),
  userId: z.number().int(),
  userName: z.string(),
  name: z.string(),
  domain: z.string().nullable(),
  providerId: z.number().int().nullable(),
  providerName: z.string().nullable(),
  providerList: z.array(ProviderOptionSchema),
  currentProvider: ProviderOptionSchema.nullable().describe(
    'The provider every care screen reads and writes for this session: chosen with /account/changeProvider, ' +
      "defaulted by the server (a class 1 account's first available class 2 provider); null: the whole scope",
  ),
  mustChangePassword: z.boolean(),
  abroad: z
    .boolean()
    .describe(
      "The platform's overseas edition (VIGIL_ABROAD): the console's isAbroad flag (languages, caregiver texts, " +
        'download guide, fall radar model)',
    ),
  deviceGroups: z
    .array(z.enum(DEVICE_GROUP_NAMES))
    .describe(
      'Device groups this session works with, whose screens the console shows: every group in the overseas edition, ' +
        "otherwise those with devices in the account's provider scope (platform accounts: also in the registry)",
    ),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

export const LoginResultSchema = SessionInfoSchema.extend({ token: z.string() });
export type LoginResult = z.infer<typeof LoginResultSchema>;

export const LoginSchema = z.object({
  userName: z.string().trim().min(1).max(64),
  passWord: z.string().min(1).max(1024),
  from: z.enum(LOGIN_FROM).default('PC'),
  rsa: flag.default(false),
});

export const adminLogin = defineCall({
  method: 'POST',
  path: '/admin/login',
  auth: 'public',
  input: 'json',
  request: LoginSchema,
  result: LoginResultSchema,
  summary: 'Log in with account and password (password RSA-OAEP encrypted when rsa is true)',
  tag: 'auth',
});

export const adminSso = defineCall({
  method: 'POST',
  path: '/admin/sso',
  auth: 'public',
  input: 'form',
  request: z.object({
    userName: z.string().trim().min(1).max(64),
    secretPassword: z.string().regex(/^[0-9a-fA-F]{64}$/),
    timestamp: z.string().regex(/^\d{10}$/),
    from: z.enum(LOGIN_FROM).default('PC'),
  }),
  result: LoginResultSchema,
  summary: 'Fast login: secretPassword = hex HMAC-SHA256(VIGIL_SSO_SECRET, userName + timestamp)',
  tag: 'auth',
});

export const adminLogout = defineCall({
  method: 'GET',
  path: '/admin/logout',
  auth: 'session',
  input: 'query',
  request: z.object({}),
  result: nothing,
  summary: 'End the current session',
  beforePasswordChange: true,
  tag: 'auth',
});

export const adminUpdatePassword = defineCall({
  method: 'POST',
  path: '/admin/updatePassword',
  auth: 'session',
  input: 'json',
  request: z.object({
    userName: z.string().trim().min(1).max(64),
    oldPassWord: z.string().min(1).max(1024),
    newPassWord: z.string().min(1).max(1024),
    rsa: flag.default(false),
  }),
  result: nothing,
  summary: 'Change the signed-in account password; every session of the account ends',
  beforePasswordChange: true,
  tag: 'auth',
  loginSensitive: true,
});

export const adminPublicKey = defineCall({
  method: 'GET',
  path: '/admin/publicKey',
  auth: 'public',
  input: 'query',
  request: z.object({}),
  result: z.object({
    publicKey: z.string().describe('SPKI PEM of the RSA key'),
    algorithm: z.literal('RSA-OAEP-256'),
  }),
  summary: 'The RSA public key login passwords are encrypted with (RSA-OAEP, SHA-256, base64 ciphertext)',
  tag: 'auth',
});

export const adminSession = defineCall({
  method: 'GET',
  path: '/admin/getInfo',
  auth: 'session',
  input: 'query',
  request: z.object({}),
  result: SessionInfoSchema,
  summary: 'Session data of the current token (role, menus, providers) for a reloaded console',
  beforePasswordChange: true,
  tag: 'auth',
  loginSensitive: true,
});
