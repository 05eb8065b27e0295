import { sql } from 'drizzle-orm';
import type { AlarmMeasure } from '@vigil/contract';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  date,
  boolean,
  check,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
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

/**
 * Failed sign-ins (and wrong old passwords) per login name — existing or not, in lower case — and
 * client address. Five within 15 minutes lock that name from that address only, so a stranger
 * cannot lock a real user out, and unknown names are counted exactly like known ones.
 */
export const loginFailures = pgTable(
  'login_failure',
  {
    userName: text('user_name').notNull(),
    ip: text('ip').notNull(),
    failures: integer('failures').notNull(),
    firstFailedAt: ts('first_failed_at').notNull(),
    lockedUntil: ts('locked_until'),
  },
  (t) => [primaryKey({ columns: [t.userName, t.ip] }), index('login_failure_ip').on(t.ip, t.firstFailedAt)],
);

/** Fast-login signatures already used; kept past the accepted clock skew, then purged. */
export const ssoNonces = pgTable('sso_nonce', {
  signature: text('signature').primaryKey(),
  usedAt: ts('used_at').notNull(),
});

/**
 * Answers of calls sent with an Idempotency-Key, per account and call: a retry with the same key
 * gets the stored answer instead of running the call again; purged after the retention window.
 */
export const idempotencyKeys = pgTable(
  'idempotency_key',
  {
    accountId: integer('account_id').notNull(),
    call: text('call').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** Null while the first request runs. */
    answer: jsonb('answer'),
    httpStatus: smallint('http_status'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.call, t.key] }), index('idempotency_key_created_idx').on(t.createdAt)],
);

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

/**
 * Domain events recorded in the transaction of their change, published after the commit; rows
 * still unpublished after a crash are published at the next start (at least once, in id order).
 */
export const eventOutbox = pgTable(
  'event_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type').notNull(),
    providerId: integer('provider_id'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    publishedAt: ts('published_at'),
  },
  (t) => [
    index('event_outbox_unpublished')
      .on(t.id)
      .where(sql`${t.publishedAt} is null`),
  ],
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

// ---------------------------------------------------------------------------
// Facility model (issue 4). Every row belongs to one provider (tenant).

/** Areas/buildings (parent null) and the floors/units inside them (parent = the area). */
export const areas = pgTable(
  'area',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    parentId: integer('parent_id'),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
    remark: text('remark'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ name: 'area_parent_fk', columns: [t.parentId], foreignColumns: [t.id] }),
    uniqueIndex('area_name_unique').on(t.providerId, sql`coalesce(${t.parentId}, 0)`, sql`lower(${t.name})`),
    index('area_parent_idx').on(t.parentId),
  ],
);

export const rooms = pgTable(
  'room',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    /** The floor/unit (an area row with a parent). */
    floorId: integer('floor_id')
      .notNull()
      .references(() => areas.id),
    name: text('name').notNull(),
    remark: text('remark'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('room_name_unique').on(t.floorId, sql`lower(${t.name})`),
    index('room_provider_idx').on(t.providerId),
  ],
);

/** A bed holds at most one device and one resident (unique links, moved atomically). */
export const beds = pgTable(
  'bed',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    roomId: integer('room_id')
      .notNull()
      .references(() => rooms.id),
    name: text('name').notNull(),
    /** sponge | spring | latex */
    mattress: text('mattress').notNull().default('sponge'),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    residentId: integer('resident_id').references(() => residents.id, { onDelete: 'set null' }),
    remark: text('remark'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bed_name_unique').on(t.roomId, sql`lower(${t.name})`),
    uniqueIndex('bed_device_unique').on(t.deviceId),
    uniqueIndex('bed_resident_unique').on(t.residentId),
    index('bed_provider_idx').on(t.providerId),
  ],
);

export const communities = pgTable(
  'community',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    name: text('name').notNull(),
    address: text('address'),
    contact: text('contact'),
    phone: text('phone'),
    alarmConfig: jsonb('alarm_config').$type<Record<string, unknown>>(),
    remark: text('remark'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('community_name_unique').on(t.providerId, sql`lower(${t.name})`)],
);

/**
 * Lifecycle: registered → checkedIn (bed assigned) → checkedOut (bed emptied, data kept)
 * → loggedOff (address link cleared, data kept) → checkedIn again.
 */
export const residents = pgTable(
  'resident',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    name: text('name').notNull(),
    /** 0 male, 1 female */
    gender: smallint('gender').notNull(),
    birthDate: date('birth_date', { mode: 'string' }),
    height: smallint('height'),
    weight: smallint('weight'),
    /** hypertension, hyperlipaemia, hyperglycaemia, alzheimer, paralyze, stroke, others */
    medicalHistory: jsonb('medical_history').$type<string[]>().notNull().default([]),
    otherHistory: text('other_history'),
    remark: text('remark'),
    priority: boolean('priority').notNull().default(false),
    state: text('state').notNull().default('registered'),
    /** The address link (room) kept after check-out, cleared by log-off. */
    roomId: integer('room_id').references(() => rooms.id),
    communityId: integer('community_id').references(() => communities.id),
    admittedAt: ts('admitted_at'),
    checkedOutAt: ts('checked_out_at'),
    loggedOffAt: ts('logged_off_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('resident_provider_idx').on(t.providerId, t.state),
    index('resident_name_idx').on(t.providerId, sql`lower(${t.name})`),
  ],
);

export const emergencyContacts = pgTable(
  'emergency_contact',
  {
    id: serial('id').primaryKey(),
    residentId: integer('resident_id')
      .notNull()
      .references(() => residents.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    /** child | friend | relative */
    relation: text('relation').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('emergency_contact_resident_idx').on(t.residentId), index('emergency_contact_phone_idx').on(t.phone)],
);

/** Temporary absences (/user/transient): the resident is away, bed-leaving alarms pause. */
export const residentAbsences = pgTable(
  'resident_absence',
  {
    id: serial('id').primaryKey(),
    residentId: integer('resident_id')
      .notNull()
      .references(() => residents.id, { onDelete: 'cascade' }),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at'),
    reason: text('reason'),
    createdBy: integer('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('resident_absence_resident_idx').on(t.residentId, t.startsAt)],
);

/** Caregivers (nursing staff); each has an app login account (role CARER). */
export const caregivers = pgTable(
  'caregiver',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    accountId: integer('account_id').references(() => accounts.id),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    job: text('job'),
    /** normal | lead */
    level: text('level').notNull().default('normal'),
    enabled: boolean('enabled').notNull().default(true),
    remark: text('remark'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('caregiver_phone_unique').on(t.providerId, t.phone),
    uniqueIndex('caregiver_account_unique').on(t.accountId),
  ],
);

/** Carers linked to a resident (at most 100 per resident, and per caregiver). */
export const residentCaregivers = pgTable(
  'resident_caregiver',
  {
    residentId: integer('resident_id')
      .notNull()
      .references(() => residents.id, { onDelete: 'cascade' }),
    caregiverId: integer('caregiver_id')
      .notNull()
      .references(() => caregivers.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.residentId, t.caregiverId] }),
    index('resident_caregiver_caregiver_idx').on(t.caregiverId),
  ],
);

/** The device registry (stock): IDs of manufactured devices, loaded by administrators. */
export const deviceStock = pgTable(
  'device_stock',
  {
    id: serial('id').primaryKey(),
    /** Plaintext device ID: digits, letters and '-', stored upper-case. */
    deviceId: text('device_id').notNull(),
    cipherId: text('cipher_id'),
    typeCode: integer('type_code').notNull(),
    model: text('model'),
    imei: text('imei'),
    imei4g: text('imei_4g'),
    iccid: text('iccid'),
    firmwareType: text('firmware_type'),
    batch: text('batch'),
    importedBy: integer('imported_by').references(() => accounts.id),
    importedAt: ts('imported_at').notNull().defaultNow(),
    /**
     * What the device connects with (MQTT password), stored only as a scrypt hash
     * (modules/gateway/credentials/secret.ts); null: the device cannot connect.
     */
    secretHash: text('secret_hash'),
    secretSetAt: ts('secret_set_at'),
  },
  (t) => [uniqueIndex('device_stock_device_id').on(t.deviceId), uniqueIndex('device_stock_cipher_id').on(t.cipherId)],
);

/**
 * What devices report every second (online, last seen, battery, signal, firmware, mat): kept
 * in memory by the ingest and written here in batches, never on the `device` row, which bed
 * moves and edits lock. Keyed by the device ID a device connects with.
 */
export const deviceLiveState = pgTable('device_live_state', {
  deviceId: text('device_id').primaryKey(),
  online: boolean('online').notNull(),
  lastSeenAt: ts('last_seen_at').notNull(),
  battery: smallint('battery'),
  signal: smallint('signal'),
  firmwareVersion: text('firmware_version'),
  hardwareVersion: text('hardware_version'),
  /** connected | dislodged (sleep monitors' sensor mat) */
  mat: text('mat'),
  updatedAt: ts('updated_at').notNull(),
});

/** A registry device added by a provider. */
export const devices = pgTable(
  'device',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    stockId: integer('stock_id')
      .notNull()
      .references(() => deviceStock.id),
    deviceId: text('device_id').notNull(),
    typeCode: integer('type_code').notNull(),
    name: text('name'),
    /** wifi | nb-iot | 4g | zigbee | lora | ble | ethernet */
    commMode: text('comm_mode'),
    online: boolean('online').notNull().default(false),
    lastSeenAt: ts('last_seen_at'),
    firmwareVersion: text('firmware_version'),
    hardwareVersion: text('hardware_version'),
    signal: smallint('signal'),
    battery: smallint('battery'),
    installed: boolean('installed').notNull().default(false),
    paired: boolean('paired').notNull().default(false),
    sensorInitialised: boolean('sensor_initialised').notNull().default(false),
    sensitivity: smallint('sensitivity'),
    reportInterval: smallint('report_interval'),
    algMode: smallint('alg_mode'),
    uploadData: boolean('upload_data').notNull().default(false),
    /** The gateway host a sub-device is paired with. */
    gatewayId: integer('gateway_id'),
    /** Operator IoT platform registration (NB-IoT / 4G devices). */
    thirdPartyId: text('third_party_id'),
    thirdPartySyncedAt: ts('third_party_synced_at'),
    /** The operator's last word on the device: online | offline | unknown. */
    thirdPartyStatus: text('third_party_status'),
    /*
     * Its place (decision 0046): at most one of a room, a bed (its room implied), an area or floor,
     * a resident who wears it (badge) or a caregiver (nurse watch); none: place not set. Sleep
     * monitors and fall radars have none here: their place is the bed that holds them (bed.device_id).
     */
    placeRoomId: integer('place_room_id').references((): AnyPgColumn => rooms.id, { onDelete: 'set null' }),
    placeBedId: integer('place_bed_id').references((): AnyPgColumn => beds.id, { onDelete: 'set null' }),
    placeAreaId: integer('place_area_id').references((): AnyPgColumn => areas.id, { onDelete: 'set null' }),
    placeResidentId: integer('place_resident_id').references((): AnyPgColumn => residents.id, {
      onDelete: 'set null',
    }),
    placeCaregiverId: integer('place_caregiver_id').references((): AnyPgColumn => caregivers.id, {
      onDelete: 'set null',
    }),
    remark: text('remark'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ name: 'device_gateway_fk', columns: [t.gatewayId], foreignColumns: [t.id] }).onDelete('set null'),
    check(
      'device_one_place',
      sql`num_nonnulls(${t.placeRoomId}, ${t.placeBedId}, ${t.placeAreaId}, ${t.placeResidentId}, ${t.placeCaregiverId}) <= 1`,
    ),
    index('device_place_room_idx').on(t.placeRoomId),
    index('device_place_bed_idx').on(t.placeBedId),
    index('device_place_area_idx').on(t.placeAreaId),
    index('device_place_resident_idx').on(t.placeResidentId),
    uniqueIndex('device_device_id').on(t.deviceId),
    uniqueIndex('device_stock_unique').on(t.stockId),
    index('device_provider_idx').on(t.providerId, t.typeCode),
    index('device_gateway_idx').on(t.gatewayId),
  ],
);

/**
 * Commands for a device (restart, reporting interval, algorithm mode, sensor initialisation),
 * kept until the device gateway delivers them: pending → sent → acked (or failed); a newer
 * command of the same kind supersedes a pending one; deleting the device cancels it.
 */
export const deviceCommands = pgTable(
  'device_command',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    /** Null once the device was deleted (the command is then cancelled). */
    deviceRowId: integer('device_row_id').references(() => devices.id, { onDelete: 'set null' }),
    /** Plaintext device ID the command is addressed to. */
    deviceId: text('device_id').notNull(),
    /** restart | interval | alg_mode | force_init */
    command: text('command').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    /** pending | sent | acked | failed | expired | superseded | cancelled */
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    createdBy: integer('created_by').references(() => accounts.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    ackedAt: ts('acked_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('device_command_pending_idx')
      .on(t.deviceId, t.createdAt)
      .where(sql`${t.state} = 'pending'`),
    index('device_command_device_idx').on(t.deviceRowId),
    index('device_command_provider_idx').on(t.providerId),
  ],
);

/**
 * Every event a device reported (fall, SOS, door, smoke…) and every online/offline change the
 * server observed, with the provider, bed and resident the device served at that moment, so
 * history stays true after the device moves. Written in batches by the ingest; the durable
 * half of deduplication: a QoS 1 redelivery after a crash hits the unique index and is skipped.
 * No foreign keys: events outlive the rows they mention, and the hot path checks none.
 */
export const deviceEvents = pgTable(
  'device_event',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: text('device_id').notNull(),
    /** The device's counter; null for changes the server observed (online, offline). */
    seq: bigint('seq', { mode: 'number' }),
    /** The device's clock (`ts`); the server's for observed changes. */
    occurredAt: ts('occurred_at').notNull(),
    receivedAt: ts('received_at').notNull(),
    /** The protocol's event name, or online | offline. */
    event: text('event').notNull(),
    /** The payload's other fields (occupied, open, active, lat/lng, state; reason for offline). */
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    providerId: integer('provider_id'),
    deviceRowId: integer('device_row_id'),
    bedId: integer('bed_id'),
    residentId: integer('resident_id'),
  },
  (t) => [
    // (device, seq, ts) and not (device, seq): a device whose counter restarts after a reset
    // sends old seq numbers with new times, and those are new events, not redeliveries.
    uniqueIndex('device_event_seq').on(t.deviceId, t.seq, t.occurredAt),
    index('device_event_device_idx').on(t.deviceId, t.occurredAt),
    index('device_event_provider_idx').on(t.providerId, t.receivedAt),
    index('device_event_resident_idx').on(t.residentId, t.occurredAt),
  ],
);

/**
 * One row per sleep monitor and minute: what the sleep reports read. Heart and breathing
 * statistics count only measured samples (0 means none measured).
 */
export const deviceMinutes = pgTable(
  'device_minute',
  {
    deviceId: text('device_id').notNull(),
    /** The minute's start (device clock). */
    minute: ts('minute').notNull(),
    providerId: integer('provider_id'),
    bedId: integer('bed_id'),
    residentId: integer('resident_id'),
    samples: integer('samples').notNull(),
    hrSamples: integer('hr_samples').notNull(),
    hrMin: smallint('hr_min'),
    hrAvg: real('hr_avg'),
    hrMax: smallint('hr_max'),
    rrSamples: integer('rr_samples').notNull(),
    rrMin: smallint('rr_min'),
    rrAvg: real('rr_avg'),
    rrMax: smallint('rr_max'),
    inBedSeconds: smallint('in_bed_s').notNull(),
    asleepSeconds: smallint('asleep_s').notNull(),
    moveAvg: real('move_avg').notNull(),
    moveMax: smallint('move_max').notNull(),
    /** Beat-to-beat intervals (ms) in arrival order, when the device sent them. */
    rri: integer('rri').array(),
  },
  (t) => [
    primaryKey({ name: 'device_minute_pk', columns: [t.deviceId, t.minute] }),
    index('device_minute_resident_idx').on(t.residentId, t.minute),
  ],
);

/**
 * A sleep monitor's seconds, one row per device and minute: what the sleep analysis reads to
 * build a night (decision 0026). `seconds` packs 60 seconds of 4 bytes each: heart rate (0 no
 * reading), breathing rate (0 no reading), movement (0–100, 255 not sent) and flags (bit 0 a
 * message came, bit 1 in bed, bit 2 asleep); see `SecondsOfMinute`. Kept for
 * RAW_RETENTION_DAYS like the raw samples.
 */
export const deviceSeconds = pgTable(
  'device_second',
  {
    deviceId: text('device_id').notNull(),
    minute: ts('minute').notNull(),
    providerId: integer('provider_id'),
    seconds: bytea('seconds').notNull(),
  },
  (t) => [
    primaryKey({ name: 'device_second_pk', columns: [t.deviceId, t.minute] }),
    index('device_second_minute_idx').on(t.minute),
  ],
);

/**
 * Raw samples of devices whose raw upload is on (/device/isUploadData), one row per device and
 * minute with the samples in columns (`RawMinute`), not one row per sample; deleted after the
 * retention period (default 31 days) in batches.
 */
export const deviceRawMinutes = pgTable(
  'device_raw',
  {
    deviceId: text('device_id').notNull(),
    minute: ts('minute').notNull(),
    providerId: integer('provider_id'),
    samples: jsonb('samples').$type<RawMinuteSamples>().notNull(),
  },
  (t) => [
    primaryKey({ name: 'device_raw_pk', columns: [t.deviceId, t.minute] }),
    index('device_raw_minute_idx').on(t.minute),
    index('device_raw_provider_idx').on(t.providerId, t.minute),
  ],
);

/** A minute's raw samples in columns: index i of every array is one message. */
export interface RawMinuteSamples {
  /** Milliseconds after the minute's start. */
  t: number[];
  hr: number[];
  rr: number[];
  inBed: (0 | 1)[];
  asleep: (0 | 1)[];
  move: number[];
  /** Beat-to-beat intervals of each message (empty when none were sent). */
  rri: number[][];
}

// ---------------------------------------------------------------------------
// Alarms (issue 10).

/**
 * Every alarm raised, open or released. At most one open alarm per device and type (the partial
 * unique index): a repeat of the condition updates that row's count and last time instead of
 * adding one, whichever instance or transaction raises it. Like device events, no foreign keys:
 * the record outlives the device, bed and resident it names.
 */
export const alarms = pgTable(
  'alarm',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    providerId: integer('provider_id'),
    deviceId: text('device_id').notNull(),
    /** The device-type catalogue code. */
    deviceType: integer('device_type').notNull(),
    deviceRowId: integer('device_row_id'),
    bedId: integer('bed_id'),
    residentId: integer('resident_id'),
    /** Where its device was placed when raised (decision 0046): the room, and the floor or area. */
    roomId: integer('room_id'),
    areaId: integer('area_id'),
    /** The caregiver who wore it (a nurse watch). */
    caregiverId: integer('caregiver_id'),
    /** The wire's alertType (ALARM_TYPES). */
    alertType: text('alert_type').notNull(),
    /** 1 red, 2 orange: the level when it was raised. */
    level: smallint('level').notNull(),
    /** When the condition began (the device's time for an event). */
    startedAt: ts('started_at').notNull(),
    /** When it was stored: the start of the response time. */
    raisedAt: ts('raised_at').notNull(),
    /** The latest repeat. */
    lastAt: ts('last_at').notNull(),
    count: integer('count').notNull().default(1),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    /** The figure that raised it: what was measured, how much, the limit crossed, for how long (decision 0036). */
    measure: jsonb('measure').$type<AlarmMeasure>(),
    /** The device event that raised it, when one did. */
    eventId: bigint('event_id', { mode: 'number' }),
    /** 0 open; 1 software; 2 automatic; 3 at the device; 4 at the watch. */
    releaseKind: smallint('release_kind').notNull().default(0),
    releasedAt: ts('released_at'),
    /** When its condition cleared by itself (automatic release, a radar cancelling a fall). */
    clearedAt: ts('cleared_at'),
    /** Cleared by itself but latching: pending until a person handles it (decision 0035). */
    awaitingAck: boolean('awaiting_ack').notNull().default(false),
    /** When a person handled it (for a latched alarm, after it was released). */
    handledAt: ts('handled_at'),
    relieveReason: text('relieve_reason'),
    dealResult: text('deal_result'),
    /** The account that handled it, and its name then. */
    handledBy: integer('handled_by'),
    handlerName: text('handler_name'),
    /** What the handler wrote. */
    remark: text('remark'),
  },
  (t) => [
    uniqueIndex('alarm_open_unique')
      .on(t.deviceId, t.alertType)
      .where(sql`${t.releaseKind} = 0`),
    index('alarm_provider_open_idx')
      .on(t.providerId, t.raisedAt)
      .where(sql`${t.releaseKind} = 0`),
    index('alarm_provider_idx').on(t.providerId, t.raisedAt),
    index('alarm_provider_awaiting_idx')
      .on(t.providerId, t.raisedAt)
      .where(sql`${t.awaitingAck}`),
    index('alarm_resident_idx').on(t.residentId, t.raisedAt),
  ],
);

/**
 * An alarm's timeline: raised, repeated, delivered to a console or a receiver, played, handled,
 * released, notified. The response-time report reads it.
 */
export const alarmTimeline = pgTable(
  'alarm_timeline',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    alarmId: bigint('alarm_id', { mode: 'number' })
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
    at: ts('at').notNull(),
    /** raised | repeated | delivered | played | handled | released | notified | notify_failed */
    step: text('step').notNull(),
    accountId: integer('account_id'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('alarm_timeline_alarm_idx').on(t.alarmId, t.at)],
);

/**
 * A provider's alarm settings (/system/queryAlertLevel, /system/saveAlertLevel; decision 0025):
 * the level of each alarm type, and for each level whether the console pops it up (`pc`) and
 * how it sounds (`globalVoiceWay`). A community may override levels (community.alarm_config).
 */
export const alarmSettings = pgTable('alarm_setting', {
  providerId: integer('provider_id')
    .primaryKey()
    .references(() => providers.id),
  /** Alarm type → 1 or 2; a type not listed takes the default. */
  levels: jsonb('levels').$type<Record<string, number>>().notNull().default({}),
  level1: jsonb('level1').$type<{ pc: boolean; globalVoiceWay: number }>().notNull(),
  level2: jsonb('level2').$type<{ pc: boolean; globalVoiceWay: number }>().notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  updatedBy: integer('updated_by'),
});

/**
 * Alarm notifications beyond the page (SMS, chat-app webhook): an outbox, one row per alarm,
 * channel, target and stage (1 on raise, 2 the escalation of an unhandled level 1 alarm), written
 * after the alarm is committed and sent by the notifier with retries; its state is kept for the
 * alarm's timeline. The unique key makes a repeated raise event (outbox relay after a crash) add
 * nothing.
 */
export const alarmNotifications = pgTable(
  'alarm_notification',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    alarmId: bigint('alarm_id', { mode: 'number' })
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
    providerId: integer('provider_id'),
    /** sms | chat */
    channel: text('channel').notNull(),
    /** A phone number, or the webhook's name. */
    target: text('target').notNull(),
    caregiverId: integer('caregiver_id'),
    stage: smallint('stage').notNull().default(1),
    /** pending | sent | failed | cancelled (the alarm was released first) */
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: ts('next_at').notNull(),
    lastError: text('last_error'),
    sentAt: ts('sent_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('alarm_notification_unique').on(t.alarmId, t.channel, t.target, t.stage),
    index('alarm_notification_due')
      .on(t.nextAt)
      .where(sql`${t.state} = 'pending'`),
  ],
);

/**
 * A resident's own bed alarm rules (/bunk/saveAlarmSetting): durations, limits, time ranges and
 * types switched off (null: the defaults), and the bed's own receivers and notification modes
 * (null: the community's). Without a row both default. Levels stay the provider's and community's.
 */
export const residentAlarmSettings = pgTable('resident_alarm_setting', {
  residentId: integer('resident_id')
    .primaryKey()
    .references(() => residents.id, { onDelete: 'cascade' }),
  providerId: integer('provider_id')
    .notNull()
    .references(() => providers.id),
  rules: jsonb('rules').$type<Record<string, unknown>>(),
  receivers: jsonb('receivers').$type<Record<string, unknown>>(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  updatedBy: integer('updated_by'),
});

/**
 * A resident's sleep settings (decision 0027): the bed-leaving watch mode, the usual sleep and
 * wake time (HH:mm, platform TIME_ZONE) that define their nights and when their daily report is
 * due, the monitor's sensitivity and the mattress. Saved from BunkManage (one or a batch) and by
 * the community calls; without a row the platform defaults apply.
 */
export const residentSleepSettings = pgTable(
  'resident_sleep_setting',
  {
    residentId: integer('resident_id')
      .primaryKey()
      .references(() => residents.id, { onDelete: 'cascade' }),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    /** off | allDay | sleepTime */
    leaveBedMode: text('leave_bed_mode').notNull(),
    sleepTime: text('sleep_time').notNull(),
    wakeTime: text('wake_time').notNull(),
    /** low | medium | high */
    sensitivity: text('sensitivity').notNull(),
    /** sponge | spring | latex */
    mattress: text('mattress').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    updatedBy: integer('updated_by'),
  },
  (t) => [index('resident_sleep_setting_provider').on(t.providerId)],
);

// ---------------------------------------------------------------------------
// Live monitoring (issue 10).

/** An account's focus residents: the cards of /realMonitor/index, in the order they were added. */
export const focusResidents = pgTable(
  'focus_resident',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    residentId: integer('resident_id')
      .notNull()
      .references(() => residents.id, { onDelete: 'cascade' }),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    addedAt: ts('added_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'focus_resident_pk', columns: [t.accountId, t.residentId] }),
    index('focus_resident_resident_idx').on(t.residentId),
  ],
);

/**
 * The sleep-monitor conditions a device has shown for a while without an alarm yet (its engine's
 * duration clocks), written every few seconds so a restart goes on counting instead of starting
 * over: a resident out of bed for 25 of 30 minutes is not left another 30.
 */
export const alarmSpells = pgTable('alarm_spell', {
  deviceId: text('device_id').primaryKey(),
  /** Alarm type → when its condition began (ms since the epoch). */
  spells: jsonb('spells').$type<Record<string, number>>().notNull(),
  updatedAt: ts('updated_at').notNull(),
});

/**
 * One resident's sleep report for one night (issue 11), named by the local date of waking.
 * The row is also the claim that makes one instance its producer: inserted or taken over in
 * one statement with state `computing` (see `SleepReportRepository.claim`), then `ready` with
 * the analysis (`report`, the `SleepReport` of @vigil/sleep) or `failed` with the reason.
 */
export const sleepReports = pgTable(
  'sleep_report',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    providerId: integer('provider_id').notNull(),
    residentId: integer('resident_id').notNull(),
    bedId: integer('bed_id'),
    night: date('night', { mode: 'string' }).notNull(),
    windowStart: ts('window_start').notNull(),
    windowEnd: ts('window_end').notNull(),
    /** computing | ready | failed */
    state: text('state').notNull(),
    claimedAt: ts('claimed_at').notNull(),
    computedAt: ts('computed_at'),
    /** The analysis version that computed it, so a changed method can recompute old nights. */
    analysisVersion: smallint('analysis_version'),
    report: jsonb('report').$type<Record<string, unknown>>(),
    error: text('error'),
  },
  (t) => [
    uniqueIndex('sleep_report_night').on(t.residentId, t.night),
    index('sleep_report_provider_night').on(t.providerId, t.night),
  ],
);

/**
 * A firmware package (issue 12, decision 0029): one zip for one device type and version, with
 * the digests taken as it was uploaded. State: unpublished → grey (to its whitelist) → full →
 * offline. Platform-wide: packages are released by the platform's administrators.
 */
export const firmwarePackages = pgTable(
  'firmware_package',
  {
    id: serial('id').primaryKey(),
    deviceType: integer('device_type').notNull(),
    version: text('version').notNull(),
    fileName: text('file_name').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    /** Lower-case hex. */
    md5: text('md5').notNull(),
    /** Lower-case hex; sent to devices with the download address. */
    sha256: text('sha256').notNull(),
    remark: text('remark'),
    /** unpublished | grey | full | offline */
    state: text('state').notNull().default('unpublished'),
    uploadedBy: integer('uploaded_by'),
    uploadedAt: ts('uploaded_at').notNull(),
    releasedAt: ts('released_at'),
    offlineAt: ts('offline_at'),
  },
  (t) => [index('firmware_package_type').on(t.deviceType, t.state)],
);

/** A package's bytes in order, 1 MB a row (decision 0029); deleted with the package. */
export const firmwarePackageChunks = pgTable(
  'firmware_package_chunk',
  {
    packageId: integer('package_id')
      .notNull()
      .references(() => firmwarePackages.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ name: 'firmware_package_chunk_pk', columns: [t.packageId, t.seq] })],
);

/** The devices a package's grey release goes to (spec: "whitelist"); chosen before the release. */
export const firmwareGreyDevices = pgTable(
  'firmware_grey_device',
  {
    packageId: integer('package_id')
      .notNull()
      .references(() => firmwarePackages.id, { onDelete: 'cascade' }),
    deviceRowId: integer('device_row_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    addedBy: integer('added_by'),
    addedAt: ts('added_at').notNull(),
  },
  (t) => [primaryKey({ name: 'firmware_grey_device_pk', columns: [t.packageId, t.deviceRowId] })],
);

/**
 * A package's release in progress (docs/firmware.md): the grey release to its whitelist, or the
 * full release in stages. One row per package: a full release after a grey one replaces it.
 */
export const firmwareRollouts = pgTable('firmware_rollout', {
  packageId: integer('package_id')
    .primaryKey()
    .references(() => firmwarePackages.id, { onDelete: 'cascade' }),
  /** grey | full */
  kind: text('kind').notNull(),
  /** Cumulative shares of the devices, in per cent, ending at 100 (e.g. 5, 25, 100). */
  stages: integer('stages').array().notNull(),
  /** The stage now open (0-based). */
  stage: smallint('stage').notNull().default(0),
  /** A stage whose failed upgrades pass this share (per cent) of its devices pauses the rollout. */
  failureThreshold: smallint('failure_threshold').notNull(),
  /** running | paused | stopped | done */
  state: text('state').notNull(),
  /** Why a paused rollout paused: admin | failures */
  pausedReason: text('paused_reason'),
  /** Upgrade devices whose bed is occupied in its sleep window instead of deferring them. */
  forceOccupied: boolean('force_occupied').notNull().default(false),
  startedBy: integer('started_by'),
  startedAt: ts('started_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
});

/** One device's upgrade to one package: its stage, state and progress, as the device reports it. */
export const firmwareUpgrades = pgTable(
  'firmware_upgrade',
  {
    id: serial('id').primaryKey(),
    packageId: integer('package_id')
      .notNull()
      .references(() => firmwarePackages.id, { onDelete: 'cascade' }),
    deviceRowId: integer('device_row_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    stage: smallint('stage').notNull(),
    /** pending | deferred | sent | downloading | installing | succeeded | failed | cancelled */
    state: text('state').notNull(),
    progress: smallint('progress').notNull().default(0),
    fromVersion: text('from_version'),
    /** The `ota` command that carries this upgrade to the device. */
    commandId: integer('command_id'),
    /** The secret in the device's download address; valid until `linkExpiresAt`, for this device only. */
    downloadToken: text('download_token'),
    linkExpiresAt: ts('link_expires_at'),
    /** Why it failed or was cancelled (UPGRADE_REASONS): the console translates it. */
    reason: text('reason'),
    /** The device's own words (or the reason in English, for logs and scripts). */
    error: text('error'),
    updatedAt: ts('updated_at').notNull(),
    sentAt: ts('sent_at'),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    uniqueIndex('firmware_upgrade_device').on(t.packageId, t.deviceRowId),
    index('firmware_upgrade_state').on(t.packageId, t.state),
    index('firmware_upgrade_device_row').on(t.deviceRowId),
    uniqueIndex('firmware_upgrade_token').on(t.downloadToken),
  ],
);

/**
 * A file uploaded for an app release (issue 12, docs/app-releases.md): an Android package (`apk`)
 * or an H5 package (`h5`, a zip of the app's pages), checked to be a whole zip archive. Its bytes
 * are in `app_package_chunk`. Platform-wide; releases point at it, and an upload no release uses
 * is deleted a day later.
 */
export const appPackages = pgTable('app_package', {
  id: serial('id').primaryKey(),
  /** apk | h5 */
  kind: text('kind').notNull(),
  fileName: text('file_name').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  /** Lower-case hex. */
  sha256: text('sha256').notNull(),
  uploadedBy: integer('uploaded_by'),
  uploadedAt: ts('uploaded_at').notNull(),
});

/** An app package's bytes in order, 1 MB a row (shaped like firmware_package_chunk); deleted with the package. */
export const appPackageChunks = pgTable(
  'app_package_chunk',
  {
    packageId: integer('package_id')
      .notNull()
      .references(() => appPackages.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ name: 'app_package_chunk_pk', columns: [t.packageId, t.seq] })],
);

/** An H5 package release: unpublished → published → offShelf. Version names are unique. */
export const h5Versions = pgTable(
  'h5_version',
  {
    id: serial('id').primaryKey(),
    versionName: text('version_name').notNull(),
    packageId: integer('package_id')
      .notNull()
      .references(() => appPackages.id),
    /** unpublished | published | offShelf */
    state: text('state').notNull().default('unpublished'),
    createdBy: integer('created_by'),
    uploadedAt: ts('uploaded_at').notNull(),
    publishedAt: ts('published_at'),
    offShelfAt: ts('off_shelf_at'),
  },
  (t) => [uniqueIndex('h5_version_name').on(t.versionName), index('h5_version_package').on(t.packageId)],
);

/**
 * A version of the companion app for one platform: unpublished → published → offShelf. The build
 * number is digits without leading zeros (up to 20, compared as a number), unique per platform.
 */
export const appVersions = pgTable(
  'app_version',
  {
    id: serial('id').primaryKey(),
    /** ios | android */
    platform: text('platform').notNull(),
    versionName: text('version_name').notNull(),
    buildNumber: text('build_number').notNull(),
    notes: text('notes').notNull(),
    storeUrl: text('store_url'),
    packageId: integer('package_id').references(() => appPackages.id),
    /** The H5 package released with this version (addAppH5). */
    h5VersionId: integer('h5_version_id').references(() => h5Versions.id, { onDelete: 'set null' }),
    force: boolean('force').notNull().default(false),
    /** unpublished | published | offShelf */
    state: text('state').notNull().default('unpublished'),
    createdBy: integer('created_by'),
    uploadedAt: ts('uploaded_at').notNull(),
    publishedAt: ts('published_at'),
    offShelfAt: ts('off_shelf_at'),
  },
  (t) => [
    uniqueIndex('app_version_build').on(t.platform, t.buildNumber),
    index('app_version_state').on(t.platform, t.state),
    index('app_version_package').on(t.packageId),
  ],
);
