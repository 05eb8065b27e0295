import { EventEmitter } from 'node:events';
import {
  createBehaviour,
  isAlarmEvent,
  WatchBehaviour,
  type Behaviour,
  type BehaviourEnv,
  type EventBody,
  type Site,
} from './behaviours.ts';
import { oneOfEach, parseDeviceCounts, planFleet, type DeviceCount, type FleetPlan } from './catalogue.ts';
import { SimClock, type TsMode } from './clock.ts';
import { SimDevice, type CommandRecord, type OtaRecord, type SentMessage, type StopMode } from './device.ts';
import { Rng } from './random.ts';
import { buildScenario, parseScenarios, type ScenarioRequest, type ScheduledScenario } from './scenarios.ts';
import { newRunSalt, secretsFor, type Secrets } from './secrets.ts';
import { Resident } from './signals/resident.ts';
import { TruthLog } from './truth-log.ts';

/**
 * A fleet of simulated devices: the library the CLI, the server's in-process demo and the tests
 * share. `startFleet` plans the devices, connects them all and runs the scripted scenarios.
 */

export interface FleetOptions {
  /** Broker URL, e.g. mqtt://localhost:1883. */
  url: string;
  /** Which devices: counts or a `--devices` spec (`sleep=20,radar=5`); default one of each type. */
  devices?: readonly DeviceCount[] | string;
  /** An explicit plan instead (from `planFleet`), e.g. one whose devices the caller registered. */
  plan?: FleetPlan;
  /** Device ID prefix. Default SIM. */
  prefix?: string;
  /** Seed of every random choice. Default "vigil". */
  seed?: string | number;
  /** Secrets by device ID; devices without one get one derived from seed and salt. */
  secrets?: Secrets;
  /** Salt of derived secrets. Default: random per run. */
  salt?: string;
  /** Simulated seconds per real second. Default 1. */
  speed?: number;
  /** Simulated start (epoch ms or Date). Default now. */
  start?: number | Date;
  /** What `ts` carries (see clock.ts). Default real. */
  tsMode?: TsMode;
  /** Scripted scenarios: requests or a `--scenario` spec. */
  scenarios?: readonly ScenarioRequest[] | string;
  /** Multiplies the rates of random events. Default 1; 0 leaves only scenarios and triggers. */
  eventRate?: number;
  /** Writes the ground truth (JSON lines) to this file. */
  truthLog?: string;
  /** Where the badges and watches are. */
  site?: Site;
  /** Sleep monitors send beat-to-beat intervals. Default true. */
  rri?: boolean;
  /** Reporting intervals (real seconds) by `--devices` name; defaults: sleep 1 (telemetry), others 60. */
  intervals?: Partial<Record<string, number>>;
  /** First `seq` of every device. Default: real time in microseconds, so a later run never reuses one. */
  seqBase?: number;
  /** Real ms between looks at simulated time. Default 1000. */
  tickMs?: number;
  /** How long `startFleet` waits for the devices to connect (real ms). Default 10 000. */
  connectWaitMs?: number;
  keepalive?: number;
  reconnectPeriod?: number;
  restartDelayMs?: number;
  protocolVersion?: 4 | 5;
  /** Sub-devices' status on their topics, published by their host. Default true. */
  subDeviceStatus?: boolean;
  /** The server's HTTP address, where devices download firmware (`ota`); unset: they refuse `ota`. */
  httpUrl?: string;
  /** Share (0–1) of firmware upgrades that fail while installing. Default 0. */
  otaFailureRate?: number;
  /** The wall clock (tests). */
  realNow?: () => number;
}

export interface ScenarioEvent {
  name: string;
  label: string;
  /** Simulated time (ISO). */
  sim: string;
}

export interface FleetEvents {
  /** A message the fleet published, once its outcome is known (what the truth log records). */
  sent: [SentMessage];
  command: [CommandRecord];
  connect: [string];
  disconnect: [string];
  scenario: [ScenarioEvent];
  warning: [string];
  ota: [OtaRecord];
}

export interface FleetStats {
  devices: number;
  connected: number;
  published: number;
  acked: number;
  failed: number;
}

export const DEFAULT_SITE: Site = { lat: 48.8566, lng: 2.3522, fenceM: 250 };
/**
 * Reporting intervals (real seconds). The server marks a device offline after three intervals of
 * silence (60 s unless told otherwise), so devices without telemetry send a status heartbeat.
 */
const DEFAULT_INTERVAL_S: Record<string, number> = { sleep: 1 };
const HEARTBEAT_S = 60;

export class Fleet extends EventEmitter<FleetEvents> {
  /** The devices that connect (gateway hosts speak for their sub-devices), by ID. */
  readonly devices: ReadonlyMap<string, SimDevice>;
  /** Every device's behaviour, sub-devices included, by ID. */
  readonly behaviours: ReadonlyMap<string, Behaviour>;
  readonly residents: readonly Resident[];
  readonly scenarios: ScheduledScenario[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly watches: WatchBehaviour[];
  private readonly rng: Rng;
  private truth: TruthLog | null = null;
  private counts = { published: 0, acked: 0, failed: 0 };
  private started = false;
  /** Simulated time runs: scenario timers are armed as they are scheduled. */
  private live = false;
  private stopped = false;

  constructor(
    readonly plan: FleetPlan,
    readonly clock: SimClock,
    readonly secrets: Secrets,
    private readonly o: FleetOptions,
  ) {
    super();
    this.rng = new Rng(String(o.seed ?? 'vigil'));
    this.residents = Array.from({ length: plan.rooms }, (_, i) => new Resident(this.rng.derive(`resident:${i}`)));
    const env: BehaviourEnv = {
      start: clock.simStart,
      eventRate: o.eventRate ?? 1,
      residents: this.residents,
      site: o.site ?? DEFAULT_SITE,
      rri: o.rri ?? true,
    };
    const behaviours = new Map(plan.devices.map((d) => [d.id, createBehaviour(d, this.rng, env)]));
    this.behaviours = behaviours;
    this.watches = [...behaviours.values()].filter((b): b is WatchBehaviour => b instanceof WatchBehaviour);
    const phase = this.rng.derive('phase');
    const tickMs = o.tickMs ?? 1000;
    const seqBase = o.seqBase ?? Date.now() * 1000;
    const devices = new Map<string, SimDevice>();
    for (const d of plan.devices) {
      if (d.hostId !== undefined) continue;
      const secret = secrets[d.id];
      if (!secret) throw new Error(`no secret for ${d.id}`);
      const device = new SimDevice({
        url: o.url,
        plan: d,
        secret,
        behaviour: behaviours.get(d.id) as Behaviour,
        subs: (d.subIds ?? []).map((id) => behaviours.get(id) as Behaviour),
        clock,
        intervalS: o.intervals?.[d.short] ?? DEFAULT_INTERVAL_S[d.short] ?? HEARTBEAT_S,
        seqBase,
        tickMs,
        phaseMs: Math.floor(phase.range(0, tickMs)),
        ...(o.keepalive !== undefined ? { keepalive: o.keepalive } : {}),
        reconnectPeriod: Math.round((o.reconnectPeriod ?? 2000) * phase.range(0.75, 1.25)),
        ...(o.restartDelayMs !== undefined ? { restartDelayMs: o.restartDelayMs } : {}),
        ...(o.protocolVersion !== undefined ? { protocolVersion: o.protocolVersion } : {}),
        ...(o.subDeviceStatus !== undefined ? { subDeviceStatus: o.subDeviceStatus } : {}),
        ...(o.httpUrl !== undefined ? { httpUrl: o.httpUrl } : {}),
        ...(o.otaFailureRate !== undefined ? { otaFailureRate: o.otaFailureRate } : {}),
        random: (
          (rng) => () =>
            rng.next()
        )(this.rng.derive(`ota:${d.id}`)),
      });
      device.on('sent', (m) => this.onSent(m));
      device.on('command', (c) => this.emit('command', c));
      device.on('connect', (id) => this.emit('connect', id));
      device.on('disconnect', (id) => this.emit('disconnect', id));
      device.on('warning', (w) => this.emit('warning', w));
      device.on('ota', (r) => this.emit('ota', r));
      devices.set(d.id, device);
    }
    this.devices = devices;
    if (o.truthLog) this.truth = new TruthLog(o.truthLog);
  }

  private onSent(m: SentMessage): void {
    this.counts.published++;
    if (m.acked) this.counts.acked++;
    if (m.error) this.counts.failed++;
    this.truth?.write(m);
    this.emit('sent', m);
    // A stored alarm rings a nurse's watch, which names the calling device when she releases it there.
    if (
      this.watches.length &&
      m.acked &&
      m.topic.endsWith('/event') &&
      isAlarmEvent(m.payload as unknown as EventBody)
    ) {
      this.rng.pick(this.watches).alarmRaised(this.clock.simNow(), m.deviceId);
    }
  }

  /** The device that publishes for `deviceId`: itself, or its gateway host. */
  publisherOf(deviceId: string): SimDevice {
    const id = deviceId.toUpperCase();
    const plan = this.plan.devices.find((d) => d.id === id);
    if (!plan) throw new Error(`no device ${deviceId} in the fleet`);
    return this.devices.get(plan.hostId ?? plan.id) as SimDevice;
  }

  behaviour(deviceId: string): Behaviour {
    const b = this.behaviours.get(deviceId.toUpperCase());
    if (!b) throw new Error(`no device ${deviceId} in the fleet`);
    return b;
  }

  /** Sends one of a device's events now (a sub-device's through its host). */
  trigger(deviceId: string, event: string): void {
    this.publisherOf(deviceId).trigger(event, deviceId.toUpperCase());
  }

  /** Stops one device (default: silently, without its will; see StopMode). */
  async stopDevice(deviceId: string, mode: StopMode = 'silent'): Promise<void> {
    const device = this.devices.get(deviceId.toUpperCase());
    if (!device) throw new Error(`${deviceId} does not connect itself (a sub-device?) or is not in the fleet`);
    await device.stop(mode);
  }

  /** Brings a stopped device back. */
  async startDevice(deviceId: string, waitMs = this.o.connectWaitMs ?? 10_000): Promise<boolean> {
    const device = this.devices.get(deviceId.toUpperCase());
    if (!device) throw new Error(`${deviceId} is not a connecting device of the fleet`);
    return device.start(waitMs);
  }

  stats(): FleetStats {
    let connected = 0;
    for (const d of this.devices.values()) if (d.connected) connected++;
    return { devices: this.plan.devices.length, connected, ...this.counts };
  }

  /**
   * Connects every device (waiting up to `connectWaitMs`), then starts simulated time from its
   * start, the scenarios' timers and the devices' ticks. Resolves with how many connected.
   */
  async start(): Promise<number> {
    if (this.started) return this.stats().connected;
    this.started = true;
    const wait = this.o.connectWaitMs ?? 10_000;
    const results = await Promise.all([...this.devices.values()].map((d) => d.connect(wait)));
    const up = results.filter(Boolean).length;
    if (up < results.length) {
      this.emit('warning', `${results.length - up} of ${results.length} devices not connected after ${wait} ms`);
    }
    if (this.stopped) return up;
    this.clock.anchor();
    this.live = true;
    for (const scenario of this.scenarios) this.arm(scenario);
    for (const d of this.devices.values()) d.run();
    return up;
  }

  /** Sets the timers of a scenario's steps on the simulated clock. */
  private arm(scenario: ScheduledScenario): void {
    for (const step of scenario.steps) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (this.stopped) return;
        this.emit('scenario', { name: scenario.name, label: step.label, sim: new Date(step.at).toISOString() });
        Promise.resolve()
          .then(() => step.run())
          .catch((error: unknown) => this.emit('warning', `scenario ${scenario.name}: ${String(error)}`));
      }, this.clock.realDelayUntil(step.at));
      this.timers.add(timer);
    }
  }

  /**
   * Plans scripted scenarios: residents' days change at once, device steps run on the simulated
   * clock once the fleet has started (at once, if it has).
   */
  schedule(requests: readonly ScenarioRequest[]): void {
    for (const req of requests) {
      const built = buildScenario(req, {
        plan: this.plan,
        residents: this.residents,
        simStart: this.clock.simStart,
        behaviour: (id) => this.behaviour(id),
        trigger: (id, event) => this.trigger(id, event),
        send: (id, outs) => this.publisherOf(id).send(id.toUpperCase(), outs),
        stopDevice: (id, mode) => this.stopDevice(id, mode),
      });
      if (typeof built === 'string') {
        this.emit('warning', `scenario ${req.name} skipped: ${built}`);
        continue;
      }
      this.scenarios.push(built);
      if (this.live) this.arm(built);
    }
  }

  /** Stops every device (default: gracefully, with a retained off-line status) and closes the truth log. */
  async stop(mode: StopMode = 'graceful'): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.all([...this.devices.values()].map((d) => d.stop(mode)));
    this.truth?.close();
  }
}

/** Resolves the options into a plan, a clock and secrets, without connecting anything. */
export const prepareFleet = (options: FleetOptions): Fleet => {
  const counts =
    typeof options.devices === 'string' ? parseDeviceCounts(options.devices) : (options.devices ?? oneOfEach());
  const plan = options.plan ?? planFleet(counts, options.prefix ?? 'SIM');
  const start = options.start instanceof Date ? options.start.getTime() : options.start;
  const clock = new SimClock({
    ...(start !== undefined ? { start } : {}),
    ...(options.speed !== undefined ? { speed: options.speed } : {}),
    ...(options.tsMode ? { tsMode: options.tsMode } : {}),
    ...(options.realNow ? { realNow: options.realNow } : {}),
    paused: true,
  });
  const secrets = secretsFor(plan, String(options.seed ?? 'vigil'), options.salt ?? newRunSalt(), options.secrets);
  return new Fleet(plan, clock, secrets, options);
};

/**
 * Starts a fleet: plans it, schedules the scenarios and connects every device (waiting up to
 * `connectWaitMs`). Stop it with `fleet.stop()`.
 */
export const startFleet = async (options: FleetOptions): Promise<Fleet> => {
  const fleet = prepareFleet(options);
  const scenarios = typeof options.scenarios === 'string' ? parseScenarios(options.scenarios) : options.scenarios;
  // Scheduled first: a scenario changes residents' days from their start.
  if (scenarios?.length) fleet.schedule(scenarios);
  await fleet.start();
  return fleet;
};
