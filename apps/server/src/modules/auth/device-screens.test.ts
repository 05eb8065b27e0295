import { adminLogin, adminSession, deviceCalls } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { addDevice, deviceWorld, loadStock, T, type DeviceWorld } from '../devices/device-test-support.ts';

const DEVICE_SCREENS = ['ed719', 'safeDeviceManage', 'hostDevice'];

/**
 * Issue 29, point 2: the fall-radar, security-device and gateway screens hung on a browser flag no
 * screen set. The session info now says which device groups a session works with (decision 0033).
 */
describeEachDb('device screens in the session info (%s)', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  beforeAll(async () => {
    app = await createTestApp(target);
    w = await deviceWorld(app, 'Screens');
  });
  afterAll(() => app.close());

  const info = async (token: string) => {
    const res = await app.call(adminSession, {}, { token });
    expect(res.status, res.msg).toBe(200);
    return res.data ?? expect.unreachable();
  };
  const screensOf = async (token: string) => (await info(token)).menuList.filter((n) => DEVICE_SCREENS.includes(n));

  it('shows no device screen but the sleep monitors to a provider without devices, in the domestic edition', async () => {
    const home = await info(w.aHome.token);
    expect(home.abroad).toBe(false);
    expect(home.deviceGroups).toEqual([]);
    expect(home.menuList).toContain('deviceManage');
    expect(await screensOf(w.aHome.token)).toEqual([]);
    // The platform administrator, with an empty registry, has none either.
    expect((await info(w.admin)).deviceGroups).toEqual([]);
  });

  it('shows each screen to the providers whose scope holds such devices, in the login answer too', async () => {
    await loadStock(app, w.admin, [
      { deviceId: 'SCR-F1', deviceType: T.fallDomestic },
      { deviceId: 'SCR-D1', deviceType: T.door },
      { deviceId: 'SCR-GW1', deviceType: T.gateway },
      { deviceId: 'SCR-W1', deviceType: T.watch },
    ]);
    // The registry alone is the platform's: providers still see nothing.
    expect((await info(w.admin)).deviceGroups).toEqual(['fall', 'security', 'gateway', 'wearable']);
    expect(await screensOf(w.aHome.token)).toEqual([]);

    await addDevice(app, w.aHome.token, 'SCR-F1', T.fallDomestic);
    expect((await info(w.aHome.token)).deviceGroups).toEqual(['fall']);
    expect(await screensOf(w.aHome.token)).toEqual(['ed719']);

    await addDevice(app, w.aHome.token, 'SCR-D1', T.door);
    const host = await app.call(deviceCalls.heAddHost, { deviceId: 'SCR-GW1' }, { token: w.aHome.token });
    expect(host.status, host.msg).toBe(200);
    expect(await screensOf(w.aHome.token)).toEqual(DEVICE_SCREENS);

    // A fresh login answers the same: a new browser needs nothing but the server's answer.
    const login = await app.call(adminLogin, { userName: w.aHome.userName, passWord: w.aHome.password });
    expect(login.data?.deviceGroups).toEqual(['fall', 'security', 'gateway']);
    expect(login.data?.menuList).toEqual(expect.arrayContaining(DEVICE_SCREENS));

    // The class 1 parent's scope holds its class 2 provider's devices; another tenant's does not.
    expect(await screensOf(w.aGroup.token)).toEqual(DEVICE_SCREENS);
    expect(await screensOf(w.bGroup.token)).toEqual([]);
  });

  it('shows a badge or a nurse watch on the security devices screen', async () => {
    await addDevice(app, w.bGroup.token, 'SCR-W1', T.watch);
    expect((await info(w.bGroup.token)).deviceGroups).toEqual(['wearable']);
    expect(await screensOf(w.bGroup.token)).toEqual(['safeDeviceManage']);
  });
});

describe('device screens of the overseas edition', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('pglite', { env: { VIGIL_ABROAD: '1' } });
  });
  afterAll(() => app.close());

  it('are every screen for every device role, and the session says abroad', async () => {
    const w = await deviceWorld(app, 'Abroad');
    const home = (await app.call(adminSession, {}, { token: w.aHome.token })).data;
    expect(home?.abroad).toBe(true);
    expect(home?.deviceGroups).toEqual(['sleep', 'fall', 'security', 'gateway', 'wearable']);
    expect(home?.menuList).toEqual(expect.arrayContaining(DEVICE_SCREENS));
  });
});
