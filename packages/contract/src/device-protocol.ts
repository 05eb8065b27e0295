import { z } from 'zod';
import { DEVICE_COMMANDS, DEVICE_ID_MAX, DEVICE_ID_PATTERN } from './domain.ts';

/**
 * The device protocol's messages (issue 9): topics, payload schemas and the one parser the
 * server, the simulator and the tests share. An external interface: devices in the field rely
 * on every name here, so change nothing, only add (docs/device-protocol.md).
 */

export const TOPIC_PREFIX = 'vigil/v1';
/** What a device publishes. */
export const DEVICE_TOPICS = ['telemetry', 'event', 'status', 'ack'] as const;
export type DeviceTopic = (typeof DEVICE_TOPICS)[number];
/** What the server publishes to a device. */
export const COMMAND_TOPIC = 'cmd';

export const MAX_PAYLOAD_BYTES = 64 * 1024;
/** A device clock this far ahead of ours is wrong: its messages are dropped. */
export const MAX_CLOCK_AHEAD_S = 5 * 60;
/** A device may send what it buffered offline for up to this long. */
export const MAX_MESSAGE_AGE_S = 7 * 24 * 60 * 60;

export const topicOf = (deviceId: string, kind: DeviceTopic | typeof COMMAND_TOPIC): string =>
  `${TOPIC_PREFIX}/${deviceId}/${kind}`;

const isDeviceId = (value: string): boolean => value.length <= DEVICE_ID_MAX && DEVICE_ID_PATTERN.test(value);

/** The device and kind of a device → server topic, or null for any other topic. */
export const parseTopic = (topic: string): { deviceId: string; kind: DeviceTopic } | null => {
  const parts = topic.split('/');
  if (parts.length !== 4 || `${parts[0]}/${parts[1]}` !== TOPIC_PREFIX) return null;
  const [, , deviceId = '', kind = ''] = parts;
  if (!isDeviceId(deviceId) || !(DEVICE_TOPICS as readonly string[]).includes(kind)) return null;
  return { deviceId, kind: kind as DeviceTopic };
};

/** Unix time in seconds (the spec's 10 digits); a fraction is allowed. */
const ts = z.number().finite().min(1_000_000_000).max(9_999_999_999.999).describe('Unix time in seconds');
/** Per device, increasing: a `(deviceId, seq)` already taken is a duplicate and dropped. */
const seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).describe('Per device, increasing');
const stamped = { ts, seq };
const percent = z.number().int().min(0).max(100);
export const MAT_STATES = ['connected', 'dislodged'] as const;

/** A sleep monitor's vitals, about once a second. */
export const TelemetrySchema = z.strictObject({
  ...stamped,
  hr: z.number().int().min(0).max(300).describe('Heart rate, beats per minute (0: none measured)'),
  rr: z.number().int().min(0).max(100).describe('Breathing rate, breaths per minute (0: none measured)'),
  inBed: z.boolean().describe('Someone lies on the bed'),
  asleep: z.boolean().describe('The person in bed sleeps'),
  move: percent.describe('Body movement 0–100'),
  rri: z
    .array(z.number().int().min(200).max(3000))
    .max(600)
    .optional()
    .describe('Beat-to-beat intervals in ms since the last message'),
  mat: z.enum(MAT_STATES).optional().describe('The sensor mat under the mattress'),
});
export type Telemetry = z.infer<typeof TelemetrySchema>;

const flagEvent = <N extends string, F extends string>(name: N, flag: F) =>
  z.strictObject({ ...stamped, event: z.literal(name), [flag]: z.boolean() } as {
    ts: typeof ts;
    seq: typeof seq;
    event: z.ZodLiteral<N>;
  } & Record<F, z.ZodBoolean>);
const bareEvent = <N extends string>(name: N) => z.strictObject({ ...stamped, event: z.literal(name) });

export const BARE_EVENTS = [
  'sos',
  'fall',
  'fall_suspected',
  'fall_cancelled',
  'sitting_up_suspected',
  'motion',
  'badge_sos',
  'low_battery',
  'device_release',
] as const;
export const ALARM_FLAG_EVENTS = ['smoke', 'gas', 'co', 'flood'] as const;

/**
 * A caregiver pressed release on her nurse watch. It names what she releases: the alarm she was
 * shown, by its id, and/or the device whose alarm it is (a resident's call button, radar…). Both
 * optional, added after the first watches: one naming neither releases the watch's own alarms
 * (docs/alarms.md, decision 0031).
 */
export const WatchReleaseSchema = z.strictObject({
  ...stamped,
  event: z.literal('watch_release'),
  alarmId: z
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe("the alarm's id, as the platform numbers it"),
  deviceId: z
    .string()
    .min(1)
    .max(DEVICE_ID_MAX)
    .regex(DEVICE_ID_PATTERN)
    .optional()
    .describe('the device whose alarm is released'),
});

/** Events, published with QoS 1; each kind carries what it reports. */
export const DeviceEventSchema = z.discriminatedUnion('event', [
  flagEvent('presence', 'occupied'),
  flagEvent('door', 'open'),
  ...BARE_EVENTS.map(bareEvent),
  WatchReleaseSchema,
  ...ALARM_FLAG_EVENTS.map((name) => flagEvent(name, 'active')),
  z.strictObject({
    ...stamped,
    event: z.literal('position'),
    lat: z.number().min(-90).max(90),
    lng: z.number().min(-180).max(180),
    accuracy: z.number().min(0).max(100_000).optional().describe('Metres'),
  }),
  z.strictObject({ ...stamped, event: z.literal('mat'), state: z.enum(MAT_STATES) }),
]);
export type DeviceEvent = z.infer<typeof DeviceEventSchema>;
export const DEVICE_EVENT_NAMES: readonly string[] = [
  ...BARE_EVENTS,
  'watch_release',
  'presence',
  'door',
  ...ALARM_FLAG_EVENTS,
  'position',
  'mat',
];

/** What a device reports of an upgrade under way, in its `status` (docs/device-protocol.md). */
export const OTA_DEVICE_STATES = ['downloading', 'verifying', 'installing', 'failed'] as const;

/**
 * Retained; the last will is the same topic with `online: false`. `seq` is optional here: a
 * last will is written at connect time, and status is state (the latest `ts` wins), so it is
 * never deduplicated by `seq`.
 */
export const DeviceStatusSchema = z.strictObject({
  ts,
  seq: seq.optional(),
  online: z.boolean(),
  battery: percent.optional().describe('Per cent'),
  signal: z.number().int().min(-150).max(100).optional().describe('dBm (negative) or 0–100 bars, as the model reports'),
  fw: z.string().min(1).max(64).optional().describe('Firmware version'),
  hw: z.string().min(1).max(64).optional().describe('Hardware version'),
  ota: z
    .strictObject({
      id: z.number().int().min(1).describe('The `ota` command being carried out'),
      state: z.enum(OTA_DEVICE_STATES),
      progress: percent.optional().describe('Per cent of the download'),
      error: z.string().max(200).optional().describe('Why, when failed'),
    })
    .optional()
    .describe('A firmware upgrade under way: see "Firmware over the air" below'),
});
export type DeviceStatus = z.infer<typeof DeviceStatusSchema>;

/** A device's answer to a command; idempotent by command id, so `ts` and `seq` are optional. */
export const CommandAckSchema = z.strictObject({
  ts: ts.optional(),
  seq: seq.optional(),
  id: z.number().int().min(1).describe('The id of the command answered'),
  ok: z.boolean().describe('Carried out'),
  error: z.string().max(200).optional().describe('Why not, when ok is false'),
});
export type CommandAck = z.infer<typeof CommandAckSchema>;

/** Gateway pairing travels as commands to the host (issue 9, /he/subDevicePair…). */
export const PAIRING_COMMANDS = ['pair', 'pair_scan', 'pair_status', 'unpair'] as const;

/** What the server publishes on `cmd`. */
export const DeviceCommandMessageSchema = z.strictObject({
  id: z.number().int().min(1).describe('Echoed in the ack'),
  command: z.enum([...DEVICE_COMMANDS, ...PAIRING_COMMANDS]),
  params: z.record(z.string(), z.unknown()).describe('Per command, e.g. {"interval": 30} (seconds) for interval'),
});
export type DeviceCommandMessage = z.infer<typeof DeviceCommandMessageSchema>;

export type DeviceMessage =
  | { deviceId: string; kind: 'telemetry'; body: Telemetry }
  | { deviceId: string; kind: 'event'; body: DeviceEvent }
  | { deviceId: string; kind: 'status'; body: DeviceStatus }
  | { deviceId: string; kind: 'ack'; body: CommandAck };

/** Why a message was dropped: counted per reason, logged rate-limited. */
export const DROP_REASONS = [
  'topic',
  'oversize',
  'encoding',
  'json',
  'not_object',
  'ts_missing',
  'seq_missing',
  'ts_future',
  'ts_past',
  'unknown_event',
  'schema',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

export type ParseResult = { ok: true; message: DeviceMessage } | { ok: false; reason: DropReason; detail?: string };

const SCHEMAS = {
  telemetry: TelemetrySchema,
  event: DeviceEventSchema,
  status: DeviceStatusSchema,
  ack: CommandAckSchema,
} as const;

const utf8 = new TextDecoder('utf-8', { fatal: true });

const TELEMETRY_KEYS = new Set(['ts', 'seq', 'hr', 'rr', 'inBed', 'asleep', 'move', 'rri', 'mat']);
const intIn = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/**
 * TelemetrySchema's rules written out by hand, for the message every sleep monitor sends every
 * second: it takes a sixth of the ingest's CPU through zod (bench/ingest.ts profile). It only
 * ever accepts what the schema accepts, with the same result (device-protocol.test.ts checks
 * both on generated messages); anything else returns undefined and goes through the schema,
 * which names the problem.
 */
export const fastTelemetry = (raw: Record<string, unknown>): Telemetry | undefined => {
  for (const key in raw) if (!TELEMETRY_KEYS.has(key)) return undefined;
  const { ts, seq, hr, rr, inBed, asleep, move, rri, mat } = raw;
  if (typeof ts !== 'number' || !Number.isFinite(ts) || ts < 1_000_000_000 || ts > 9_999_999_999.999) return undefined;
  if (!intIn(seq, 0, Number.MAX_SAFE_INTEGER) || !intIn(hr, 0, 300) || !intIn(rr, 0, 100)) return undefined;
  if (typeof inBed !== 'boolean' || typeof asleep !== 'boolean' || !intIn(move, 0, 100)) return undefined;
  const out: Telemetry = { ts, seq, hr, rr, inBed, asleep, move };
  if ('rri' in raw) {
    if (!Array.isArray(rri) || rri.length > 600) return undefined;
    for (const v of rri as unknown[]) if (!intIn(v, 200, 3000)) return undefined;
    out.rri = rri as number[];
  }
  if ('mat' in raw) {
    if (mat !== 'connected' && mat !== 'dislodged') return undefined;
    out.mat = mat;
  }
  return out;
};

/**
 * Parses one MQTT message: its topic, its payload bytes and the server's time (seconds). Pure:
 * no I/O, no clock of its own, never throws; every refusal names its reason.
 */
export const parseDeviceMessage = (topic: string, payload: Uint8Array, nowS: number): ParseResult => {
  const route = parseTopic(topic);
  if (!route) return { ok: false, reason: 'topic' };
  if (payload.byteLength > MAX_PAYLOAD_BYTES) return { ok: false, reason: 'oversize' };
  let text: string;
  try {
    text = utf8.decode(payload);
  } catch {
    return { ok: false, reason: 'encoding' };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'json' };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return { ok: false, reason: 'not_object' };
  const raw = json as Record<string, unknown>;
  const stampedKind = route.kind === 'telemetry' || route.kind === 'event';
  if (stampedKind || route.kind === 'status') {
    if (raw.ts === undefined) return { ok: false, reason: 'ts_missing' };
    if (stampedKind && raw.seq === undefined) return { ok: false, reason: 'seq_missing' };
  }
  if (typeof raw.ts === 'number') {
    if (raw.ts > nowS + MAX_CLOCK_AHEAD_S) return { ok: false, reason: 'ts_future' };
    if (raw.ts < nowS - MAX_MESSAGE_AGE_S) return { ok: false, reason: 'ts_past' };
  }
  if (route.kind === 'event' && (typeof raw.event !== 'string' || !DEVICE_EVENT_NAMES.includes(raw.event))) {
    return { ok: false, reason: 'unknown_event', detail: typeof raw.event === 'string' ? raw.event.slice(0, 40) : '' };
  }
  const fast = route.kind === 'telemetry' ? fastTelemetry(raw) : undefined;
  if (fast) return { ok: true, message: { deviceId: route.deviceId, kind: 'telemetry', body: fast } };
  const parsed = SCHEMAS[route.kind].safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: 'schema', detail: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}` };
  }
  return { ok: true, message: { deviceId: route.deviceId, kind: route.kind, body: parsed.data } as DeviceMessage };
};

// --- HTTP ways in: an external broker's auth/ACL calls and the operator platform's push --------

/**
 * What an external broker asks our HTTP authenticator (EMQX's HTTP authenticator, Mosquitto's
 * go-auth HTTP backend): JSON or form fields. Answer: 200 `{"result":"allow"}`, or 403
 * `{"result":"deny"}` (EMQX reads a 4xx as "ignore", which ends in a refusal).
 */
export const BrokerAuthRequestSchema = z.object({
  clientid: z.string().min(1).max(256),
  username: z.string().max(256).optional(),
  password: z.string().max(512).optional(),
  /**
   * The address the device connects from (EMQX 5 `${peerhost}`; EMQX 4 `ipaddress=%a`): failed
   * connects lock out that address, never the device elsewhere. Without it nothing is locked.
   */
  peerhost: z.string().max(256).optional(),
  ipaddress: z.string().max(256).optional(),
});
export type BrokerAuthRequest = z.infer<typeof BrokerAuthRequestSchema>;

/**
 * An ACL question: may this client publish or subscribe to this topic. EMQX sends `action`
 * (publish | subscribe); go-auth sends `acc` (1 read, 2 write, 3 read and write, 4 subscribe).
 */
export const BrokerAclRequestSchema = z.object({
  clientid: z.string().min(1).max(256),
  username: z.string().max(256).optional(),
  topic: z.string().min(1).max(1024),
  action: z.enum(['publish', 'subscribe']).optional(),
  acc: z.coerce.number().int().min(1).max(4).optional(),
});
export type BrokerAclRequest = z.infer<typeof BrokerAclRequestSchema>;

/** Messages per operator push. */
export const OPERATOR_PUSH_MAX = 500;
/** HMAC-SHA256, hex, of `${timestamp}.${raw body}` with the shared secret: `sha256=<hex>`. */
export const OPERATOR_SIGNATURE_HEADER = 'x-vigil-signature';
/** Unix seconds; a push more than 5 minutes from our clock is refused (no replays). */
export const OPERATOR_TIMESTAMP_HEADER = 'x-vigil-timestamp';

/**
 * What an operator IoT platform pushes for NB-IoT/4G devices: the messages those devices would
 * have published over MQTT, each with its device and kind; the payload is the same object.
 */
export const OperatorPushSchema = z.strictObject({
  messages: z
    .array(
      z.strictObject({
        deviceId: z.string().min(1).max(DEVICE_ID_MAX).regex(DEVICE_ID_PATTERN),
        kind: z.enum(DEVICE_TOPICS),
        payload: z.record(z.string(), z.unknown()),
      }),
    )
    .min(1)
    .max(OPERATOR_PUSH_MAX),
});
export type OperatorPush = z.infer<typeof OperatorPushSchema>;
