import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createClient, firmwareCalls } from '@vigil/contract';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planFleet, provisionFleet, secretsFor, startFleet, type Fleet } from '../../../../simulator/src/index.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { WallClock } from '../../test/wall-clock.ts';
import { EmbeddedBroker } from '../gateway/testing.ts';
import { deviceWorld, type DeviceWorld } from '../devices/device-test-support.ts';

/**
 * A staged rollout to the simulator's sleep monitors over the real protocol: every device
 * downloads the package from the server, checks it, and fails while installing (failure rate
 * 1). The first stage's failure pauses the rollout before any later device is sent anything;
 * resuming opens the next stage, whose failures pause it again.
 */
describe('a staged rollout to simulated monitors that fail', () => {
  let app: TestApp;
  let w: DeviceWorld;
  let fleet: Fleet;
  const plan = planFleet([{ short: 'sleep', count: 10 }], 'RFL');

  beforeAll(async () => {
    app = await createTestApp('pglite', { clock: new WallClock(), env: { OTA_CHECK_SECONDS: '1' } });
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
    w = await deviceWorld(app, 'Rfl');
    const secrets = secretsFor(plan, 'rfl', 'slow');
    const admin = createClient({ baseUrl: base, getToken: () => w.admin, getLanguage: () => 'en-US' });
    await provisionFleet(plan, secrets, {
      api: base,
      adminUser: '',
      adminPassword: '',
      client: admin,
      providerId: w.aGroup.id,
    });
    await app.services.gateway.directory.load();
    const broker = app.services.gateway.broker;
    if (!(broker instanceof EmbeddedBroker)) throw new Error('expected the embedded broker');
    fleet = await startFleet({
      url: `mqtt://127.0.0.1:${broker.port}`,
      plan,
      secrets,
      seed: 'rfl',
      eventRate: 0,
      httpUrl: base,
      otaFailureRate: 1,
      restartDelayMs: 200,
    });
    // The driver reads who is online from the live state the gateway writes.
    await app.services.gateway.live.writer.flush();
  }, 120_000);

  afterAll(async () => {
    await fleet?.stop('abrupt');
    await app?.close();
  });

  const rolloutOf = async (id: number) => {
    const page = await app.call(firmwareCalls.firmwarePageList, {}, { token: w.admin });
    return page.data?.rows.find((r) => r.id === id)?.rollout;
  };

  it('pauses at the first stage’s failure, before later devices get anything; resuming opens the next stage', async () => {
    const bytes = zipSync({ 'firmware.bin': new Uint8Array(200_000).map((_, i) => i & 255) }, { level: 0 });
    const form = new FormData();
    form.append('deviceType', '49');
    form.append('version', '7.0.0');
    form.append('md5', createHash('md5').update(bytes).digest('hex'));
    form.append('file', new Blob([bytes]), 'rfl.zip');
    const uploaded = await app.call(firmwareCalls.firmwareUpload, form, { token: w.admin });
    const id = uploaded.data?.id ?? 0;
    const released = await app.call(
      firmwareCalls.firmwarePost,
      { id, release: 'full', stages: [10, 50, 100], failureThreshold: 20 },
      { token: w.admin },
    );
    expect(released.data?.rollout?.stageCounts.map((s) => s.total)).toEqual([1, 4, 5]);

    await expect.poll(async () => (await rolloutOf(id))?.state, { timeout: 60_000, interval: 500 }).toBe('paused');
    let rollout = await rolloutOf(id);
    expect(rollout).toMatchObject({ stage: 0, pausedReason: 'failures', counts: { failed: 1, pending: 9 } });
    const failed = await app.call(firmwareCalls.firmwareUpgradeList, { id, state: 'failed' }, { token: w.admin });
    expect(failed.data?.rows.map((r) => r.error)).toEqual(['flash write error']);
    // The failed monitor downloaded it all and kept its old version; nobody else was sent it.
    const [first] = failed.data?.rows ?? [];
    expect(fleet.devices.get(first?.deviceId ?? '')?.firmwareVersion).not.toBe('7.0.0');

    const resumed = await app.call(firmwareCalls.firmwareUpdate, { id, action: 'resume' }, { token: w.admin });
    expect(resumed.data?.rollout).toMatchObject({ state: 'running', stage: 1 });
    await expect.poll(async () => (await rolloutOf(id))?.state, { timeout: 60_000, interval: 500 }).toBe('paused');
    rollout = await rolloutOf(id);
    expect(rollout).toMatchObject({ stage: 1, pausedReason: 'failures' });
    expect(rollout?.counts.pending).toBe(5);
    expect([...fleet.devices.values()].every((d) => d.firmwareVersion !== '7.0.0')).toBe(true);
  }, 150_000);
});
