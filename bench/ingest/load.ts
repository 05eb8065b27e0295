/**
 * The parent's side of the load generator: 1–4 child processes (generator.ts) sharing the devices
 * (device i goes to child i mod n, so every child's schedule interleaves with the others'), and
 * the floor's counting subscriber.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Decoder, DISCONNECT, encodeConnect, encodeSubscribe, PACKET, PINGREQ } from './mqtt-wire.ts';
import type { FromGenerator, GeneratorStats, ToGenerator } from './protocol.ts';
import { LAG_BOUNDS, LocalHistogram, type Buckets } from './support.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Forks one of this folder's scripts under tsx, with IPC. */
export const forkScript = (file: string): ChildProcess =>
  fork(path.join(HERE, file), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });

/** Resolves with the child's next message of `type` (rejects if it exits first). */
export const nextMessage = <T extends { type: string }>(child: ChildProcess, type: string, timeoutMs = 0): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = timeoutMs ? setTimeout(() => done(new Error(`no ${type} in ${timeoutMs} ms`)), timeoutMs) : undefined;
    const onMessage = (m: { type: string }) => {
      if (m.type === type) done(undefined, m as T);
    };
    const onExit = (code: number | null) => done(new Error(`child exited (${code}) before ${type}`));
    const done = (error?: Error, value?: T) => {
      if (timer) clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(value as T);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });

export interface LoadStats extends GeneratorStats {
  pids: number[];
}

export class Load {
  private statsId = 0;

  private constructor(
    private readonly children: { child: ChildProcess; devices: number }[],
    readonly devices: number,
  ) {}

  static async start(options: {
    host: string;
    port: number;
    deviceIds: string[];
    secrets: Record<string, string> | undefined;
    generators: number;
    connectRate: number;
    onChild: (child: ChildProcess) => void;
  }): Promise<Load> {
    const n = Math.max(1, Math.min(4, options.generators));
    const children = await Promise.all(
      Array.from({ length: n }, async (_, g) => {
        const ids = options.deviceIds.filter((_id, i) => i % n === g);
        const child = forkScript('generator.ts');
        options.onChild(child);
        const ready = nextMessage(child, 'ready', 60_000);
        const init: ToGenerator = {
          type: 'init',
          host: options.host,
          port: options.port,
          deviceIds: ids,
          secrets: options.secrets ? Object.fromEntries(ids.map((id) => [id, options.secrets?.[id] ?? ''])) : undefined,
          connectRate: options.connectRate / n,
          keepaliveSeconds: 120,
        };
        child.send(init);
        await ready;
        return { child, devices: ids.length };
      }),
    );
    return new Load(children, options.deviceIds.length);
  }

  get pids(): number[] {
    return this.children.map((c) => c.child.pid ?? 0);
  }

  /** Opens every device's connection; resolves when all tried (3 passes). */
  async connect(): Promise<{ connected: number; failures: Record<string, number>; seconds: number }> {
    const answers = await Promise.all(
      this.children.map(({ child }) => {
        const answer = nextMessage<Extract<FromGenerator, { type: 'connected' }>>(child, 'connected');
        child.send({ type: 'connect' } satisfies ToGenerator);
        return answer;
      }),
    );
    const failures: Record<string, number> = {};
    for (const a of answers) for (const [k, v] of Object.entries(a.failures)) failures[k] = (failures[k] ?? 0) + v;
    return {
      connected: answers.reduce((n, a) => n + a.connected, 0),
      failures,
      seconds: Math.max(...answers.map((a) => a.seconds)),
    };
  }

  /** `telemetryPerSecond` over all devices (per-device Hz = it / devices); events per device a minute. */
  setRate(telemetryPerSecond: number, eventsPerDeviceMinute: number) {
    for (const { child, devices } of this.children) {
      child.send({
        type: 'rate',
        telemetryPerSecond: (telemetryPerSecond * devices) / this.devices,
        eventsPerDeviceMinute,
      } satisfies ToGenerator);
    }
  }

  async stats(): Promise<LoadStats> {
    const id = ++this.statsId;
    const all = await Promise.all(
      this.children.map(({ child }) => {
        const answer = nextMessage<Extract<FromGenerator, { type: 'stats' }>>(child, 'stats', 30_000);
        child.send({ type: 'stats', id } satisfies ToGenerator);
        return answer.then((m) => m.stats);
      }),
    );
    const out: LoadStats = {
      telemetrySent: 0,
      eventsSent: 0,
      eventsAcked: 0,
      eventsUnacked: 0,
      skippedOffline: 0,
      skippedBackedUp: 0,
      skippedLate: 0,
      connected: 0,
      connectFailures: {},
      drops: 0,
      eventAckMs: [],
      maxBehindMs: 0,
      pids: this.pids,
    };
    for (const s of all) {
      out.telemetrySent += s.telemetrySent;
      out.eventsSent += s.eventsSent;
      out.eventsAcked += s.eventsAcked;
      out.eventsUnacked += s.eventsUnacked;
      out.skippedOffline += s.skippedOffline;
      out.skippedBackedUp += s.skippedBackedUp;
      out.skippedLate += s.skippedLate;
      out.connected += s.connected;
      out.drops += s.drops;
      for (const [k, v] of Object.entries(s.connectFailures))
        out.connectFailures[k] = (out.connectFailures[k] ?? 0) + v;
      for (const ms of s.eventAckMs) out.eventAckMs.push(ms);
      out.maxBehindMs = Math.max(out.maxBehindMs, s.maxBehindMs);
    }
    return out;
  }

  /** Disconnects every device and ends the children. */
  async stop(): Promise<void> {
    await Promise.all(
      this.children.map(async ({ child }) => {
        if (child.exitCode !== null || !child.connected) return;
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.send({ type: 'stop' } satisfies ToGenerator);
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }
}

/**
 * The floor's subscriber: one connection subscribed to `vigil/v1/+/telemetry` (QoS 0) counting
 * the messages of this run's devices (a shared broker may carry other people's), and their lag
 * (`ts` → received) in the buckets of Vigil's `vigil_ingest_lag_seconds`.
 */
export class Subscriber {
  received = 0;
  private readonly lag = new LocalHistogram(LAG_BOUNDS);
  private pinger: NodeJS.Timeout | undefined;

  private constructor(private readonly socket: Socket) {}

  static open(host: string, port: number, clientId: string, devicePrefix: string): Promise<Subscriber> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port });
      const sub = new Subscriber(socket);
      const mine = `vigil/v1/${devicePrefix}`;
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`subscriber: no SUBACK from ${host}:${port}`));
      }, 15_000);
      const decoder = new Decoder((p) => {
        if (p.type === PACKET.publish) {
          if (!p.topic.startsWith(mine)) return;
          sub.received++;
          // `{"ts":1761234567.123,...`: read the number without parsing the whole payload.
          const ts = parseFloat(p.payload.toString('latin1', 6, 26));
          if (Number.isFinite(ts)) sub.lag.observe(Math.max(0, Date.now() / 1000 - ts));
        } else if (p.type === PACKET.connack) {
          if (p.returnCode !== 0) {
            clearTimeout(timer);
            reject(new Error(`subscriber refused: CONNACK ${p.returnCode}`));
            return;
          }
          socket.write(encodeSubscribe(1, 'vigil/v1/+/telemetry', 0));
        } else if (p.type === PACKET.suback) {
          clearTimeout(timer);
          sub.pinger = setInterval(() => socket.write(PINGREQ), 20_000);
          resolve(sub);
        }
      });
      socket.on('connect', () => socket.write(encodeConnect({ clientId, keepaliveSeconds: 60 })));
      socket.on('data', (chunk: Buffer) => decoder.push(chunk));
      socket.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  lagBuckets(): Buckets {
    return this.lag.snapshot();
  }

  close() {
    if (this.pinger) clearInterval(this.pinger);
    this.socket.end(DISCONNECT);
  }
}
