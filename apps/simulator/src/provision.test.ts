import { describe, expect, it } from 'vitest';
import { parseDeviceCounts, planFleet } from './catalogue.ts';
import { provisionFleet } from './provision.ts';
import { secretsFor } from './secrets.ts';

interface Call {
  path: string;
  token: string | null;
  body: Record<string, unknown>;
}

/** A fake API: answers login, the registry import and the provider's add calls like the server. */
const fakeApi = (options: { registered?: string[]; providerHas?: string[]; mustChange?: boolean } = {}) => {
  const calls: Call[] = [];
  const registered = new Set(options.registered ?? []);
  const ok = (data: unknown) => ({ status: 200, msg: 'ok', data });
  const fail = (msgKey: string, data: unknown = null) => ({ status: 400, msg: msgKey, msgKey, data });
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    const token = new Headers(init?.headers).get('X-Token');
    calls.push({ path: url.pathname, token, body });
    let answer: unknown;
    if (url.pathname === '/admin/login') {
      answer =
        body.userName === 'admin' && body.passWord === 'pw'
          ? ok({ token: 'session-token', mustChangePassword: options.mustChange ?? false })
          : fail('login.failed');
    } else if (token !== 'session-token') {
      answer = fail('session.required');
    } else if (url.pathname === '/device/stock/import') {
      const rows = body.rows as { deviceId: string }[];
      const problems = rows.flatMap((r, index) =>
        registered.has(r.deviceId) ? [{ index, field: 'deviceId', msgKey: 'deviceStock.exists', msg: 'exists' }] : [],
      );
      if (problems.length) answer = fail('deviceStock.rowErrors', { problems });
      else {
        for (const r of rows) registered.add(r.deviceId);
        answer = ok({ added: rows.length });
      }
    } else {
      answer = (options.providerHas ?? []).includes(body.deviceId as string)
        ? fail('device.alreadyAdded')
        : ok({ id: calls.length, deviceId: body.deviceId });
    }
    return new Response(JSON.stringify(answer), { headers: { 'Content-Type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
};

const plan = planFleet(parseDeviceCounts('sleep=2,host=1,door=2,badge=1'));
const secrets = secretsFor(plan, 'seed', 'salt');

describe('provisioning through the API', () => {
  it('logs in and registers every device, with the secrets of those that connect', async () => {
    const api = fakeApi();
    const result = await provisionFleet(plan, secrets, {
      api: 'http://api.test/',
      adminUser: 'admin',
      adminPassword: 'pw',
      fetch: api.fetch,
    });
    expect(result).toEqual({ imported: 6, alreadyRegistered: [], secretsSet: 0, added: 0, alreadyAdded: [] });
    expect(api.calls[0]).toMatchObject({
      path: '/admin/login',
      body: { userName: 'admin', passWord: 'pw', rsa: false },
    });
    const importCall = api.calls[1] as Call;
    expect(importCall).toMatchObject({ path: '/device/stock/import', token: 'session-token' });
    const rows = importCall.body.rows as Record<string, unknown>[];
    expect(rows.map((r) => r.deviceId)).toEqual(plan.devices.map((d) => d.id));
    for (const row of rows) {
      const device = plan.devices.find((d) => d.id === row.deviceId);
      expect(row).toMatchObject({ deviceType: device?.type.code, model: device?.type.model });
      // Sub-devices never connect: no secret.
      expect(row.secret).toBe(device?.hostId ? undefined : secrets[row.deviceId as string]);
    }
  });

  it('imports the devices not yet registered and sets the secret of the others', async () => {
    const api = fakeApi({ registered: ['SIM-SLP-0001'] });
    const lines: string[] = [];
    const result = await provisionFleet(plan, secrets, {
      api: 'http://api.test',
      adminUser: 'admin',
      adminPassword: 'pw',
      fetch: api.fetch,
      log: (l) => lines.push(l),
    });
    expect(result.imported).toBe(5);
    expect(result.alreadyRegistered).toEqual(['SIM-SLP-0001']);
    expect(result.secretsSet).toBe(1);
    expect(api.calls.find((c) => c.path === '/device/stock/setSecret')?.body).toEqual({
      deviceId: 'SIM-SLP-0001',
      secret: secrets['SIM-SLP-0001'],
    });
    expect(lines.join('\n')).toMatch(/already registered/);
  });

  it('adds the devices to a provider, hosts before the sub-devices paired under them', async () => {
    const api = fakeApi({ providerHas: ['SIM-BDG-0001'] });
    const result = await provisionFleet(plan, secrets, {
      api: 'http://api.test',
      adminUser: 'admin',
      adminPassword: 'pw',
      providerId: 3,
      fetch: api.fetch,
    });
    expect(result).toMatchObject({ added: 5, alreadyAdded: ['SIM-BDG-0001'] });
    const adds = api.calls.slice(2);
    const host = adds.find((c) => c.path === '/he/addHost');
    expect(host?.body).toEqual({ deviceId: 'SIM-GW-0001', providerId: 3 });
    const subs = adds.filter((c) => c.path === '/he/insertDevice');
    expect(subs.map((c) => c.body.hostDeviceId)).toEqual(['SIM-GW-0001', 'SIM-GW-0001']);
    expect(adds.indexOf(host as Call)).toBeLessThan(adds.indexOf(subs[0] as Call));
    expect(adds.filter((c) => c.path === '/device/insertDevice').map((c) => c.body.deviceId)).toEqual([
      'SIM-SLP-0001',
      'SIM-SLP-0002',
      'SIM-BDG-0001',
    ]);
  });

  it('says why when the login fails or the account must change its password', async () => {
    await expect(
      provisionFleet(plan, secrets, {
        api: 'http://api.test',
        adminUser: 'admin',
        adminPassword: 'no',
        fetch: fakeApi().fetch,
      }),
    ).rejects.toThrow(/login as admin failed/);
    await expect(
      provisionFleet(plan, secrets, {
        api: 'http://api.test',
        adminUser: 'admin',
        adminPassword: 'pw',
        fetch: fakeApi({ mustChange: true }).fetch,
      }),
    ).rejects.toThrow(/generated password/);
  });
});
