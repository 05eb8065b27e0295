import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Aedes, type AuthenticateError } from 'aedes';
import { connect, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDeviceMessage, parseTopic } from '@vigil/contract';
import { kindInfo, parseDeviceCounts, planFleet } from './catalogue.ts';
import type { SentMessage } from './device.ts';
import { startFleet, type Fleet } from './fleet.ts';
import { secretsFor } from './secrets.ts';
import { parseTruthLog } from './truth-log.ts';

/**
 * The fleet against a real MQTT broker (aedes, in process): what a subscriber sees, commands
 * answered, the last will, and the truth log. The broker checks credentials and lets a device
 * publish only on its own topics, and a gateway host on its sub-devices' too, as the server does.
 */

interface Seen {
  topic: string;
  text: string;
  body: Record<string, unknown>;
}

const WATCHER = 'watcher';
const waitFor = async (what: string, check: () => boolean, timeoutMs = 5000): Promise<void> => {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('a fleet against an MQTT broker', () => {
  let broker: Aedes;
  let server: Server;
  let url: string;
  let watcher: MqttClient;
  let fleet: Fleet;
  let dir: string;
  const seen: Seen[] = [];
  const logins: { clientId: string; username: string | undefined; password: string | undefined }[] = [];
  const refusedPublishes: string[] = [];
  /**
   * The client that published each message and its retain flag, by topic and payload text: aedes
   * tells them in 'publish' (a subscriber gets retain only for stored messages).
   */
  const published = new Map<string, { from: string | null; retain: boolean }>();
  const fromOf = (m: Seen) => published.get(`${m.topic} ${m.text}`)?.from;
  const retainOf = (m: Seen) => published.get(`${m.topic} ${m.text}`)?.retain;
  let secrets: Record<string, string> = {};
  /** Which device may publish for which (host → sub-devices). */
  let mayPublishFor = new Map<string, Set<string>>();

  const received = (deviceId: string, kind: string, pred: (b: Record<string, unknown>) => boolean = () => true) =>
    seen.filter((m) => m.topic === `vigil/v1/${deviceId}/${kind}` && pred(m.body));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-sim-'));
    broker = await Aedes.createBroker({
      authenticate: (client, username, password, done) => {
        logins.push({ clientId: client.id, username, password: password?.toString() });
        const ok =
          client.id === WATCHER ||
          (username === client.id && password !== undefined && secrets[client.id] === password.toString());
        if (ok) return done(null, true);
        const error = new Error('not authorised') as AuthenticateError;
        error.returnCode = 5;
        done(error, false);
      },
      authorizePublish: (client, packet, done) => {
        if (!client || client.id === WATCHER) return done(null);
        const target = parseTopic(packet.topic)?.deviceId;
        const allowed = target === client.id || (target !== undefined && mayPublishFor.get(client.id)?.has(target));
        if (allowed) return done(null);
        refusedPublishes.push(`${client.id} → ${packet.topic}`);
        done(new Error('not your topic'));
      },
    });
    broker.on('publish', (packet, client) => {
      if (packet.topic.startsWith('vigil/')) {
        published.set(`${packet.topic} ${packet.payload.toString()}`, {
          from: client?.id ?? null,
          retain: packet.retain,
        });
      }
    });
    server = createServer(broker.handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;
    watcher = connect(url, { clientId: WATCHER, username: WATCHER, password: 'x', reconnectPeriod: 0 });
    await new Promise((resolve) => watcher.once('connect', resolve));
    await watcher.subscribeAsync('vigil/#', { qos: 1 });
    watcher.on('message', (topic, payload) => {
      const text = payload.toString();
      seen.push({ topic, text, body: JSON.parse(text) as Record<string, unknown> });
    });

    // The fleet's secrets and pairings, known to the broker before the devices connect.
    const options = {
      url,
      devices: 'sleep=1,radar=1,host=1,button=1,door=1,smoke=1,gas=1,co=1,flood=1,motion=1,badge=1,watch=1',
      prefix: 'T',
      seed: 'fleet-test',
      speed: 60,
      eventRate: 0,
      tickMs: 100,
      restartDelayMs: 200,
      connectWaitMs: 5000,
      seqBase: 1000,
      intervals: { badge: 1, watch: 1 },
      truthLog: join(dir, 'truth.jsonl'),
    };
    const plan = planFleet(parseDeviceCounts(options.devices), options.prefix);
    secrets = secretsFor(plan, options.seed, 'salt');
    mayPublishFor = new Map(plan.devices.filter((d) => d.subIds).map((d) => [d.id, new Set(d.subIds)]));
    fleet = await startFleet({ ...options, plan, secrets });
  });

  afterAll(async () => {
    await fleet?.stop('abrupt');
    await watcher?.endAsync(true);
    await new Promise<void>((resolve) => broker?.close(() => resolve()));
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects every device as itself (client id = username = device ID, password = secret)', async () => {
    const connecting = fleet.plan.devices.filter((d) => !d.hostId).map((d) => d.id);
    expect(fleet.stats().connected).toBe(connecting.length);
    for (const id of connecting) {
      expect(logins).toContainEqual({ clientId: id, username: id, password: secrets[id] });
    }
    // Sub-devices never connect: their host speaks for them.
    const subs = fleet.plan.devices.filter((d) => d.hostId).map((d) => d.id);
    expect(subs).toHaveLength(7);
    for (const id of subs) expect(logins.some((l) => l.clientId === id)).toBe(false);
  });

  it('publishes a retained online status with battery, signal and versions on connect', async () => {
    await waitFor('every status', () =>
      fleet.plan.devices.every((d) => received(d.id, 'status', (b) => b.online === true).length > 0),
    );
    for (const d of fleet.plan.devices) {
      const [status] = received(d.id, 'status', (b) => b.online === true);
      expect(status && retainOf(status)).toBe(true);
      expect(status?.body).toMatchObject({ online: true, fw: expect.any(String), hw: expect.any(String) });
      expect(typeof status?.body.signal).toBe('number');
      if (kindInfo(d.kind).battery) expect(typeof status?.body.battery).toBe('number');
      // A sub-device's status comes from its host.
      expect(status && fromOf(status)).toBe(d.hostId ?? d.id);
    }
  });

  it('sends sleep telemetry about once a second', async () => {
    const monitor = fleet.plan.devices.find((d) => d.kind === 'sleep_monitor')?.id as string;
    const before = received(monitor, 'telemetry').length;
    await waitFor('telemetry', () => received(monitor, 'telemetry').length >= before + 2, 4000);
    const [t] = received(monitor, 'telemetry');
    expect(Object.keys(t?.body ?? {})).toEqual(
      expect.arrayContaining(['ts', 'seq', 'hr', 'rr', 'inBed', 'asleep', 'move']),
    );
  });

  it('sends the events of every type, the sensors’ on their own topics through the host', async () => {
    const wanted: [string, string][] = [];
    for (const d of fleet.plan.devices) {
      for (const event of kindInfo(d.kind).events) {
        fleet.trigger(d.id, event);
        wanted.push([d.id, event]);
      }
    }
    // The mat event comes with the next telemetry.
    await waitFor('every triggered event', () =>
      wanted.every(([id, event]) => received(id, 'event', (b) => b.event === event).length > 0),
    );
    for (const d of fleet.plan.devices.filter((x) => x.hostId)) {
      for (const m of received(d.id, 'event')) expect(fromOf(m)).toBe(d.hostId);
    }
    expect(refusedPublishes).toEqual([]);
  });

  it('a nurse watch releases the alarm it was shown, naming the device that called', async () => {
    const [button, watch] = ['emergency_button', 'nurse_watch'].map(
      (kind) => fleet.plan.devices.find((d) => d.kind === kind)?.id as string,
    ) as [string, string];
    // The call is shown on the watch once the broker has it (its PUBACK).
    const shown = new Promise<void>((resolve) => {
      const onSent = (m: SentMessage) => {
        if (m.deviceId !== button || m.payload.event !== 'sos' || !m.acked) return;
        fleet.off('sent', onSent);
        resolve();
      };
      fleet.on('sent', onSent);
    });
    fleet.trigger(button, 'sos');
    await shown;
    fleet.trigger(watch, 'watch_release');
    // The nurse's press, or the release she made of it on her own a simulated minute or more later.
    await waitFor(
      'a watch release naming the button',
      () => received(watch, 'event', (b) => b.event === 'watch_release' && b.deviceId === button).length > 0,
    );
  });

  it('sends only messages the contract parser accepts, with per-device increasing seq', () => {
    const lastSeq = new Map<string, number>();
    for (const m of seen) {
      const result = parseDeviceMessage(m.topic, new TextEncoder().encode(JSON.stringify(m.body)), Date.now() / 1000);
      expect(result, `${m.topic} ${JSON.stringify(m.body)}`).toMatchObject({ ok: true });
      if (typeof m.body.seq !== 'number') continue;
      const device = m.topic.split('/')[2] as string;
      expect(m.body.seq).toBeGreaterThan(lastSeq.get(device) ?? 0);
      lastSeq.set(device, m.body.seq);
    }
  });

  it('answers commands on ack: interval changes the reporting interval, invalid ones are refused', async () => {
    const monitor = fleet.plan.devices.find((d) => d.kind === 'sleep_monitor')?.id as string;
    const host = fleet.plan.devices.find((d) => d.kind === 'gateway_host')?.id as string;
    const send = (id: string, body: unknown) =>
      watcher.publishAsync(`vigil/v1/${id}/cmd`, JSON.stringify(body), { qos: 1 });
    await send(monitor, { id: 11, command: 'interval', params: { interval: 2 } });
    await send(monitor, { id: 12, command: 'interval', params: { interval: 999 } });
    await send(host, { id: 13, command: 'pair_scan', params: {} });
    await send(monitor, { id: 14, command: 'pair', params: {} });
    await waitFor('acks', () => received(monitor, 'ack').length >= 3 && received(host, 'ack').length >= 1);
    expect(received(monitor, 'ack', (b) => b.id === 11)[0]?.body).toMatchObject({ id: 11, ok: true });
    expect(received(monitor, 'ack', (b) => b.id === 12)[0]?.body).toMatchObject({ id: 12, ok: false });
    expect(received(host, 'ack', (b) => b.id === 13)[0]?.body).toMatchObject({ id: 13, ok: true });
    expect(received(monitor, 'ack', (b) => b.id === 14)[0]?.body).toMatchObject({ id: 14, ok: false });
    expect(fleet.devices.get(monitor)?.intervalS).toBe(2);
    // A repeated delivery is answered again, not carried out twice.
    await send(monitor, { id: 11, command: 'interval', params: { interval: 2 } });
    await waitFor('repeat ack', () => received(monitor, 'ack', (b) => b.id === 11).length === 2);
  });

  it('restarts on the restart command: acknowledges, disconnects and comes back on line', async () => {
    const radar = fleet.plan.devices.find((d) => d.kind === 'fall_radar')?.id as string;
    const connects: string[] = [];
    fleet.on('connect', (id) => connects.push(id));
    const statuses = received(radar, 'status', (b) => b.online === true).length;
    await watcher.publishAsync(`vigil/v1/${radar}/cmd`, JSON.stringify({ id: 21, command: 'restart', params: {} }), {
      qos: 1,
    });
    await waitFor('restart ack', () => received(radar, 'ack', (b) => b.id === 21 && b.ok === true).length === 1);
    await waitFor('back on line', () => received(radar, 'status', (b) => b.online === true).length > statuses);
    expect(connects).toContain(radar);
    // A restart is a clean disconnect: no will.
    expect(received(radar, 'status', (b) => b.online === false)).toEqual([]);
    expect(fleet.devices.get(radar)?.connected).toBe(true);
  });

  it('goes silent without a will on stopDevice, and the broker publishes the will on an abrupt stop', async () => {
    const [watch, badge] = ['nurse_watch', 'badge'].map(
      (kind) => fleet.plan.devices.find((d) => d.kind === kind)?.id as string,
    ) as [string, string];
    await fleet.stopDevice(watch);
    await fleet.stopDevice(badge, 'abrupt');
    await waitFor('the will', () => received(badge, 'status', (b) => b.online === false).length === 1);
    const will = received(badge, 'status', (b) => b.online === false)[0] as Seen;
    expect(retainOf(will)).toBe(true);
    expect(Object.keys(will.body).sort()).toEqual(['online', 'ts']);
    await new Promise((r) => setTimeout(r, 300));
    expect(received(watch, 'status', (b) => b.online === false)).toEqual([]);
    expect(fleet.devices.get(watch)?.connected).toBe(false);
    // Nothing more from the silent device.
    const count = seen.filter((m) => m.topic.includes(watch)).length;
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.filter((m) => m.topic.includes(watch)).length).toBe(count);
  });

  it('writes a truth log line for every message, QoS 1 ones acknowledged', async () => {
    await fleet.stop('graceful');
    const lines = parseTruthLog(readFileSync(join(dir, 'truth.jsonl'), 'utf8'));
    expect(lines.length).toBe(fleet.stats().published);
    const qos1 = lines.filter((l) => l.qos === 1);
    expect(qos1.length).toBeGreaterThan(20);
    expect(qos1.filter((l) => !l.acked)).toEqual([]);
    // Every message a device published is in the log, as it was sent; the will (no seq) is not:
    // the broker sent it.
    const logged = new Map(lines.map((l) => [`${l.topic} ${l.seq}`, l]));
    const fromDevices = seen.filter((m) => !m.topic.endsWith('/cmd'));
    for (const m of fromDevices.filter((x) => x.body.seq !== undefined)) {
      const line = logged.get(`${m.topic} ${String(m.body.seq)}`);
      expect(line, `${m.topic} ${String(m.body.seq)}`).toBeDefined();
      expect(line?.payload).toEqual(m.body);
      expect(line?.ts).toBe(m.body.ts);
    }
    expect(fromDevices.filter((x) => x.body.seq === undefined)).toHaveLength(1);
    expect(lines.filter((l) => typeof l.seq !== 'number')).toEqual([]);
    // The graceful stop left an off-line status for the devices still running.
    const sleep = fleet.plan.devices.find((d) => d.kind === 'sleep_monitor')?.id as string;
    expect(lines.some((l) => l.deviceId === sleep && l.payload.online === false && l.acked)).toBe(true);
    // Sub-device lines name the host that published them.
    for (const l of lines.filter((x) => x.via)) {
      expect(fleet.plan.devices.find((d) => d.id === l.deviceId)?.hostId).toBe(l.via);
    }
  });
});
