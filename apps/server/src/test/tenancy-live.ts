import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { adminSession, deviceCalls, SocketServerFrameSchema, topicOf, type SocketServerFrame } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ManualClock } from '../clock.ts';
import { alarmNotifications, alarms } from '../db/schema.ts';
import { makeCaregiver } from '../modules/caregivers/care-fixtures.ts';
import { deviceWorld, loadStock, T, type DeviceWorld } from '../modules/devices/device-test-support.ts';
import { createTestApp, type DbTarget, type TestApp } from './harness.ts';
import { until } from './until.ts';

/** A stand-in for the SMS gateway: records every message it is sent. */
const smsGateway = async () => {
  const received: { to: string; text: string }[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      received.push(JSON.parse(data) as { to: string; text: string });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"errcode":0}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
};

/** Frames that put an alarm on a console (a raise), as opposed to a release or a heartbeat. */
const ALERT_PATHS: ReadonlySet<SocketServerFrame['path']> = new Set(['/alertNotify', '/safeAlertNotify']);
const alertOf = (frame: SocketServerFrame) =>
  ALERT_PATHS.has(frame.path) && 'data' in frame ? (frame.data as { id: number; deviceId: string }) : undefined;

/**
 * The tenancy matrix's live-path case (issue 21, hole 4; decision 0040): the matrix proves no call
 * answers or writes across tenants, this proves the live path does not either. A gateway host with
 * an SOS button moves to another tenant (/he/changProvider); the button pressed right after the call
 * returns puts its alarm on the new provider's console and SMS, and nothing of it reaches the old
 * provider's console socket or its caregivers' SMS — not even for a second.
 */
export const liveMoveCase = (target: DbTarget): void => {
  describe('live path: a device moved to another provider', () => {
    const clock = new ManualClock(new Date());
    let app: TestApp;
    let w: DeviceWorld;
    let sms: Awaited<ReturnType<typeof smsGateway>>;
    let url = '';
    let seq = 1;
    const sockets: WebSocket[] = [];

    /** A console of the account behind `token`, logged in; answers the frames it receives. */
    const openConsole = async (token: string): Promise<SocketServerFrame[]> => {
      const key = (await app.call(adminSession, {}, { token })).data?.key ?? '';
      const ws = new WebSocket(`${url}?lang=en-US`);
      sockets.push(ws);
      const frames: SocketServerFrame[] = [];
      ws.on('message', (data) => frames.push(SocketServerFrameSchema.parse(JSON.parse(String(data)))));
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      ws.send(JSON.stringify({ path: '/login', data: { key } }));
      await until(() => frames.some((f) => f.path === '/login'), { what: 'the console login' });
      expect(frames.find((f) => f.path === '/login')).toEqual({ path: '/login', code: 200 });
      return frames;
    };
    const press = (deviceId: string) =>
      app.services.gateway.ingest.handle(
        topicOf(deviceId, 'event'),
        Buffer.from(JSON.stringify({ ts: clock.now().getTime() / 1000, seq: seq++, event: 'sos' })),
      );

    beforeAll(async () => {
      sms = await smsGateway();
      app = await createTestApp(target, {
        clock,
        env: { SMS_URL: sms.url, SMS_KEY: 'live-sms-key-0001', NOTIFY_LANGUAGE: 'en-US', ALARM_ESCALATE_MINUTES: '5' },
      });
      w = await deviceWorld(app, 'Live');
      await loadStock(app, w.admin, [
        { deviceId: 'LIVE-GW', deviceType: T.gateway },
        { deviceId: 'LIVE-SOS', deviceType: T.sos },
      ]);
      const host = await app.call(deviceCalls.heAddHost, { deviceId: 'LIVE-GW' }, { token: w.aHome.token });
      expect(host.status, host.msg).toBe(200);
      const button = await app.call(
        deviceCalls.heInsertDevice,
        { hostDeviceId: 'LIVE-GW', deviceId: 'LIVE-SOS', deviceType: T.sos },
        { token: w.aHome.token },
      );
      expect(button.status, button.msg).toBe(200);
      await app.services.gateway.directory.load();
      await app.app.listen({ port: 0, host: '127.0.0.1' });
      url = `ws://127.0.0.1:${(app.app.server.address() as AddressInfo).port}/websocket`;
    }, 300_000);
    afterAll(async () => {
      for (const ws of sockets) ws.terminate();
      await app?.close();
      await sms?.close();
    });

    it('after /he/changProvider the old provider’s console and SMS get nothing of the device’s alarm', async () => {
      const oldLead = await makeCaregiver(app, w.aHome.token, 'Old lead', { level: 'lead' });
      const newLead = await makeCaregiver(app, w.bGroup.token, 'New lead', { level: 'lead' });
      const oldConsole = await openConsole(w.aHome.token);
      const newConsole = await openConsole(w.bGroup.token);

      // Before the move the old provider's console hears the button: the socket is live.
      await press('LIVE-SOS');
      await until(() => oldConsole.some((f) => alertOf(f)?.deviceId === 'LIVE-SOS'), { what: 'the alarm before' });
      const seenBefore = oldConsole.length;

      const moved = await app.call(
        deviceCalls.heChangProvider,
        { deviceId: 'LIVE-GW', providerId: w.bGroup.id },
        { token: w.admin },
      );
      expect(moved.status, moved.msg).toBe(200);
      // Pressed the moment the call returns.
      await press('LIVE-SOS');
      const [, after] = await app.database.db.select().from(alarms).where(eq(alarms.deviceId, 'LIVE-SOS'));
      expect(after).toMatchObject({ providerId: w.bGroup.id, releaseKind: 0 });
      await until(() => newConsole.some((f) => alertOf(f)?.id === after?.id), { what: 'the alarm on the new console' });
      // One fan-out sends to every console that may see the alarm: the old one would have it by now.
      expect(oldConsole.slice(seenBefore).filter((f) => alertOf(f))).toEqual([]);
      expect(oldConsole.some((f) => alertOf(f)?.id === after?.id)).toBe(false);

      // Unhandled past the escalation time: the new provider's lead is told, never the old one's.
      clock.advance(6 * 60_000);
      await app.services.alarms.notifier.escalate();
      await app.services.alarms.notifier.kick();
      const rows = await app.database.db
        .select()
        .from(alarmNotifications)
        .where(eq(alarmNotifications.alarmId, after?.id ?? 0));
      expect(rows.filter((r) => r.channel === 'sms').map((r) => [r.providerId, r.target])).toEqual([
        [w.bGroup.id, newLead.phone],
      ]);
      await until(() => sms.received.some((m) => m.to === newLead.phone), { what: 'the new lead’s SMS' });
      expect(sms.received.filter((m) => m.to === oldLead.phone)).toEqual([]);
    });
  });
};
