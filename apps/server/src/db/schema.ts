import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const providers = pgTable(
  'provider',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    number: text('number').notNull(),
    domain: text('domain').notNull(),
    parentId: integer('parent_id'),
    providerClass: smallint('provider_class').notNull(),
    logoUrl: text('logo_url'),
    platformName: text('platform_name'),
    enabled: boolean('enabled').notNull().default(true),
    remark: text('remark'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [
    foreignKey({ name: 'provider_parent_fk', columns: [t.parentId], foreignColumns: [t.id] }),
    uniqueIndex('provider_name_live')
      .on(sql`lower(${t.name})`)
      .where(sql`${t.deletedAt} is null`),
    uniqueIndex('provider_number_live')
      .on(sql`lower(${t.number})`)
      .where(sql`${t.deletedAt} is null`),
    uniqueIndex('provider_domain').on(t.domain),
    index('provider_parent_idx').on(t.parentId),
  ],
);

export const accounts = pgTable(
  'account',
  {
    id: serial('id').primaryKey(),
    userName: text('user_name').notNull(),
    displayName: text('display_name').notNull(),
    role: text('role').notNull(),
    providerId: integer('provider_id').references(() => providers.id),
    passwordHash: text('password_hash').notNull(),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    permissionType: smallint('permission_type').notNull().default(0),
    remark: text('remark'),
    failedLogins: integer('failed_logins').notNull().default(0),
    firstFailedAt: ts('first_failed_at'),
    lockedUntil: ts('locked_until'),
    lastLoginAt: ts('last_login_at'),
    createdBy: integer('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [
    uniqueIndex('account_user_name_live')
      .on(sql`lower(${t.userName})`)
      .where(sql`${t.deletedAt} is null`),
    index('account_provider_idx').on(t.providerId),
  ],
);

/** Data permission: the providers an account with permission type 1 may see. */
export const accountProviders = pgTable(
  'account_provider',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.providerId] })],
);

export const sessions = pgTable(
  'session',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull(),
    socketKey: text('socket_key').notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    currentProviderId: integer('current_provider_id').references(() => providers.id),
    channel: text('channel').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
    revokeReason: text('revoke_reason'),
  },
  (t) => [
    uniqueIndex('session_token_hash').on(t.tokenHash),
    uniqueIndex('session_socket_key').on(t.socketKey),
    index('session_account_idx').on(t.accountId),
  ],
);

/** Fast-login signatures already used; kept past the accepted clock skew, then purged. */
export const ssoNonces = pgTable('sso_nonce', {
  signature: text('signature').primaryKey(),
  usedAt: ts('used_at').notNull(),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull().defaultNow(),
    actorId: integer('actor_id'),
    actorName: text('actor_name'),
    providerId: integer('provider_id'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    ip: text('ip'),
  },
  (t) => [index('audit_log_at').on(t.at), index('audit_log_provider').on(t.providerId, t.at)],
);

/** Instance-wide settings shared by every server instance (platform name, RSA key). */
export const settings = pgTable('setting', {
  key: text('key').primaryKey(),
  value: jsonb('value').$type<unknown>().notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const files = pgTable('stored_file', {
  id: uuid('id').primaryKey(),
  providerId: integer('provider_id').references(() => providers.id),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  bytes: bytea('bytes').notNull(),
  uploadedBy: integer('uploaded_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
});
