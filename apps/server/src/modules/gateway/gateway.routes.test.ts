import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { deviceEvents, deviceStock } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { hashDeviceSecret } from './credentials/secret.ts';
import { addDevice, deviceWorld, loadStock, T } from '../devices/device-test-support.ts';

const TOKEN = 'broker-auth-token-0123456789';
const PUSH_SECRET = 'operator-push-secret-0123456789';
const SECRET = 'routes-device-secret-01';

describe('the gateway’s HTTP ways in', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp('pglite', {
      env: {
        MQTT_AUTH_TOKEN: TOKEN,
        OPERATOR_PUSH_SECRET: PUSH_SECRET,
        MQTT_URL: 'mqtt://vigil-server:server-pass@127.0.0.1:1',
      },
    });
    const w = await deviceWorld(app, 'Rt');
    await loadStock(app, w.admin, [
      { deviceId: 'RT-S1', deviceType: T.sleep },
      { deviceId: 'RT-NB1', deviceType: T.sos },
    ]);
    const hash = await hashDeviceSecret(SECRET);
    await app.database.db.update(deviceStock).set({ secretHash: hash }).where(eq(deviceStock.deviceId, 'RT-S1'));
    await addDevice(app, w.aHome.token, 'RT-S1', T.sleep);
    await addDevice(app, w.aHome.token, 'RT-NB1', T.sos);
    await app.services.gateway.directory.load();
  }, 120_000);
  afterAll(() => app?.close());

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}, form = false) =>
    app.app.inject({
      method: 'POST',
      url,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
        ...headers,
      },
      payload: form ? new URLSearchParams(payload as Record<string, string>).toString() : JSON.stringify(payload),
    });

  describe('/mqtt/auth and /mqtt/acl (external broker)', () => {
    it('answers only the broker (bearer token)', async () => {
      const res = await post(
        '/mqtt/auth',
        { clientid: 'RT-S1', username: 'RT-S1', password: SECRET },
        {
          authorization: 'Bearer wrong',
        },
      );
      expect(res.statusCode).toBe(401);
    });

    it('allows a device with its secret and denies a wrong one, in JSON or form fields', async () => {
      const ok = await post('/mqtt/auth', { clientid: 'RT-S1', username: 'RT-S1', password: SECRET });
      expect([ok.statusCode, ok.json()]).toEqual([200, { result: 'allow', is_superuser: false }]);
      const form = await post('/mqtt/auth', { clientid: 'rt-s1', username: 'rt-s1', password: SECRET }, {}, true);
      expect(form.statusCode).toBe(200);
      const wrong = await post('/mqtt/auth', { clientid: 'RT-S1', username: 'RT-S1', password: 'nope-nope-nope-nope' });
      expect([wrong.statusCode, wrong.json()]).toEqual([403, { result: 'deny' }]);
      const junk = await post('/mqtt/auth', { clientid: '' });
      expect(junk.statusCode).toBe(403);
    });

    it('counts failures by the device’s address the broker sends: a stranger cannot lock a device out', async () => {
      const auth = (password: string, extra: Record<string, string> = {}, form = false) =>
        post('/mqtt/auth', { clientid: 'RT-S1', username: 'RT-S1', password, ...extra }, {}, form);
      for (let i = 0; i < 30; i++) {
        expect((await auth(`wrong-secret-${i}-00000`, { peerhost: '203.0.113.9' })).statusCode).toBe(403);
      }
      // The device from its own address, and a broker that sends no address, still get in.
      expect((await auth(SECRET, { peerhost: '198.51.100.7' })).statusCode).toBe(200);
      expect((await auth(SECRET)).statusCode).toBe(200);
      // The stranger's address is refused that ID, even with the right secret (EMQX 5's peerhost,
      // EMQX 4's ipaddress as a form field, an IPv4-mapped form of the same address).
      expect((await auth(SECRET, { peerhost: '203.0.113.9' })).statusCode).toBe(403);
      expect((await auth(SECRET, { ipaddress: '203.0.113.9' }, true)).statusCode).toBe(403);
      expect((await auth(SECRET, { peerhost: '::ffff:203.0.113.9' })).statusCode).toBe(403);
      // Junk in the field is no address: the secret decides.
      expect((await auth(SECRET, { peerhost: '${peerhost}' })).statusCode).toBe(200);
    });

    it('allows the server’s own login as superuser', async () => {
      const res = await post('/mqtt/auth', { clientid: 'vigil-a', username: 'vigil-server', password: 'server-pass' });
      expect(res.json()).toEqual({ result: 'allow', is_superuser: true });
      const acl = await post('/mqtt/acl', {
        clientid: 'vigil-a',
        username: 'vigil-server',
        topic: '$share/vigil/#',
        action: 'subscribe',
      });
      expect(acl.statusCode).toBe(200);
    });

    it('lets a device publish on its own topics and subscribe to its own cmd only', async () => {
      const acl = (topic: string, extra: Record<string, unknown>) =>
        post('/mqtt/acl', { clientid: 'RT-S1', username: 'RT-S1', topic, ...extra }).then((r) => r.statusCode);
      expect(await acl('vigil/v1/RT-S1/event', { action: 'publish' })).toBe(200);
      expect(await acl('vigil/v1/RT-NB1/event', { action: 'publish' })).toBe(403);
      expect(await acl('vigil/v1/RT-S1/cmd', { action: 'publish' })).toBe(403);
      expect(await acl('vigil/v1/RT-S1/cmd', { action: 'subscribe' })).toBe(200);
      expect(await acl('vigil/v1/+/cmd', { action: 'subscribe' })).toBe(403);
      // Mosquitto go-auth: acc 2 write, 4 subscribe.
      expect(await acl('vigil/v1/RT-S1/telemetry', { acc: 2 })).toBe(200);
      expect(await acl('vigil/v1/RT-S1/cmd', { acc: 4 })).toBe(200);
    });

    it('refuses an ACL question whose user name is not the client id, as authentication does', async () => {
      const acl = (extra: Record<string, unknown>) =>
        post('/mqtt/acl', { clientid: 'RT-S1', topic: 'vigil/v1/RT-S1/event', action: 'publish', ...extra }).then(
          (r) => r.statusCode,
        );
      expect(await acl({ username: 'RT-S1' })).toBe(200);
      expect(await acl({ username: 'rt-s1' })).toBe(200);
      expect(await acl({})).toBe(200);
      // Another device's login with this client id, or an empty one, speaks for nobody.
      expect(await acl({ username: 'RT-NB1' })).toBe(403);
      expect(await acl({ username: '' })).toBe(403);
      expect(await acl({ username: 'RT-NB1', topic: 'vigil/v1/RT-S1/cmd', action: 'subscribe' })).toBe(403);
    });
  });

  describe('/device/operatorPush (NB-IoT and 4G through the operator platform)', () => {
    const sign = (body: string, at = Math.floor(Date.now() / 1000)) => ({
      'x-vigil-timestamp': String(at),
      'x-vigil-signature': `sha256=${createHmac('sha256', PUSH_SECRET).update(`${at}.${body}`).digest('hex')}`,
    });
    const push = (body: string, headers: Record<string, string>) =>
      app.app.inject({
        method: 'POST',
        url: '/device/operatorPush',
        headers: { 'content-type': 'application/json', ...headers },
        payload: body,
      });
    const sos = (seq: number) =>
      JSON.stringify({
        messages: [{ deviceId: 'RT-NB1', kind: 'event', payload: { ts: Date.now() / 1000, seq, event: 'sos' } }],
      });

    it('feeds signed pushes into the same pipeline, deduplicated', async () => {
      const body = sos(5);
      const first = await push(body, sign(body));
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ result: 'ok', messages: [{ result: 'stored' }] });
      const again = await push(body, sign(body));
      expect(again.json()).toEqual({ result: 'ok', messages: [{ result: 'duplicate' }] });
      const rows = await app.database.db.select().from(deviceEvents).where(eq(deviceEvents.deviceId, 'RT-NB1'));
      expect(rows.filter((r) => r.event === 'sos')).toHaveLength(1);
    });

    it('refuses a wrong signature, an old timestamp and a malformed body', async () => {
      const body = sos(6);
      expect((await push(body, { ...sign(body), 'x-vigil-signature': 'sha256=00' })).statusCode).toBe(401);
      expect((await push(body, sign(body, Math.floor(Date.now() / 1000) - 3600))).statusCode).toBe(401);
      expect((await push(body, {})).statusCode).toBe(401);
      const junk = '{"messages": [{"deviceId": "RT-NB1", "kind": "nonsense", "payload": {}}]}';
      const res = await push(junk, sign(junk));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ result: 'refused', reason: 'schema' });
      const broken = '{"messages": [';
      expect((await push(broken, sign(broken))).json()).toMatchObject({ reason: 'json' });
    });

    it('reports a message the pipeline dropped, with its reason', async () => {
      const body = JSON.stringify({
        messages: [{ deviceId: 'RT-NB1', kind: 'event', payload: { ts: Date.now() / 1000, seq: 9, event: 'explode' } }],
      });
      expect((await push(body, sign(body))).json()).toEqual({
        result: 'ok',
        messages: [{ result: 'dropped', reason: 'unknown_event' }],
      });
    });
  });
});
