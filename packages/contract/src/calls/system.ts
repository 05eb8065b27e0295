import { z } from 'zod';
import { CONSTANTS } from '../constants.ts';
import { defineCall, type BinaryBody, type UploadedFile } from '../call.ts';
import { intId, LOGO_SETTERS, logoUrl, nothing, pageOf, pageQuery } from './common.ts';

export const PlatformSettingSchema = z.object({ platformName: z.string(), logoUrl: z.string().nullable() });
/** The name and logo an account sees (its provider's own, else its parent's, else the platform's). */
export type PlatformInfo = z.infer<typeof PlatformSettingSchema>;

export const getPlatformName = defineCall({
  method: 'GET',
  path: '/system/platformName/get',
  auth: 'optional',
  input: 'query',
  request: z.object({}),
  result: PlatformSettingSchema,
  summary: "Platform name and logo; with a session, the caller's provider branding when it has one",
  beforePasswordChange: true,
  tag: 'system',
});

export const postPlatformName = defineCall({
  method: 'POST',
  path: '/system/platformName/post',
  auth: ['SENIOR_ROLE', 'ONE_ROLE', 'TWO_ROLE'],
  input: 'json',
  request: z.object({
    platformName: z.string().trim().min(1, { error: 'platformName.length' }).max(20, { error: 'platformName.length' }),
    logoUrl: logoUrl.nullable().optional().describe('Omitted: unchanged; null: removed'),
  }),
  result: nothing,
  summary:
    "Set the platform name and logo: SENIOR_ROLE the platform's, class 1 and class 2 providers their own (shown to their accounts and, for class 1, to class 2 providers without their own)",
  tag: 'system',
});

export const uploadLogo = defineCall({
  method: 'POST',
  path: '/system/upload',
  auth: LOGO_SETTERS,
  input: 'multipart',
  maxUploadBytes: CONSTANTS.logo.maxBytes,
  request: z.object({ file: z.custom<UploadedFile>().optional() }),
  result: z.object({ url: z.string(), size: z.number().int() }),
  summary:
    'Upload a logo: a whole, valid PNG of exactly 200×200 px under 100 KB. Replaces the uploader’s earlier logos that no provider or platform setting uses',
  tag: 'system',
});

export const getFile = defineCall({
  method: 'GET',
  path: '/system/file',
  auth: 'public',
  input: 'query',
  request: z.object({ id: z.string().uuid() }),
  result: z.custom<BinaryBody>(),
  produces: 'binary',
  summary: 'An uploaded logo (public so the login page and favicon can show it)',
  tag: 'system',
});

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  time: z.string(),
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
  providerId: z.number().int().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
});

export const queryAuditLog = defineCall({
  method: 'POST',
  path: '/system/auditLog',
  auth: ['SUPER_ROLE', 'SENIOR_ROLE', 'ONE_ROLE', 'TWO_ROLE'],
  input: 'json',
  request: z.object({
    ...pageQuery,
    action: z.string().trim().max(64).optional(),
    keyWord: z.string().trim().max(64).optional(),
    providerId: intId.optional(),
  }),
  result: pageOf(AuditEntrySchema),
  summary: 'Audit log of logins, logouts, password, provider and account changes visible to the caller',
  tag: 'system',
});
