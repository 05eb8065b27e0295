/**
 * The load generator of bench/ingest.ts, run as a child process (IPC; see protocol.ts). It holds
 * one MQTT connection per device (mqtt-wire.ts, not mqtt.js: cheap per message) and publishes,
 * on a schedule that spreads the devices evenly over each period, sleep-monitor telemetry (QoS 0)
 * and `motion` events (QoS 1, publish → PUBACK timed). `ts` is the time of sending and `seq`
 * increases per device. Connections open at a bounded rate; failures are counted, and a
 * connection that closes later is counted and opened again after 2 s.
 */
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  Decoder,
  DISCONNECT,
  encodeConnect,
  encodePublish,
  encodeTopic,
  PACKET,
  PINGREQ,
  type Incoming,
} from './mqtt-wire.ts';
import type { FromGenerator, GeneratorInit, GeneratorStats, ToGenerator } from './protocol.ts';

const CONNACK_TIMEOUT_MS = 30_000;
const MAX_CONNECTING = 100;
const MAX_BUFFERED = 256 * 1024;
const RECONNECT_MS = 2_000;

interface Device {
  id: string;
  socket: Socket | undefined;
  telemetryTopic: Buffer;
  eventTopic: Buffer;
  seq: number;
  packetId: number;
  inflight: Map<number, number>;
  hr: number;
  rr: number;
  lastWrite: number;
}

const send = (message: FromGenerator) => process.send?.(message);

let init: GeneratorInit | undefined;
let devices: Device[] = [];
let stopping = false;

const stats: Omit<GeneratorStats, 'connected' | 'eventAckMs' | 'maxBehindMs'> = {
  telemetrySent: 0,
  eventsSent: 0,
  eventsAcked: 0,
  eventsUnacked: 0,
  skippedOffline: 0,
  skippedBackedUp: 0,
  skippedLate: 0,
  connectFailures: {},
  drops: 0,
};
let eventAckMs: number[] = [];
let maxBehindMs = 0;

const fail = (reason: string) => {
  stats.connectFailures[reason] = (stats.connectFailures[reason] ?? 0) + 1;
};

/** Opens a device's connection; resolves with null once CONNACK accepted it, else with why not. */
const open = (d: Device): Promise<string | null> =>
  new Promise((resolve) => {
    const config = init;
    if (!config) return resolve('not_initialised');
    const socket = connect({ host: config.host, port: config.port });
    socket.setNoDelay(true);
    let settled = false;
    let errorCode: string | undefined;
    const finish = (reason: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (reason) socket.destroy();
      resolve(reason);
    };
    const timer = setTimeout(() => finish('connack_timeout'), CONNACK_TIMEOUT_MS);
    const decoder = new Decoder((p: Incoming) => {
      if (p.type === PACKET.connack) {
        if (p.returnCode !== 0) return finish(`connack_${p.returnCode}`);
        d.socket = socket;
        d.lastWrite = performance.now();
        finish(null);
      } else if (p.type === PACKET.puback) {
        const sentAt = d.inflight.get(p.packetId);
        if (sentAt === undefined) return;
        d.inflight.delete(p.packetId);
        stats.eventsAcked++;
        eventAckMs.push(performance.now() - sentAt);
      }
    });
    socket.on('connect', () => {
      const secret = config.secrets?.[d.id];
      socket.write(
        encodeConnect({
          clientId: d.id,
          ...(secret ? { username: d.id, password: secret } : {}),
          keepaliveSeconds: config.keepaliveSeconds,
        }),
      );
    });
    socket.on('data', (chunk: Buffer) => decoder.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      errorCode = error.code ?? 'error';
    });
    socket.on('close', () => {
      if (!settled) return finish(`socket_${errorCode ?? 'closed'}`);
      if (d.socket !== socket) return;
      d.socket = undefined;
      stats.eventsUnacked += d.inflight.size;
      d.inflight.clear();
      if (stopping) return;
      stats.drops++;
      setTimeout(() => void reopen(d), RECONNECT_MS).unref();
    });
  });

const reopen = async (d: Device) => {
  if (stopping || d.socket) return;
  const reason = await open(d);
  if (reason) {
    fail(reason);
    setTimeout(() => void reopen(d), RECONNECT_MS).unref();
  }
};

/** Opens every connection at `connectRate` a second, at most MAX_CONNECTING at once; retries failures twice. */
const connectAll = async () => {
  const config = init;
  if (!config) return;
  const started = performance.now();
  let todo = devices.filter((d) => !d.socket);
  for (let pass = 0; pass < 3 && todo.length; pass++) {
    const failed: Device[] = [];
    let next = 0;
    let connecting = 0;
    const passStart = performance.now();
    await new Promise<void>((resolve) => {
      const pump = () => {
        const allowed = Math.floor(((performance.now() - passStart) / 1000) * config.connectRate) + 1;
        while (next < todo.length && next < allowed && connecting < MAX_CONNECTING) {
          const d = todo[next++] as Device;
          connecting++;
          void open(d).then((reason) => {
            connecting--;
            if (reason) {
              fail(reason);
              failed.push(d);
            }
            if (next >= todo.length && connecting === 0) {
              clearInterval(timer);
              resolve();
            }
          });
        }
      };
      const timer = setInterval(pump, 10);
      pump();
    });
    todo = failed;
    if (todo.length) await new Promise((r) => setTimeout(r, 2_000));
  }
  send({
    type: 'connected',
    connected: devices.filter((d) => d.socket).length,
    failures: { ...stats.connectFailures },
    seconds: (performance.now() - started) / 1000,
  });
};

const write = (d: Device, packet: Buffer): boolean => {
  const socket = d.socket;
  if (!socket) {
    stats.skippedOffline++;
    return false;
  }
  if (socket.writableLength > MAX_BUFFERED) {
    stats.skippedBackedUp++;
    return false;
  }
  socket.write(packet);
  d.lastWrite = performance.now();
  return true;
};

const telemetry = (d: Device) => {
  d.seq++;
  // A resting sleeper: slow drift of heart and breathing rate, one beat interval per second.
  const hr = d.hr + ((d.seq * 7) % 5) - 2;
  const payload = JSON.stringify({
    ts: Date.now() / 1000,
    seq: d.seq,
    hr,
    rr: d.rr + ((d.seq * 3) % 3) - 1,
    inBed: true,
    asleep: d.seq % 600 > 30,
    move: d.seq % 17 === 0 ? 12 : 1,
    rri: [Math.round(60_000 / hr)],
  });
  if (write(d, encodePublish(d.telemetryTopic, Buffer.from(payload)))) stats.telemetrySent++;
};

const event = (d: Device) => {
  d.seq++;
  d.packetId = (d.packetId % 65_535) + 1;
  const payload = JSON.stringify({ ts: Date.now() / 1000, seq: d.seq, event: 'motion' });
  if (!write(d, encodePublish(d.eventTopic, Buffer.from(payload), d.packetId))) return;
  d.inflight.set(d.packetId, performance.now());
  stats.eventsSent++;
};

/**
 * A stream of `perSecond` sends over the devices in turn: device k of n is due at k/n of each
 * period, so n devices at f Hz each are spread evenly over every 1/f s.
 */
class Schedule {
  private perSecond = 0;
  private since = 0;
  private done = 0;
  /** The next device in turn. */
  cursor = 0;

  constructor(private readonly fire: (d: Device) => void) {}

  set(perSecond: number) {
    this.perSecond = perSecond;
    this.since = performance.now();
    this.done = 0;
  }

  tick(now: number) {
    if (this.perSecond <= 0 || !devices.length) return;
    const due = Math.floor(((now - this.since) / 1000) * this.perSecond);
    let missing = due - this.done;
    if (missing <= 0) return;
    // How long ago the oldest message not yet sent was due (message k is due k / perSecond s after `since`).
    const behind = now - (this.since + ((this.done + 1) / this.perSecond) * 1000);
    if (behind > maxBehindMs) maxBehindMs = behind;
    const excess = missing - Math.ceil(this.perSecond / 10);
    if (behind > 1_000 && excess > 0) {
      // Over a second behind: the generator cannot keep up; give up all but 0.1 s of it, counted.
      stats.skippedLate += excess;
      this.done += excess;
      this.cursor = (this.cursor + excess) % devices.length;
      missing -= excess;
    }
    for (let i = 0; i < missing; i++) {
      this.fire(devices[this.cursor] as Device);
      this.cursor = (this.cursor + 1) % devices.length;
    }
    this.done = due;
  }
}

const telemetrySchedule = new Schedule(telemetry);
const eventSchedule = new Schedule(event);
let ticker: NodeJS.Timeout | undefined;
let keepalive: NodeJS.Timeout | undefined;

const startTicking = () => {
  if (ticker) return;
  ticker = setInterval(() => {
    const now = performance.now();
    telemetrySchedule.tick(now);
    eventSchedule.tick(now);
  }, 4);
  keepalive = setInterval(() => {
    const idleMs = ((init?.keepaliveSeconds ?? 60) * 1000) / 3;
    const now = performance.now();
    for (const d of devices) if (d.socket && now - d.lastWrite > idleMs) write(d, PINGREQ);
  }, 5_000);
};

const stop = async () => {
  stopping = true;
  if (ticker) clearInterval(ticker);
  if (keepalive) clearInterval(keepalive);
  const closing = devices
    .map((d) => d.socket)
    .filter((s): s is Socket => !!s)
    .map(
      (s) =>
        new Promise<void>((resolve) => {
          s.once('close', () => resolve());
          s.end(DISCONNECT);
        }),
    );
  await Promise.race([Promise.all(closing), new Promise((r) => setTimeout(r, 5_000))]);
  for (const d of devices) d.socket?.destroy();
  send({ type: 'stopped' });
  process.exit(0);
};

process.on('message', (message: ToGenerator) => {
  switch (message.type) {
    case 'init': {
      init = message;
      devices = message.deviceIds.map((id, i) => ({
        id,
        socket: undefined,
        telemetryTopic: encodeTopic(`vigil/v1/${id}/telemetry`),
        eventTopic: encodeTopic(`vigil/v1/${id}/event`),
        seq: 0,
        packetId: 0,
        inflight: new Map(),
        hr: 54 + (i % 20),
        rr: 12 + (i % 6),
        lastWrite: 0,
      }));
      // Events start half-way round, away from the first telemetry senders.
      eventSchedule.cursor = Math.floor(devices.length / 2);
      send({ type: 'ready' });
      return;
    }
    case 'connect':
      void connectAll().then(startTicking);
      return;
    case 'rate':
      telemetrySchedule.set(message.telemetryPerSecond);
      eventSchedule.set((devices.length * message.eventsPerDeviceMinute) / 60);
      startTicking();
      return;
    case 'stats': {
      const out: GeneratorStats = {
        ...stats,
        connectFailures: { ...stats.connectFailures },
        connected: devices.filter((d) => d.socket).length,
        eventAckMs,
        maxBehindMs,
      };
      eventAckMs = [];
      maxBehindMs = 0;
      send({ type: 'stats', id: message.id, stats: out });
      return;
    }
    case 'stop':
      void stop();
      return;
  }
});
process.on('disconnect', () => void stop());
