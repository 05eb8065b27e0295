import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adminLogin, createClient, deviceCalls, type DeviceGroup } from '@vigil/contract';
import { WallClock } from '../../../test/wall-clock.ts';
import { beds, providers } from '../../../db/schema.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { EmbeddedBroker } from '../broker/embedded-broker.ts';
import { DEMO_SETTING, startDemo, type DemoDeps, type RunningDemo } from './demo-care-home.ts';

describe('the demo care home', () => {
  let app: TestApp;
  let deps: DemoDeps;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-demo-'));
  const running: RunningDemo[] = [];

  beforeAll(async () => {
    app = await createTestApp('pglite', { clock: new WallClock() });
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const broker = app.services.gateway.broker;
    if (!(broker instanceof EmbeddedBroker)) throw new Error('expected the embedded broker');
    deps = {
      db: app.database.db,
      settings: app.services.settings,
      sessions: app.services.store,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      dataDir,
      api: `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`,
      mqttUrl: `mqtt://127.0.0.1:${broker.port}`,
    };
  }, 120_000);
  afterAll(async () => {
    for (const demo of running) await demo.stop();
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is created on an empty database and its devices come online, vitals moving', async () => {
    const demo = await startDemo(deps);
    if (!demo) throw new Error('no demo');
    running.push(demo);
    expect(demo.login?.userName).toBe('demohome');
    expect(fs.readFileSync(path.join(dataDir, 'demo-login'), 'utf8')).toContain(demo.login?.password ?? '?');
    expect((fs.statSync(path.join(dataDir, 'demo-login')).mode & 0o777).toString(8)).toBe('600');

    // The home's own login sees its devices, one of every kind, online.
    let token = '';
    const client = createClient({ baseUrl: deps.api, getToken: () => token });
    const login = await client.call(adminLogin, {
      userName: 'demohome',
      passWord: demo.login?.password ?? '',
      rsa: false,
    });
    token = login.token;
    // A class 2 home: its login lands on real-time monitoring and may open the alarm screens.
    expect(login).toMatchObject({ providerRole: 'TWO_ROLE', landingPath: '/realMonitor/index' });
    expect(login.menuList).toEqual(expect.arrayContaining(['RealTime', 'alarm', 'remindsetting']));
    // It has devices of every group, so every device screen, in the domestic edition too (decision 0033).
    expect(login.deviceGroups).toEqual(['sleep', 'fall', 'security', 'gateway', 'wearable']);
    expect(login.menuList).toEqual(expect.arrayContaining(['deviceManage', 'ed719', 'safeDeviceManage', 'hostDevice']));
    await app.services.gateway.live.writer.flush();
    const list = await client.call(deviceCalls.getDeviceList, { pageNum: 1, pageSize: 100 });
    expect(list.total).toBe(demo.plan.devices.length);
    const groups = new Set<DeviceGroup>(list.rows.map((r) => r.group));
    expect(groups).toEqual(new Set(['sleep', 'fall', 'security', 'gateway', 'wearable']));
    expect(list.rows.filter((r) => !r.online).map((r) => r.deviceId)).toEqual([]);
    // Every device has its place (decision 0046): the nurse watch has no caregiver in the demo,
    // and only bed devices beyond its beds have none.
    const unplaced = new Set(list.rows.filter((r) => r.placeKind === null).map((r) => r.kind));
    expect([...unplaced].filter((k) => k !== 'sleep_monitor' && k !== 'fall_radar')).toEqual(['nurse_watch']);
    const doors = list.rows.filter((r) => r.kind === 'door_magnet').map((r) => [r.name, r.roomName, r.floorName]);
    expect(doors).toEqual(
      expect.arrayContaining([
        ['Bathroom door', '102', 'Ground Floor'],
        ['Exit door', null, 'Ground Floor'],
      ]),
    );
    // Residents lie in beds watched by the sleep monitors.
    const [provider] = await app.database.db.select().from(providers).where(eq(providers.id, demo.record.providerId));
    const occupied = (
      await app.database.db
        .select()
        .from(beds)
        .where(eq(beds.providerId, provider?.id ?? -1))
    ).filter((b) => b.residentId !== null && b.deviceId !== null);
    expect(occupied.length).toBeGreaterThanOrEqual(6);
    // Vitals arrive on the live feed within a few seconds.
    const vitals = await new Promise<number>((resolve) => {
      const off = app.services.gateway.feed.subscribe(
        (item) => {
          if (item.kind === 'vitals') {
            off();
            resolve(item.telemetry.hr);
          }
        },
        ['vitals'],
      );
    });
    expect(vitals).toBeGreaterThanOrEqual(0);
    await demo.stop();
    running.pop();
  });

  it('is remembered: a later start runs the same devices and creates nothing', async () => {
    const before = await app.database.db.select().from(providers);
    const again = await startDemo(deps);
    if (!again) throw new Error('no demo');
    running.push(again);
    expect(again.login).toBeUndefined();
    expect(await app.services.settings.get(DEMO_SETTING)).toEqual(again.record);
    expect(await app.database.db.select().from(providers)).toHaveLength(before.length);
    expect(again.fleet.stats().connected).toBe(again.fleet.devices.size);
  });

  it('is not created on a database that already holds providers', async () => {
    const other = await createTestApp('pglite');
    try {
      const admin = await other.login('admin', 'Vigil-Admin#2026');
      const { makeProvider } = await import('../../../test/fixtures.ts');
      await makeProvider(other, admin, 'Existing Home');
      const demo = await startDemo({ ...deps, db: other.database.db, settings: other.services.settings });
      expect(demo).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});
