import { EventEmitter } from 'node:events';
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { downloadPackage, otaOrderOf, type OtaOrder, type OtaReport } from './ota.ts';
import {
  CONSTANTS,
  DeviceCommandMessageSchema,
  topicOf,
  type DeviceTopic,
  type DeviceCommandMessage,
} from '@vigil/contract';
import type { Behaviour, CommandOutcome, Out } from './behaviours.ts';
import type { DevicePlan } from './catalogue.ts';
import type { SimClock } from './clock.ts';

/**
 * One simulated device: its own MQTT client (client id = username = device ID, password = its
 * secret), a retained `status` on every connect with a last will of `{ts, online: false}` on the
 * same topic, a QoS 1 subscription to its `cmd` topic answered on `ack`, and what its behaviour
 * produces as simulated time passes. A gateway host also publishes for its sub-devices, on their
 * topics, each with its own `seq`.
 */

/** One message the simulator sent, as the truth log records it. */
export interface SentMessage {
  /** Real time of the publish (ISO). */
  at: string;
  /** The device the topic names (a sub-device for what its host sends). */
  deviceId: string;
  /** The gateway host that published it, for a sub-device's message. */
  via?: string;
  topic: string;
  qos: 0 | 1;
  retain: boolean;
  seq: number;
  ts: number;
  /** Simulated time of the message (ISO). */
  sim: string;
  payload: Record<string, unknown>;
  /** QoS 1: the broker's PUBACK came back. QoS 0 has no acknowledgement: always false. */
  acked: boolean;
  /** When the PUBACK came back (ISO, real time). */
  ackedAt?: string;
  /** What the client reported instead (connection closed, stopped before the PUBACK…). */
  error?: string;
}

/**
 * How a device stops:
 * - `silent`: an MQTT DISCONNECT and nothing else. The broker discards the will and the retained
 *   status still says online: the server must notice the connection is gone.
 * - `abrupt`: the socket is destroyed without DISCONNECT (power cut): the broker publishes the will.
 * - `graceful`: a retained `{online: false}` status, then DISCONNECT.
 */
export type StopMode = 'silent' | 'abrupt' | 'graceful';

/** A message as a device publishes it: its topic and its payload, stamped with `ts` and `seq`. */
export const stampMessage = (
  deviceId: string,
  kind: DeviceTopic,
  body: Record<string, unknown>,
  ts: number,
  seq?: number,
): { topic: string; payload: Record<string, unknown> } => ({
  topic: topicOf(deviceId, kind),
  payload: { ts, ...(seq !== undefined ? { seq } : {}), ...body },
});

/** The last will: the retained status `{ts, online: false}`, written at connect time. */
export const willMessage = (deviceId: string, ts: number) => stampMessage(deviceId, 'status', { online: false }, ts);

export interface CommandRecord {
  deviceId: string;
  id: number;
  command: string;
  params: Record<string, unknown>;
  outcome: CommandOutcome;
  /** A repeated delivery of a command already carried out: answered again, not redone. */
  repeat: boolean;
}

export interface DeviceOptions {
  url: string;
  plan: DevicePlan;
  secret: string;
  behaviour: Behaviour;
  /** The sub-devices' behaviours, for a gateway host. */
  subs?: readonly Behaviour[];
  clock: SimClock;
  /** Reporting interval (real seconds): telemetry, position, or a status heartbeat. */
  intervalS: number;
  /** First `seq` of this run (each device's counter starts here). */
  seqBase: number;
  /** How often the device looks at simulated time (real ms). Default 1000. */
  tickMs?: number;
  /** Real ms before the first tick, to spread a fleet's publishes. Default 0. */
  phaseMs?: number;
  keepalive?: number;
  reconnectPeriod?: number;
  connectTimeout?: number;
  /** Real ms a restart keeps the device off line. Default 2000. */
  restartDelayMs?: number;
  protocolVersion?: 4 | 5;
  clean?: boolean;
  /** Publish the sub-devices' status (battery, signal) on their topics. Default true. */
  subDeviceStatus?: boolean;
  /** The server's HTTP address, for firmware downloads (`ota`); unset: `ota` is refused. */
  httpUrl?: string;
  /** Share (0–1) of firmware upgrades that fail while installing ("flash write error"). Default 0. */
  otaFailureRate?: number;
  /** Random numbers for the failures (the fleet passes a seeded one). Default Math.random. */
  random?: () => number;
}

/** A firmware upgrade's step, as the device reported it. */
export interface OtaRecord {
  deviceId: string;
  commandId: number;
  version: string;
  report: OtaReport | { state: 'restarted'; fw: string };
}

export interface SimDeviceEvents {
  sent: [SentMessage];
  command: [CommandRecord];
  connect: [string];
  disconnect: [string];
  warning: [string];
  ota: [OtaRecord];
}

export class SimDevice extends EventEmitter<SimDeviceEvents> {
  readonly id: string;
  readonly plan: DevicePlan;
  readonly behaviour: Behaviour;
  readonly subs: ReadonlyMap<string, Behaviour>;
  private readonly paired = new Set<string>();
  private client: MqttClient | null = null;
  private ticker: NodeJS.Timeout | null = null;
  private firstTick: NodeJS.Timeout | null = null;
  private intervalMs: number;
  private nextReportAt = 0;
  private readonly seqs = new Map<string, number>();
  private readonly pending = new Set<{ record: Omit<SentMessage, 'acked'>; done: boolean }>();
  private readonly handled = new Map<number, CommandOutcome>();
  /** Events produced while the device is restarting: sent once it is back. */
  private backlog: { deviceId: string; out: Out }[] = [];
  private restarting = false;
  private running = false;
  /** Connected and announced (status published) since the last disconnect. */
  private online = false;
  private lastError = '';
  private connectWaiters: (() => void)[] = [];
  /** The firmware installed over the air (the catalogue's version until then). */
  private firmware: string | undefined;
  /** The `ota` command being carried out. */
  private upgrading: number | null = null;

  constructor(private readonly o: DeviceOptions) {
    super();
    this.id = o.plan.id;
    this.plan = o.plan;
    this.behaviour = o.behaviour;
    this.subs = new Map((o.subs ?? []).map((b) => [b.plan.id, b]));
    for (const id of this.subs.keys()) this.paired.add(id);
    this.intervalMs = o.intervalS * 1000;
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** The firmware version the device reports. */
  get firmwareVersion(): string | undefined {
    return this.firmware ?? (this.behaviour.status() as { fw?: string }).fw;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Reporting interval, real seconds. */
  get intervalS(): number {
    return this.intervalMs / 1000;
  }

  /** The next `seq` of a device (this one or a sub-device). */
  private nextSeq(deviceId: string): number {
    const seq = this.seqs.get(deviceId) ?? this.o.seqBase;
    this.seqs.set(deviceId, seq + 1);
    return seq;
  }

  /** Connects and starts producing; resolves once connected or after `waitMs` (real), whichever first. */
  async start(waitMs = 10_000): Promise<boolean> {
    const connected = await this.connect(waitMs);
    this.run();
    return connected;
  }

  /** Connects (without producing yet); resolves once connected or after `waitMs` real ms. */
  connect(waitMs = 10_000): Promise<boolean> {
    if (!this.running) {
      this.running = true;
      this.openClient();
    }
    return this.waitConnected(waitMs);
  }

  /** Starts producing: a tick every `tickMs`, the first after `phaseMs`. */
  run(): void {
    if (!this.running || this.firstTick || this.ticker) return;
    this.firstTick = setTimeout(() => {
      this.firstTick = null;
      if (!this.running) return;
      this.tick();
      this.ticker = setInterval(() => this.tick(), this.o.tickMs ?? 1000);
    }, this.o.phaseMs ?? 0);
  }

  /** Resolves true once connected, false after `waitMs` real ms. */
  waitConnected(waitMs: number): Promise<boolean> {
    if (this.connected) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.connectWaiters = this.connectWaiters.filter((w) => w !== done);
        resolve(false);
      }, waitMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.connectWaiters.push(done);
    });
  }

  private willPayload(): string {
    return JSON.stringify(willMessage(this.id, this.o.clock.ts()).payload);
  }

  private openClient(): void {
    const statusTopic = topicOf(this.id, 'status');
    const options: IClientOptions = {
      clientId: this.id,
      username: this.id,
      password: this.o.secret,
      clean: this.o.clean ?? true,
      keepalive: this.o.keepalive ?? 30,
      reconnectPeriod: this.o.reconnectPeriod ?? 2000,
      connectTimeout: this.o.connectTimeout ?? 10_000,
      protocolVersion: this.o.protocolVersion ?? 4,
      // A refusal at CONNACK (not provisioned yet, server starting) is retried like a lost connection.
      reconnectOnConnackError: true,
      // Subscribed explicitly on every connect, before the status, so no command is missed.
      resubscribe: false,
      // Telemetry is not worth sending late: dropped while off line. Events (QoS 1) are kept.
      queueQoSZero: false,
      will: { topic: statusTopic, payload: Buffer.from(this.willPayload()), qos: 1, retain: true },
    };
    const basePeriod = options.reconnectPeriod ?? 2000;
    const client = connect(this.o.url, options);
    this.client = client;
    client.on('reconnect', () => {
      // The will is written at connect time: give it that connect's time.
      if (client.options.will) client.options.will.payload = Buffer.from(this.willPayload());
    });
    client.on('connect', () => {
      client.options.reconnectPeriod = basePeriod;
      void this.onConnect(client);
    });
    client.on('close', () => {
      // Once per connection lost (not for every failed reconnect attempt).
      if (this.online && this.client === client) {
        this.online = false;
        this.emit('disconnect', this.id);
      }
    });
    client.on('error', (error) => {
      // Refused at CONNACK (unknown device, wrong secret, too many attempts): back off, up to a minute.
      if (error.message.startsWith('Connection refused')) {
        client.options.reconnectPeriod = Math.min(60_000, (client.options.reconnectPeriod ?? basePeriod) * 2);
      }
      if (error.message !== this.lastError) {
        this.lastError = error.message;
        this.emit('warning', `${this.id}: ${error.message}`);
      }
    });
    client.on('message', (topic, payload) => {
      if (topic === topicOf(this.id, 'cmd')) this.onCommand(payload);
    });
  }

  private async onConnect(client: MqttClient): Promise<void> {
    this.lastError = '';
    try {
      await client.subscribeAsync(topicOf(this.id, 'cmd'), { qos: 1 });
    } catch (error) {
      this.emit('warning', `${this.id}: subscribe failed: ${(error as Error).message}`);
    }
    if (this.client !== client || !client.connected) return;
    this.online = true;
    this.publishStatus(true);
    const backlog = this.backlog;
    this.backlog = [];
    for (const { deviceId, out } of backlog) this.publishOut(deviceId, out);
    this.emit('connect', this.id);
    const waiters = this.connectWaiters;
    this.connectWaiters = [];
    for (const w of waiters) w();
  }

  private statusFields(): Record<string, unknown> {
    return { ...this.behaviour.status(), ...(this.firmware ? { fw: this.firmware } : {}) };
  }

  private publishStatus(online: boolean): Promise<void>[] {
    const done: Promise<void>[] = [];
    done.push(this.publish(this.id, 'status', { online, ...(online ? this.statusFields() : {}) }, 1, true));
    if (this.o.subDeviceStatus ?? true) {
      for (const [id, sub] of this.subs) {
        if (!this.paired.has(id)) continue;
        done.push(this.publish(id, 'status', { online, ...(online ? sub.status() : {}) }, 1, true));
      }
    }
    return done;
  }

  /**
   * Publishes one message (stamped with `ts` and the device's next `seq`) and records it when the
   * client's callback fires: for QoS 1 that is the PUBACK. Resolves then.
   */
  private publish(
    deviceId: string,
    kind: DeviceTopic,
    body: Record<string, unknown>,
    qos: 0 | 1,
    retain = false,
  ): Promise<void> {
    const client = this.client;
    const seq = this.nextSeq(deviceId);
    const ts = this.o.clock.ts();
    const { topic, payload } = stampMessage(deviceId, kind, body, ts, seq);
    const record: Omit<SentMessage, 'acked'> = {
      at: new Date(this.o.clock.realNow()).toISOString(),
      deviceId,
      ...(deviceId !== this.id ? { via: this.id } : {}),
      topic,
      qos,
      retain,
      seq,
      ts,
      sim: new Date(Math.round(this.o.clock.simNow())).toISOString(),
      payload,
    };
    const entry = { record, done: false };
    return new Promise((resolve) => {
      const finish = (error?: Error | null) => {
        if (entry.done) return;
        entry.done = true;
        this.pending.delete(entry);
        this.emit('sent', {
          ...record,
          acked: qos === 1 && !error,
          ...(qos === 1 && !error ? { ackedAt: new Date(this.o.clock.realNow()).toISOString() } : {}),
          ...(error ? { error: error.message } : {}),
        });
        resolve();
      };
      if (!client) {
        finish(new Error('not connected'));
        return;
      }
      this.pending.add(entry);
      client.publish(topic, JSON.stringify(payload), { qos, retain }, (error) => finish(error));
    });
  }

  private publishOut(deviceId: string, out: Out): void {
    if (out.kind === 'telemetry') {
      // Telemetry of a device off line is lost, as a real pad's would be.
      if (this.connected && !this.restarting) void this.publish(deviceId, 'telemetry', out.body, 0);
      return;
    }
    if (this.restarting || !this.client) {
      if (this.backlog.length < 10_000) this.backlog.push({ deviceId, out });
      return;
    }
    // While the connection is down the client keeps QoS 1 messages and sends them on reconnect.
    void this.publish(deviceId, 'event', out.body, 1);
  }

  /** Looks at simulated time: what happened since the last tick, and the periodic report when due. */
  tick(): void {
    if (!this.running) return;
    const now = this.o.clock.simNow();
    for (const out of this.behaviour.tick(now)) this.publishOut(this.id, out);
    for (const [id, sub] of this.subs) {
      const outs = sub.tick(now);
      if (this.paired.has(id)) for (const out of outs) this.publishOut(id, out);
    }
    const real = this.o.clock.realNow();
    if (real >= this.nextReportAt) {
      this.nextReportAt = real + this.intervalMs - 50;
      const report = this.behaviour.report(now);
      if (report) for (const out of report) this.publishOut(this.id, out);
      else if (this.connected && !this.restarting) this.publishStatus(true);
    }
  }

  /** Sends one of the device's (or a sub-device's) events now. */
  trigger(event: string, deviceId = this.id): void {
    const now = this.o.clock.simNow();
    const behaviour = deviceId === this.id ? this.behaviour : this.subs.get(deviceId);
    if (!behaviour) throw new Error(`${deviceId} is not ${this.id} or one of its sub-devices`);
    for (const out of behaviour.trigger(event, now)) this.publishOut(deviceId, out);
  }

  /** Publishes what a behaviour produced, on the topics of `deviceId` (this device or a sub-device). */
  send(deviceId: string, outs: readonly Out[]): void {
    if (deviceId !== this.id && !this.subs.has(deviceId)) {
      throw new Error(`${deviceId} is not ${this.id} or one of its sub-devices`);
    }
    for (const out of outs) this.publishOut(deviceId, out);
  }

  private onCommand(payload: Buffer): void {
    let raw: unknown;
    try {
      raw = JSON.parse(payload.toString('utf8'));
    } catch {
      this.emit('warning', `${this.id}: command is not JSON`);
      return;
    }
    const parsed = DeviceCommandMessageSchema.safeParse(raw);
    if (!parsed.success) {
      const id = (raw as { id?: unknown } | null)?.id;
      if (typeof id === 'number' && Number.isInteger(id) && id >= 1) {
        void this.publish(this.id, 'ack', { id, ok: false, error: 'invalid command' }, 1);
      }
      this.emit('warning', `${this.id}: invalid command ${payload.toString('utf8').slice(0, 100)}`);
      return;
    }
    const cmd = parsed.data;
    const seen = this.handled.get(cmd.id);
    const outcome = seen ?? this.execute(cmd);
    if (!seen) {
      this.handled.set(cmd.id, outcome);
      if (this.handled.size > 200) this.handled.delete(this.handled.keys().next().value as number);
    }
    this.emit('command', {
      deviceId: this.id,
      id: cmd.id,
      command: cmd.command,
      params: cmd.params,
      outcome,
      repeat: seen !== undefined,
    });
    const ack = this.publish(this.id, 'ack', { id: cmd.id, ...outcome }, 1);
    if (cmd.command === 'restart' && outcome.ok && !seen) void ack.then(() => this.restart());
    if (cmd.command === 'ota' && outcome.ok && !seen) {
      const order = otaOrderOf(cmd.params);
      if (typeof order !== 'string') void ack.then(() => this.upgrade(cmd.id, order));
    }
  }

  /**
   * Carries out an `ota` command: downloads (resuming a broken download), checks, installs and
   * restarts on the new version, reporting each step in its status. A configured share of
   * upgrades fails while installing and keeps the old version.
   */
  private async upgrade(commandId: number, order: OtaOrder): Promise<void> {
    this.upgrading = commandId;
    const record = (report: OtaRecord['report']) =>
      this.emit('ota', { deviceId: this.id, commandId, version: order.version, report });
    const report = (r: OtaReport) => {
      record(r);
      if (this.connected && !this.restarting) {
        void this.publish(
          this.id,
          'status',
          { online: true, ...this.statusFields(), ota: { id: commandId, ...r } },
          1,
          true,
        );
      }
    };
    try {
      await downloadPackage(order, { base: this.o.httpUrl ?? '', report });
      if ((this.o.random ?? Math.random)() < (this.o.otaFailureRate ?? 0)) throw new Error('flash write error');
      report({ state: 'installing' });
      await this.restart(() => {
        this.firmware = order.version;
      });
      record({ state: 'restarted', fw: order.version });
    } catch (error) {
      report({ state: 'failed', error: (error instanceof Error ? error.message : String(error)).slice(0, 200) });
    } finally {
      this.upgrading = null;
    }
  }

  private execute(cmd: DeviceCommandMessage): CommandOutcome {
    if (cmd.command === 'ota') {
      const order = otaOrderOf(cmd.params);
      if (typeof order === 'string') return { ok: false, error: order };
      if (!this.o.httpUrl) return { ok: false, error: 'no HTTP address for downloads' };
      if (this.upgrading !== null) return { ok: false, error: 'busy: another upgrade is under way' };
      return { ok: true };
    }
    if (cmd.command === 'interval') {
      const interval = cmd.params.interval;
      if (
        typeof interval !== 'number' ||
        !Number.isInteger(interval) ||
        interval < CONSTANTS.reportingIntervalMin ||
        interval > CONSTANTS.reportingIntervalMax
      ) {
        return {
          ok: false,
          error: `interval must be an integer ${CONSTANTS.reportingIntervalMin}-${CONSTANTS.reportingIntervalMax}`,
        };
      }
      this.intervalMs = interval * 1000;
      this.nextReportAt = Math.min(this.nextReportAt, this.o.clock.realNow() + this.intervalMs);
      return { ok: true };
    }
    if (cmd.command === 'unpair' || cmd.command === 'pair') {
      const target = cmd.params.deviceId;
      if (typeof target === 'string') {
        const id = target.toUpperCase();
        if (!this.subs.has(id)) return { ok: false, error: `${id} is not a sub-device of ${this.id}` };
        if (cmd.command === 'pair') this.paired.add(id);
        else this.paired.delete(id);
      }
    }
    return this.behaviour.command(cmd.command, cmd.params);
  }

  /** Off line for a moment, as after a reboot: a clean disconnect, then a new connection. */
  private async restart(whileOff?: () => void): Promise<void> {
    if (!this.running || this.restarting) return;
    this.restarting = true;
    await this.closeClient('silent');
    await new Promise((r) => setTimeout(r, this.o.restartDelayMs ?? 2000));
    whileOff?.();
    this.restarting = false;
    if (this.running) this.openClient();
  }

  private async closeClient(mode: StopMode): Promise<void> {
    const client = this.client;
    if (!client) return;
    if (mode === 'graceful' && client.connected) {
      await Promise.race([Promise.all(this.publishStatus(false)), new Promise((r) => setTimeout(r, 5000))]);
    }
    this.client = null;
    if (mode === 'abrupt' || !client.connected) {
      await client.endAsync(true);
    } else {
      // A DISCONNECT once in-flight messages are acknowledged; forced if that takes too long.
      await Promise.race([client.endAsync(false), new Promise((r) => setTimeout(r, 5000))]);
      if (!client.disconnected) await client.endAsync(true);
    }
    this.flushPending('stopped before the PUBACK');
    if (this.online) this.emit('disconnect', this.id);
    this.online = false;
  }

  /** Records the messages still waiting for their PUBACK as not acknowledged. */
  private flushPending(reason: string): void {
    for (const entry of [...this.pending]) {
      entry.done = true;
      this.pending.delete(entry);
      this.emit('sent', { ...entry.record, acked: false, error: reason });
    }
  }

  /** Stops producing and disconnects (see StopMode). `start()` brings it back. */
  async stop(mode: StopMode = 'silent'): Promise<void> {
    if (!this.running) return;
    this.running = false;
    if (this.firstTick) clearTimeout(this.firstTick);
    if (this.ticker) clearInterval(this.ticker);
    this.firstTick = this.ticker = null;
    await this.closeClient(mode);
    // Events of a restart cut short by the stop were never sent: nothing to record.
    this.backlog = [];
  }
}
