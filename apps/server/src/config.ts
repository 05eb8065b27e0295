import { fileURLToPath } from 'node:url';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { LANGUAGES, type Language } from '@vigil/contract';

/** Where `npm run build:web` writes the console in a development clone. */
export const DEFAULT_CONSOLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(`${p}://`)), {
      message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

const EnvSchema = z.object({
  PORT: port(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  // A built console to serve; default: the development clone's apps/web/dist.
  CONSOLE_DIR: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // auto: readable lines in a terminal, JSON (for log collectors) everywhere else.
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  VIGIL_ADMIN_USER: z.string().trim().min(1).max(64).default('admin'),
  VIGIL_ADMIN_PASSWORD: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(8).max(16).optional()),
  // Empty means unset (fast login off), like the other optional values.
  VIGIL_SSO_SECRET: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().min(16, 'must be at least 16 characters').optional(),
  ),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(60 * 24 * 30)
    .default(120),
  // Only behind a known proxy may X-Forwarded-For name the client (audit log, login rate limit).
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
  // /metrics is not public: a bearer token on the main port and/or its own listener (see docs/operations.md).
  METRICS_TOKEN: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().trim().min(16, 'must be at least 16 characters').max(512).optional(),
  ),
  METRICS_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(65535).optional()),
  METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
  // Devices: the embedded broker's port, or an external broker (MQTT_URL) instead; the bus comes later.
  MQTT_PORT: port(1883),
  MQTT_URL: optionalUrl(['mqtt', 'mqtts', 'tcp', 'ws', 'wss']),
  // TCP proxies (TLS) in front of the embedded broker: their address stands for every device behind them.
  MQTT_TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every((a) => isIP(a) !== 0), 'must be IP addresses separated by commas'),
  // The embedded database in a worker thread (decision 0047, opt-in until device sign-in needs no query).
  DATABASE_WORKER: z.enum(['0', '1', '']).default(''),
  // Connections per instance that take device events from an external broker.
  MQTT_EVENT_CONNECTIONS: z.coerce.number().int().min(1).max(16).default(4),
  // The demo care home: on by default on an empty embedded database, off with DATABASE_URL unless 1.
  VIGIL_DEMO: z.enum(['0', '1', '']).default(''),
  // The overseas edition: every device screen, the consoles' eight languages, the abroad download guide.
  VIGIL_ABROAD: z
    .enum(['0', '1', ''])
    .default('')
    .transform((v) => v === '1'),
  // The shared-subscription group every instance of one installation joins.
  MQTT_SHARE_GROUP: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "_" and "-", at most 64')
    .default('vigil'),
  // An external broker's HTTP auth/ACL calls must carry this bearer token; unset: the endpoints are off.
  MQTT_AUTH_TOKEN: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().trim().min(16, 'must be at least 16 characters').max(512).optional(),
  ),
  // The shared secret operator platforms sign their pushes with; unset: the push endpoint is off.
  OPERATOR_PUSH_SECRET: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().trim().min(16, 'must be at least 16 characters').max(512).optional(),
  ),
  // This instance's session at the external broker; stable across restarts, unique per instance.
  MQTT_CLIENT_ID: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, "_", "." and "-", at most 64')
      .optional(),
  ),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  NATS_URL: optionalUrl(['nats', 'tls']),
  // Operator (telecom) IoT platform for NB-IoT / 4G devices; unset turns device sync off.
  TELECOM_API_URL: optionalUrl(['http', 'https']),
  TELECOM_APP_KEY: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().trim().min(8, 'must be at least 8 characters').max(512).optional(),
  ),
  TELECOM_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  // Raw device samples (original data screen) older than this many days are deleted (docs/operations.md).
  RAW_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(31),
  // The outbox of domain events (docs/operations.md, "The event outbox"): how often unmarked events
  // are looked for, how old they must be to be taken for a dead instance's, how long published ones are kept.
  OUTBOX_SWEEP_SECONDS: z.coerce.number().int().min(1).max(600).default(10),
  OUTBOX_GRACE_SECONDS: z.coerce.number().int().min(5).max(3600).default(30),
  OUTBOX_RETENTION_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(72),
  // Alarm notifications beyond the page (docs/alarms.md): an HTTP SMS gateway and a chat-app webhook.
  SMS_URL: optionalUrl(['http', 'https']),
  SMS_KEY: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().trim().min(8, 'must be at least 8 characters').max(512).optional(),
  ),
  CHAT_WEBHOOK_URL: optionalUrl(['http', 'https']),
  // An unhandled level 1 alarm is sent again to the lead caregivers after this many minutes.
  ALARM_ESCALATE_MINUTES: z.coerce.number().int().min(1).max(1440).default(5),
  NOTIFY_LANGUAGE: z.preprocess((v) => (v === '' ? undefined : v), z.enum(LANGUAGES).default('zh-CN')),
  // The beds' local time zone (IANA name): alarm time ranges (sleep time, door at night) are read in it.
  TIME_ZONE: z.preprocess(
    (v) => (v === '' || v === undefined ? Intl.DateTimeFormat().resolvedOptions().timeZone : v),
    z
      .string()
      .trim()
      .refine((zone) => {
        try {
          new Intl.DateTimeFormat('en-US', { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      }, 'must be an IANA time zone such as Asia/Shanghai or Europe/Prague'),
  ),
  // Sleep reports (docs/sleep-reports.md): worker threads for the analyses and PDFs, and how often
  // the scheduler looks for nights that have ended.
  REPORT_WORKERS: z.coerce.number().int().min(1).max(16).default(1),
  REPORT_CHECK_SECONDS: z.coerce.number().int().min(5).max(900).default(60),
  // Firmware over the air (docs/firmware.md): the largest package, how long a device's download
  // address lives, how long a device may take to upgrade, and how often rollouts are looked at.
  FIRMWARE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(2 * 1024 * 1024 * 1024)
    .default(64 * 1024 * 1024),
  OTA_LINK_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 7)
    .default(24),
  OTA_TIMEOUT_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  OTA_CHECK_SECONDS: z.coerce.number().int().min(1).max(600).default(10),
  // Where SIGUSR2 writes CPU profiles of the running server (docs/operations.md); unset: off.
  CPU_PROFILE_DIR: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().min(1).optional()),
});

/** Rules between variables, checked on the raw environment so they are reported with the others. */
const crossProblems = (env: NodeJS.ProcessEnv): string[] =>
  env.TELECOM_API_URL?.trim() && !env.TELECOM_APP_KEY?.trim()
    ? ['  TELECOM_APP_KEY: required when TELECOM_API_URL is set']
    : [];

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** The built web console served at / (index.html and assets/). */
  consoleDir: string;
  databaseUrl: string | undefined;
  /** PGlite in a worker thread instead of on the server's (decision 0047). */
  databaseWorker: boolean;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  logFormat: z.infer<typeof EnvSchema>['LOG_FORMAT'];
  adminUser: string;
  adminPassword: string | undefined;
  ssoSecret: string | undefined;
  sessionIdleMs: number;
  loginRateLimitPerMinute: number;
  trustProxy: boolean;
  /** Prometheus endpoint: on the main port only with this bearer token; on `listen` without one. */
  metrics: { token: string | undefined; listen: { port: number; host: string } | undefined };
  mqttPort: number;
  /** Addresses of TCP proxies in front of the embedded broker: no lockout or cap by their address. */
  mqttTrustedProxies: string[];
  mqttUrl: string | undefined;
  /** This instance's MQTT client id at an external broker. */
  mqttClientId: string;
  /** Run the demo care home (creating it on an empty database). */
  demo: boolean;
  /** The platform's overseas edition (decision 0033): the console's isAbroad flag, every device screen. */
  abroad: boolean;
  /** Connections per instance taking events from an external broker. */
  mqttEventConnections: number;
  /** The `$share` group of this installation's instances. */
  mqttShareGroup: string;
  /** Bearer token of the HTTP auth/ACL endpoints an external broker calls; undefined: off. */
  mqttAuthToken: string | undefined;
  /** Shared secret of operator platform pushes; undefined: the push endpoint is off. */
  operatorPushSecret: string | undefined;
  redisUrl: string | undefined;
  natsUrl: string | undefined;
  /** Operator IoT platform; undefined when TELECOM_API_URL is unset. */
  telecom: { url: string; appKey: string; timeoutMs: number } | undefined;
  /** Raw samples (`device_raw`) are kept this many days, then deleted in batches. */
  rawRetentionDays: number;
  /** The event outbox's sweep: its period, the grace left to the committing instance, the retention of published events. */
  outbox: { sweepMs: number; graceMs: number; retentionMs: number };
  /** SIGUSR2 starts and stops a CPU profile written here; undefined: off. */
  cpuProfileDir: string | undefined;
  /** The beds' time zone: alarm time ranges are local times in it, and nights are named in it. */
  timeZone: string;
  /** Sleep reports: worker threads, and how often the scheduler looks for ended nights. */
  reports: { workers: number; everyMs: number };
  /** Firmware over the air: package size limit, download address lifetime, upgrade timeout, rollout look interval. */
  firmware: { maxBytes: number; linkMs: number; timeoutMs: number; everyMs: number };
  /** Alarm notifications: SMS gateway, chat webhook, escalation and the texts' language. */
  notify: {
    sms: { url: string; key: string | undefined } | undefined;
    chatWebhook: string | undefined;
    escalateAfterMs: number;
    language: Language;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the environment; every problem is named in one error. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const parsed = EnvSchema.safeParse(env);
  const cross = crossProblems(env);
  if (!parsed.success || cross.length) {
    const lines = [...(parsed.error?.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`) ?? []), ...cross];
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    consoleDir: e.CONSOLE_DIR === undefined ? DEFAULT_CONSOLE_DIR : path.resolve(e.CONSOLE_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseWorker: e.DATABASE_WORKER === '1',
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    adminUser: e.VIGIL_ADMIN_USER,
    adminPassword: e.VIGIL_ADMIN_PASSWORD,
    ssoSecret: e.VIGIL_SSO_SECRET,
    sessionIdleMs: e.SESSION_IDLE_MINUTES * 60_000,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
    trustProxy: e.TRUST_PROXY,
    metrics: {
      token: e.METRICS_TOKEN,
      listen: e.METRICS_PORT === undefined ? undefined : { port: e.METRICS_PORT, host: e.METRICS_HOST },
    },
    mqttPort: e.MQTT_PORT,
    mqttTrustedProxies: e.MQTT_TRUSTED_PROXIES,
    mqttUrl: e.MQTT_URL,
    mqttShareGroup: e.MQTT_SHARE_GROUP,
    mqttEventConnections: e.MQTT_EVENT_CONNECTIONS,
    demo: e.VIGIL_DEMO === '' ? e.DATABASE_URL === undefined : e.VIGIL_DEMO === '1',
    abroad: e.VIGIL_ABROAD,
    mqttAuthToken: e.MQTT_AUTH_TOKEN,
    operatorPushSecret: e.OPERATOR_PUSH_SECRET,
    mqttClientId:
      e.MQTT_CLIENT_ID ??
      `vigil-${os
        .hostname()
        .replace(/[^A-Za-z0-9_.-]/g, '-')
        .slice(0, 40)}`,
    redisUrl: e.REDIS_URL,
    natsUrl: e.NATS_URL,
    telecom:
      e.TELECOM_API_URL && e.TELECOM_APP_KEY
        ? { url: e.TELECOM_API_URL, appKey: e.TELECOM_APP_KEY, timeoutMs: e.TELECOM_TIMEOUT_MS }
        : undefined,
    rawRetentionDays: e.RAW_RETENTION_DAYS,
    outbox: {
      sweepMs: e.OUTBOX_SWEEP_SECONDS * 1000,
      graceMs: e.OUTBOX_GRACE_SECONDS * 1000,
      retentionMs: e.OUTBOX_RETENTION_HOURS * 3_600_000,
    },
    cpuProfileDir: e.CPU_PROFILE_DIR,
    timeZone: e.TIME_ZONE,
    reports: { workers: e.REPORT_WORKERS, everyMs: e.REPORT_CHECK_SECONDS * 1000 },
    firmware: {
      maxBytes: e.FIRMWARE_MAX_BYTES,
      linkMs: e.OTA_LINK_HOURS * 3_600_000,
      timeoutMs: e.OTA_TIMEOUT_MINUTES * 60_000,
      everyMs: e.OTA_CHECK_SECONDS * 1000,
    },
    notify: {
      sms: e.SMS_URL ? { url: e.SMS_URL, key: e.SMS_KEY } : undefined,
      chatWebhook: e.CHAT_WEBHOOK_URL,
      escalateAfterMs: e.ALARM_ESCALATE_MINUTES * 60_000,
      language: e.NOTIFY_LANGUAGE,
    },
  };
};
