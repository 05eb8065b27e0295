import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectAsync, type MqttClient } from 'mqtt';
import { and, asc, eq } from 'drizzle-orm';
import { deviceCalls, topicOf, type DeviceCommandMessage } from '@vigil/contract';
import { auditLog, deviceCommands, devices, deviceStock } from '../../../db/schema.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { describeEachDb } from '../../../test/db-suites.ts';
import { EmbeddedBroker } from '../../gateway/testing.ts';
import { COMMAND_EXPIRY_MS } from '../command.service.ts';
import { hashDeviceSecret } from '../../gateway/index.ts';
import { addDevice, deviceWorld, loadStock, T, type DeviceWorld } from '../device-test-support.ts';
import { until } from '../../../test/until.ts';

const {
  heAddHost,
  heInsertDevice,
  heGetDeviceList,
  heSubDevicePair,
  heSubDevicePair2,
  heSubDevicePairStatus,
  heSubDeviceUnPair,
  deviceCommandList,
  getDeviceList,
  heDeleteDevice,
  updateInterval,
} = deviceCalls;

const SECRET = 'pairing-test-secret-0001';

/** A gateway host connected to the embedded broker, as a device would be: it reads its commands and answers them. */
interface Host {
  client: MqttClient;
  /** The next command the host receives (or one already waiting). */
  next: () => Promise<DeviceCommandMessage>;
  ack: (id: number, ok: boolean, error?: string) => Promise<void>;
}

describeEachDb('gateway pairing over the embedded broker (%s)', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  let port: number;
  const clients: MqttClient[] = [];

  const live = () => app.services.gateway.live.store;
  /** PR-H1, connected once for the tests that need it (a second connection would take over the first). */
  let h1: Promise<Host> | undefined;
  const hostH1 = () => (h1 ??= connectHost('PR-H1'));

  const connectHost = async (deviceId: string): Promise<Host> => {
    const client = await connectAsync(`mqtt://127.0.0.1:${port}`, {
      clientId: deviceId,
      username: deviceId,
      password: SECRET,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
    });
    clients.push(client);
    const inbox: DeviceCommandMessage[] = [];
    const waiting: ((m: DeviceCommandMessage) => void)[] = [];
    client.on('message', (_topic, payload) => {
      const message = JSON.parse(payload.toString()) as DeviceCommandMessage;
      const waiter = waiting.shift();
      if (waiter) waiter(message);
      else inbox.push(message);
    });
    await client.subscribeAsync(topicOf(deviceId, 'cmd'), { qos: 1 });
    await until(() => live().get(deviceId)?.online === true);
    return {
      client,
      next: () => {
        const ready = inbox.shift();
        return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
      },
      ack: async (id, ok, error) => {
        await client.publishAsync(topicOf(deviceId, 'ack'), JSON.stringify({ id, ok, ...(error ? { error } : {}) }), {
          qos: 1,
        });
      },
    };
  };

  const status = async (hostDeviceId: string, deviceId: string) => {
    const res = await app.call(heSubDevicePairStatus, { hostDeviceId, deviceId }, { token: w.aHome.token });
    expect(res.status, res.msg).toBe(200);
    if (!res.data) throw new Error('no status');
    return res.data;
  };
  const stateOf = async (hostDeviceId: string, deviceId: string) =>
    (await status(hostDeviceId, deviceId)).command?.state;
  const deviceRow = async (deviceId: string) => {
    const res = await app.call(getDeviceList, { keyWord: deviceId }, { token: w.aHome.token });
    return res.data?.rows.find((r) => r.deviceId === deviceId);
  };
  const pair = (input: { hostDeviceId: string; deviceId: string; deviceType: number; name?: string }, token?: string) =>
    app.call(heSubDevicePair, input, { token: token ?? w.aHome.token });
  const commandsOf = (deviceId: string) =>
    app.database.db
      .select()
      .from(deviceCommands)
      .where(eq(deviceCommands.deviceId, deviceId))
      .orderBy(asc(deviceCommands.id));

  beforeAll(async () => {
    app = await createTestApp(target);
    w = await deviceWorld(app, 'Pr');
    await loadStock(app, w.admin, [
      { deviceId: 'PR-H1', deviceType: T.gateway },
      { deviceId: 'PR-H2', deviceType: T.gateway },
      { deviceId: 'PR-H3', deviceType: T.gateway },
      { deviceId: 'PR-HB', deviceType: T.gateway },
      { deviceId: 'PR-D1', deviceType: T.door },
      { deviceId: 'PR-D2', deviceType: T.door },
      { deviceId: 'PR-D3', deviceType: T.door },
      { deviceId: 'PR-S1', deviceType: T.smoke },
      { deviceId: 'PR-BD', deviceType: T.door },
      { deviceId: 'PR-SLP', deviceType: T.sleep },
      ...Array.from({ length: 50 }, (_, i) => ({ deviceId: `PR-FILL-${i}`, deviceType: T.door })),
    ]);
    const hash = await hashDeviceSecret(SECRET);
    for (const id of ['PR-H1', 'PR-H2']) {
      await app.database.db.update(deviceStock).set({ secretHash: hash }).where(eq(deviceStock.deviceId, id));
    }
    for (const id of ['PR-H1', 'PR-H2', 'PR-H3']) {
      const res = await app.call(heAddHost, { deviceId: id }, { token: w.aHome.token });
      expect(res.status, res.msg).toBe(200);
    }
    expect((await app.call(heAddHost, { deviceId: 'PR-HB' }, { token: w.bGroup.token })).status).toBe(200);
    const subs: [string, string, number, string][] = [
      ['PR-H1', 'PR-S1', T.smoke, w.aHome.token],
      ['PR-H2', 'PR-D3', T.door, w.aHome.token],
      ['PR-HB', 'PR-BD', T.door, w.bGroup.token],
    ];
    for (const [hostDeviceId, deviceId, deviceType, token] of subs) {
      const res = await app.call(heInsertDevice, { hostDeviceId, deviceId, deviceType }, { token });
      expect(res.status, res.msg).toBe(200);
    }
    await addDevice(app, w.aHome.token, 'PR-SLP', T.sleep);
    await app.services.gateway.directory.load();
    const broker = app.services.gateway.broker;
    if (!(broker instanceof EmbeddedBroker)) throw new Error('expected the embedded broker');
    port = broker.port;
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await app?.close();
  });

  it('adds a sensor from stock under the host and pairs it: the host is sent `pair`, its ack marks it paired', async () => {
    const host = await hostH1();
    const res = await pair({ hostDeviceId: 'pr-h1', deviceId: 'pr-d1', deviceType: T.door, name: 'Front door' });
    expect(res.status, res.msg).toBe(200);
    expect(res.data).toMatchObject({
      command: 'pair',
      state: 'pending',
      hostDeviceId: 'PR-H1',
      deviceId: 'PR-D1',
      hostOnline: true,
    });
    const command = await host.next();
    expect(command).toEqual({
      id: res.data?.commandId,
      command: 'pair',
      params: { deviceId: 'PR-D1', deviceType: T.door },
    });
    await until(async () => (await stateOf('PR-H1', 'PR-D1')) === 'sent');
    expect(await status('PR-H1', 'PR-D1')).toMatchObject({ paired: false, hostOnline: true });
    // Added under the host, not yet paired: the sub-device shows the pairing waiting for the host.
    expect(await deviceRow('PR-D1')).toMatchObject({
      hostDeviceId: 'PR-H1',
      name: 'Front door',
      paired: false,
      pendingCommands: ['pair'],
    });

    await host.ack(command.id, true);
    const done = await status('PR-H1', 'PR-D1');
    expect(done).toMatchObject({
      hostDeviceId: 'PR-H1',
      deviceId: 'PR-D1',
      paired: true,
      command: { commandId: command.id, command: 'pair', state: 'acked', error: null, attempts: 1 },
    });
    expect(done.command?.sentTime).not.toBeNull();
    expect(done.command?.ackTime).not.toBeNull();
    expect(await deviceRow('PR-D1')).toMatchObject({ paired: true, pendingCommands: [] });
    const audit = await app.database.db.select().from(auditLog).where(eq(auditLog.action, 'device.command.pair'));
    expect(audit.map((a) => a.targetId)).toEqual(['PR-H1']);
  });

  it('pairs with the pairing button (pair_scan) and records the host\u2019s refusal with its reason', async () => {
    const host = await hostH1();
    const res = await app.call(
      heSubDevicePair2,
      { hostDeviceId: 'PR-H1', deviceId: 'PR-S1', deviceType: T.smoke, seconds: 30 },
      { token: w.aHome.token },
    );
    expect(res.status, res.msg).toBe(200);
    expect(res.data).toMatchObject({ command: 'pair_scan', deviceId: 'PR-S1', hostOnline: true });
    const command = await host.next();
    expect(command).toMatchObject({
      command: 'pair_scan',
      params: { deviceId: 'PR-S1', deviceType: T.smoke, seconds: 30 },
    });
    await until(async () => (await stateOf('PR-H1', 'PR-S1')) === 'sent');
    await host.ack(command.id, false, 'no sensor held its pairing button within 30 s');
    expect(await status('PR-H1', 'PR-S1')).toMatchObject({
      paired: false,
      command: {
        command: 'pair_scan',
        state: 'failed',
        error: 'no sensor held its pairing button within 30 s',
        ackTime: null,
      },
    });
    // The default window is 60 s.
    const again = await app.call(
      heSubDevicePair2,
      { hostDeviceId: 'PR-H1', deviceId: 'PR-S1', deviceType: T.smoke },
      { token: w.aHome.token },
    );
    expect(again.status, again.msg).toBe(200);
    const second = await host.next();
    expect(second.params).toEqual({ deviceId: 'PR-S1', deviceType: T.smoke, seconds: 60 });
    await host.ack(second.id, true);
    await until(async () => (await status('PR-H1', 'PR-S1')).paired);
  });

  it('unpairs: the host is sent `unpair` and its ack marks the sub-device unpaired, still under the host', async () => {
    const host = await hostH1();
    const res = await app.call(
      heSubDeviceUnPair,
      { hostDeviceId: 'PR-H1', deviceId: 'PR-D1' },
      { token: w.aHome.token },
    );
    expect(res.status, res.msg).toBe(200);
    expect(res.data).toMatchObject({ command: 'unpair', deviceId: 'PR-D1' });
    const command = await host.next();
    expect(command).toMatchObject({ command: 'unpair', params: { deviceId: 'PR-D1', deviceType: T.door } });
    await host.ack(command.id, true);
    expect(await status('PR-H1', 'PR-D1')).toMatchObject({ paired: false, command: { state: 'acked' } });
    expect(await deviceRow('PR-D1')).toMatchObject({ hostDeviceId: 'PR-H1', paired: false });
  });

  it('queues pair and unpair for an offline host (newest wins) and sends them when it connects; never pair_scan', async () => {
    const scan = await app.call(
      heSubDevicePair2,
      { hostDeviceId: 'PR-H2', deviceId: 'PR-D3', deviceType: T.door },
      { token: w.aHome.token },
    );
    expect([scan.msgKey, scan.msg]).toEqual([
      'device.hostOffline',
      'Gateway host PR-H2 is offline. Pairing with the pairing button needs the host online: switch it on, wait until it shows online, then try again.',
    ]);
    const first = await pair({ hostDeviceId: 'PR-H2', deviceId: 'PR-D3', deviceType: T.door });
    expect(first.data).toMatchObject({ state: 'pending', hostOnline: false });
    expect(await stateOf('PR-H2', 'PR-D3')).toBe('pending');
    const second = await pair({ hostDeviceId: 'PR-H2', deviceId: 'PR-D3', deviceType: T.door });
    expect(await status('PR-H2', 'PR-D3')).toMatchObject({
      command: { commandId: second.data?.commandId, state: 'pending' },
    });
    const [superseded] = (await commandsOf('PR-H2')).filter((c) => c.id === first.data?.commandId);
    expect(superseded?.state).toBe('superseded');
    const [host] = await app
      .call(heGetDeviceList, { keyWord: 'PR-H2' }, { token: w.aHome.token })
      .then((r) => [r.data?.rows[0]]);
    expect(host?.pendingCommands).toEqual(['pair']);
    expect(host?.subDevices.find((s) => s.deviceId === 'PR-D3')?.pendingCommands).toEqual(['pair']);

    const device = await connectHost('PR-H2');
    const command = await device.next();
    expect(command).toMatchObject({ id: second.data?.commandId, command: 'pair' });
    await device.ack(command.id, true);
    expect(await status('PR-H2', 'PR-D3')).toMatchObject({ paired: true, command: { state: 'acked' } });
  });

  it('refuses pairings with a wrong host, a sub-device elsewhere, a wrong type or a full host', async () => {
    const cases: [Promise<{ msgKey?: string | undefined; msg: string }>, string, string][] = [
      [
        pair({ hostDeviceId: 'PR-NONE', deviceId: 'PR-D2', deviceType: T.door }),
        'device.hostNotFound',
        'The gateway host does not exist.',
      ],
      [
        pair({ hostDeviceId: 'PR-HB', deviceId: 'PR-D2', deviceType: T.door }),
        'device.hostNotFound',
        'The gateway host does not exist.',
      ],
      [
        pair({ hostDeviceId: 'PR-SLP', deviceId: 'PR-D2', deviceType: T.door }),
        'device.notGateway',
        'This device is not a gateway host.',
      ],
      [
        pair({ hostDeviceId: 'PR-H2', deviceId: 'PR-D1', deviceType: T.door }),
        'device.notUnderHost',
        'Device PR-D1 is not a sub-device of gateway host PR-H2.',
      ],
      [
        pair({ hostDeviceId: 'PR-H1', deviceId: 'PR-SLP', deviceType: T.sleep }),
        'device.notUnderHost',
        'Device PR-SLP is not a sub-device of gateway host PR-H1.',
      ],
      [
        pair({ hostDeviceId: 'PR-H1', deviceId: 'PR-BD', deviceType: T.door }),
        'device.addedByOther',
        'This device has been added by another provider.',
      ],
      [
        pair({ hostDeviceId: 'PR-H1', deviceId: 'PR-D1', deviceType: T.smoke }),
        'device.typeMismatch',
        'The device ID does not match the device type.',
      ],
      [
        pair({ hostDeviceId: 'PR-H1', deviceId: 'PR-D2', deviceType: T.smoke }),
        'device.typeMismatch',
        'The device ID does not match the device type.',
      ],
      [
        pair({ hostDeviceId: 'PR-H1', deviceId: 'PR-NONE', deviceType: T.door }),
        'device.notRegistered',
        'This device ID is not registered on the platform.',
      ],
      [
        app.call(heSubDeviceUnPair, { hostDeviceId: 'PR-H2', deviceId: 'PR-S1' }, { token: w.aHome.token }),
        'device.notUnderHost',
        'Device PR-S1 is not a sub-device of gateway host PR-H2.',
      ],
      [
        app.call(heSubDeviceUnPair, { hostDeviceId: 'PR-H1', deviceId: 'PR-BD' }, { token: w.aHome.token }),
        'device.notFound',
        'The device does not exist.',
      ],
      [
        app.call(heSubDevicePairStatus, { hostDeviceId: 'PR-HB', deviceId: 'PR-BD' }, { token: w.aHome.token }),
        'device.hostNotFound',
        'The gateway host does not exist.',
      ],
      [
        app.call(heSubDevicePairStatus, { hostDeviceId: 'PR-H1', deviceId: 'PR-D3' }, { token: w.aHome.token }),
        'device.notUnderHost',
        'Device PR-D3 is not a sub-device of gateway host PR-H1.',
      ],
    ];
    for (const [call, key, msg] of cases) {
      const r = await call;
      expect([r.msgKey, r.msg]).toEqual([key, msg]);
    }
    const zh = await app.call(
      heSubDeviceUnPair,
      { hostDeviceId: 'PR-H2', deviceId: 'PR-S1' },
      { token: w.aHome.token, lang: 'zh-CN' },
    );
    expect(zh.msg).toBe('设备 PR-S1 不是网关主机 PR-H2 的子设备。');
    const bad = await app.call(
      heSubDevicePair2,
      { hostDeviceId: 'PR-H1', deviceId: 'PR-S1', deviceType: T.smoke, seconds: 5 },
      { token: w.aHome.token },
    );
    expect([bad.status, bad.msg]).toEqual([400, 'Pairing time must be at least 10.']);
    // Nothing was added by a refused pairing.
    expect(await deviceRow('PR-D2')).toBeUndefined();

    for (let i = 0; i < 49; i++) {
      const r = await app.call(
        heInsertDevice,
        { hostDeviceId: 'PR-H3', deviceId: `PR-FILL-${i}`, deviceType: T.door },
        { token: w.aHome.token },
      );
      expect(r.status, r.msg).toBe(200);
    }
    const full = await pair({ hostDeviceId: 'PR-H3', deviceId: 'PR-FILL-49', deviceType: T.door });
    expect([full.msgKey, full.msg]).toEqual([
      'device.gatewayFull',
      'A gateway host holds fewer than 50 sub-devices; this one is full.',
    ]);
    // One already under the full host still pairs.
    expect((await pair({ hostDeviceId: 'PR-H3', deviceId: 'PR-FILL-0', deviceType: T.door })).status).toBe(200);
  });

  it('lists a device\u2019s commands with their states, newest first; a sub-device\u2019s include its pairings', async () => {
    const hostList = await app.call(deviceCommandList, { deviceId: 'pr-h1' }, { token: w.aHome.token });
    expect(hostList.status, hostList.msg).toBe(200);
    expect(hostList.data?.rows.map((r) => [r.command, r.state, r.params.deviceId])).toEqual([
      ['unpair', 'acked', 'PR-D1'],
      ['pair_scan', 'acked', 'PR-S1'],
      ['pair_scan', 'failed', 'PR-S1'],
      ['pair', 'acked', 'PR-D1'],
    ]);
    expect(hostList.data?.rows[2]).toMatchObject({
      deviceId: 'PR-H1',
      attempts: 1,
      error: 'no sensor held its pairing button within 30 s',
      ackTime: null,
    });
    expect(hostList.data?.total).toBe(4);

    const interval = await app.call(updateInterval, { deviceId: 'PR-D1', interval: 30 }, { token: w.aHome.token });
    expect(interval.status).toBe(200);
    const sub = await app.call(deviceCommandList, { deviceId: 'PR-D1', pageSize: 2 }, { token: w.aHome.token });
    expect(sub.data).toMatchObject({ total: 3, pageNum: 1, pageSize: 2 });
    expect(sub.data?.rows.map((r) => [r.deviceId, r.command, r.state])).toEqual([
      ['PR-D1', 'interval', 'pending'],
      ['PR-H1', 'unpair', 'acked'],
    ]);
    const page2 = await app.call(
      deviceCommandList,
      { deviceId: 'PR-D1', pageNum: 2, pageSize: 2 },
      { token: w.aHome.token },
    );
    expect(page2.data?.rows.map((r) => r.command)).toEqual(['pair']);

    const foreign = await app.call(deviceCommandList, { deviceId: 'PR-H1' }, { token: w.bGroup.token });
    expect(foreign.msgKey).toBe('device.notFound');
    expect((await app.call(deviceCommandList, { deviceId: 'PR-H1' }, { token: w.aGroup.token })).status).toBe(200);
  });

  it('cancels the pairings of a sub-device that leaves, and expires unanswered ones after 24 hours', async () => {
    // PR-H3 is offline: its pairing of PR-FILL-0 still waits.
    expect(await stateOf('PR-H3', 'PR-FILL-0')).toBe('pending');
    const removed = await app.call(
      heDeleteDevice,
      { deviceId: 'PR-FILL-0', deviceType: T.door },
      { token: w.aHome.token },
    );
    expect(removed.status, removed.msg).toBe(200);
    const [cancelled] = (await commandsOf('PR-H3')).filter((c) => c.payload.deviceId === 'PR-FILL-0');
    expect(cancelled?.state).toBe('cancelled');

    const waiting = await pair({ hostDeviceId: 'PR-H3', deviceId: 'PR-FILL-1', deviceType: T.door });
    expect(waiting.status).toBe(200);
    // Queued a day ago (moving the clock instead would end the session too).
    await app.database.db
      .update(deviceCommands)
      .set({ createdAt: new Date(app.clock.now().getTime() - COMMAND_EXPIRY_MS - 1000) })
      .where(eq(deviceCommands.id, waiting.data?.commandId ?? 0));
    await app.services.devices.commands.expireOld();
    expect(await status('PR-H3', 'PR-FILL-1')).toMatchObject({ paired: false, command: { state: 'expired' } });
    const [row] = await app.database.db
      .select()
      .from(devices)
      .where(and(eq(devices.deviceId, 'PR-FILL-1')));
    expect(row?.paired).toBe(false);
  });
});
