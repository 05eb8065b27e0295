import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { deviceNamesHelp, KINDS, parseDeviceCounts, type DeviceCount } from './catalogue.ts';
import { checkSimulatedTs, parseDuration, parseStart, type TsMode } from './clock.ts';
import { parseScenarios, SCENARIOS, type ScenarioRequest } from './scenarios.ts';

/** The command line, parsed and checked: what cli.ts runs. */
export interface CliOptions {
  help: boolean;
  list: boolean;
  url: string;
  devices: DeviceCount[];
  prefix: string;
  seed: string;
  speed: number;
  start: number;
  tsMode: TsMode;
  /** Simulated milliseconds; undefined: until interrupted. */
  durationMs?: number;
  scenarios: ScenarioRequest[];
  eventRate: number;
  intervals: Record<string, number>;
  rri: boolean;
  truth?: string;
  secrets?: string;
  secretsOut?: string;
  salt?: string;
  provision: boolean;
  provisionOnly: boolean;
  api: string;
  adminUser?: string;
  adminPassword?: string;
  providerId?: number;
  otaFailureRate: number;
  quiet: boolean;
}

export const usage = (): string => {
  const scenarios = Object.entries(SCENARIOS)
    .map(([name, s]) => `  ${name.padEnd(12)} at ${s.at.padEnd(6)} ${s.what}`)
    .join('\n');
  return `Usage: npm run simulate -- [options]

A fleet of simulated Vigil devices speaking the device protocol (docs/device-protocol.md) to an
MQTT broker: the server's embedded broker by default.

Connection
  --url URL              broker (default mqtt://localhost:1883, or $MQTT_URL)
  --secrets FILE         device secrets to use, {"DEVICE-ID": "secret", ...} (e.g. an earlier
                         --secrets-out); devices not in it get generated ones
  --secrets-out FILE     write the secrets used, so a later run reconnects as the same devices
  --salt TEXT            salt of generated secrets (default: random per run); secrets are
                         HMAC(salt, seed:deviceId)

Fleet
  --devices SPEC         which devices, e.g. sleep=20,radar=5,host=1,door=3,smoke=2
                         (default: one of every type of the catalogue, i.e. all=1).
                         name=N takes the kind's first model; name:MODEL=N or name:CODE=N one
                         model (radar:ED719N=2, sleep:59=3); all=N every type N times.
                         Security sensors [via host] speak through a gateway host (at most 49
                         each); hosts are added when too few are asked for.
  --prefix TEXT          device ID prefix (default SIM): IDs are PREFIX-ABBR-0001, upper case
  --seed TEXT            seed of every random choice (default: random, printed)
  --event-rate N         multiplies the rates of random events (default 1; 0: scenarios only)
  --interval SPEC        reporting intervals in real seconds by name, e.g. sleep=5,badge=30
                         (defaults: sleep 1 [telemetry], badge/watch 60 [position], others 60
                         [status heartbeat; the server marks a device silent for three
                         intervals offline]); the interval command changes a device's own
  --no-rri               sleep monitors leave out beat-to-beat intervals
  --list                 print the planned devices (JSON lines) and exit

Time
  --speed N              simulated seconds per real second (default 1; 60: an hour a minute)
  --start WHEN           simulated start: now (default), HH:MM (its latest occurrence, local
                         time) or an ISO date-time
  --duration D           stop after this much SIMULATED time (90s, 10m, 8h, 2d); default: run
                         until Ctrl-C. Real run time is D / speed.
  --ts real|sim          what messages carry as ts (default real):
                           real  ts is the wall clock; only the scenario timeline and the
                                 signals (sleep cycles, bedtimes) are accelerated. Always valid:
                                 the server drops ts more than 5 min ahead or 7 days old.
                           sim   ts is the simulated clock (replaying a past night); refused
                                 unless it stays within those limits for the whole run.

Scenarios (simulated, local time of this process: set TZ to change)
  --scenario LIST        comma-separated, or all; name@HH:MM or name@+10m moves one, e.g.
                         --scenario fall-at-3am,smoke@+1m,offline@+2m
${scenarios}

Ground truth
  --truth FILE           append one JSON line per message published, written when its
                         outcome is known: {at, deviceId, via?, topic, qos, retain, seq, ts,
                         sim, payload, acked, ackedAt?, error?}; acked is true once the
                         QoS 1 PUBACK came back (QoS 0: always false), ackedAt says when

Provisioning (through the HTTP API, as a platform administrator)
  --provision            register the fleet's device IDs and secrets (/device/stock/import;
                         devices registered before get this run's secret through
                         /device/stock/setSecret), then run
  --provision-only       register and exit
  --api URL              API base URL (default http://localhost:8080)
  --admin-user NAME      (default $VIGIL_ADMIN_USER, else admin)
  --admin-password PW    (default $VIGIL_ADMIN_PASSWORD)
  --provider-id N        also add the devices to this provider (sub-devices paired under
                         their gateway host)

Other
  --ota-failure-rate R   share (0–1) of firmware upgrades that fail while installing
                         (default 0); devices download firmware from --api
  --quiet                no progress lines
  -h, --help             this text

Device names (--devices)
${deviceNamesHelp()}

Examples
  # register a care home's devices with provider 2, keep the secrets, then run it a night fast
  npm run simulate -- --devices sleep=20,radar=5,button=5,door=5,smoke=2 --provision-only \\
      --admin-password '...' --provider-id 2 --secrets-out data/sim-secrets.json
  npm run simulate -- --devices sleep=20,radar=5,button=5,door=5,smoke=2 \\
      --secrets data/sim-secrets.json --speed 60 --start 22:00 --duration 9h \\
      --scenario all --truth data/truth.jsonl
`;
};

const num = (name: string, text: string, min: number, max: number, int = false): number => {
  const n = Number(text);
  if (!Number.isFinite(n) || n < min || n > max || (int && !Number.isInteger(n))) {
    throw new Error(`--${name}: expected ${int ? 'an integer' : 'a number'} ${min}–${max}, got "${text}"`);
  }
  return n;
};

const parseIntervals = (spec: string): Record<string, number> => {
  const names = new Set(KINDS.map((k) => k.short));
  const out: Record<string, number> = {};
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name = '', value = ''] = part.split('=');
    if (!names.has(name)) throw new Error(`--interval: unknown device name "${name}"`);
    out[name] = num('interval', value, 1, 254, true);
  }
  return out;
};

/** Parses argv (without node and the script); throws an Error with a message for the user. */
export const parseCli = (argv: readonly string[], env: NodeJS.ProcessEnv = {}, nowMs = Date.now()): CliOptions => {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      help: { type: 'boolean', short: 'h' },
      list: { type: 'boolean' },
      url: { type: 'string' },
      devices: { type: 'string' },
      prefix: { type: 'string' },
      seed: { type: 'string' },
      speed: { type: 'string' },
      start: { type: 'string' },
      ts: { type: 'string' },
      duration: { type: 'string' },
      scenario: { type: 'string' },
      'event-rate': { type: 'string' },
      interval: { type: 'string' },
      'no-rri': { type: 'boolean' },
      truth: { type: 'string' },
      secrets: { type: 'string' },
      'secrets-out': { type: 'string' },
      salt: { type: 'string' },
      provision: { type: 'boolean' },
      'provision-only': { type: 'boolean' },
      api: { type: 'string' },
      'admin-user': { type: 'string' },
      'admin-password': { type: 'string' },
      'provider-id': { type: 'string' },
      'ota-failure-rate': { type: 'string' },
      quiet: { type: 'boolean' },
    },
  });
  const tsMode = values.ts ?? 'real';
  if (tsMode !== 'real' && tsMode !== 'sim') throw new Error(`--ts: real or sim`);
  const speed = values.speed !== undefined ? num('speed', values.speed, 0.001, 1_000_000) : 1;
  const start = parseStart(values.start ?? 'now', nowMs);
  const durationMs = values.duration !== undefined ? parseDuration(values.duration) : undefined;
  const mode: TsMode = tsMode === 'sim' ? 'simulated' : 'real';
  if (mode === 'simulated') {
    const problem = checkSimulatedTs(start, speed, durationMs, nowMs);
    if (problem) throw new Error(`--ts sim: ${problem}`);
  }
  const provisionOnly = values['provision-only'] ?? false;
  const provision = provisionOnly || (values.provision ?? false);
  const adminPassword = values['admin-password'] ?? env.VIGIL_ADMIN_PASSWORD;
  if (provision && !adminPassword) throw new Error('--provision needs --admin-password (or $VIGIL_ADMIN_PASSWORD)');
  const opt = <K extends string, V>(key: K, value: V | undefined) =>
    (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;
  return {
    help: values.help ?? false,
    list: values.list ?? false,
    url: values.url ?? env.MQTT_URL ?? 'mqtt://localhost:1883',
    devices: parseDeviceCounts(values.devices ?? 'all=1'),
    prefix: values.prefix ?? 'SIM',
    seed: values.seed ?? randomBytes(4).toString('hex'),
    speed,
    start,
    tsMode: mode,
    ...opt('durationMs', durationMs),
    scenarios: values.scenario ? parseScenarios(values.scenario) : [],
    eventRate: values['event-rate'] !== undefined ? num('event-rate', values['event-rate'], 0, 1_000_000) : 1,
    intervals: values.interval ? parseIntervals(values.interval) : {},
    rri: !(values['no-rri'] ?? false),
    ...opt('truth', values.truth),
    ...opt('secrets', values.secrets),
    ...opt('secretsOut', values['secrets-out']),
    ...opt('salt', values.salt),
    provision,
    provisionOnly,
    api: values.api ?? 'http://localhost:8080',
    ...opt('adminUser', values['admin-user'] ?? env.VIGIL_ADMIN_USER ?? (provision ? 'admin' : undefined)),
    ...opt('adminPassword', adminPassword),
    ...opt(
      'providerId',
      values['provider-id'] !== undefined ? num('provider-id', values['provider-id'], 1, 2 ** 31, true) : undefined,
    ),
    otaFailureRate:
      values['ota-failure-rate'] !== undefined ? num('ota-failure-rate', values['ota-failure-rate'], 0, 1) : 0,
    quiet: values.quiet ?? false,
  };
};
