import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../config.ts';
import { startFakeOperator, type FakeOperator } from './fake-operator.ts';
import { HttpTelecomPlatform } from './http-telecom.ts';
import { TelecomError, type TelecomFailure } from './telecom.ts';

/** The real HTTP adapter against a local operator server: no mock in the code path. */
describe('HTTP operator adapter', () => {
  let operator: FakeOperator;
  let platform: HttpTelecomPlatform;
  const device = { deviceId: 'TEL-1', imei: '861111111111111', iccid: '89860000000000000001', name: 'Door' };

  const failure = async (work: () => Promise<unknown>): Promise<TelecomError> => {
    try {
      await work();
    } catch (error) {
      if (error instanceof TelecomError) return error;
      throw error;
    }
    throw new Error('expected a TelecomError');
  };
  const kind = async (work: () => Promise<unknown>): Promise<TelecomFailure> => (await failure(work)).kind;

  beforeAll(async () => {
    operator = await startFakeOperator();
    platform = new HttpTelecomPlatform({ url: `${operator.url}/`, appKey: operator.appKey, timeoutMs: 5_000 });
  });
  afterEach(() => {
    operator.requests.length = 0;
  });
  afterAll(() => operator?.close());

  it('registers by IMEI with the bearer key, idempotently', async () => {
    const { thirdPartyId } = await platform.register(device);
    expect(thirdPartyId).toMatch(/^CT\d{6}$/);
    expect(operator.devices.get(thirdPartyId)).toMatchObject({
      deviceName: 'TEL-1',
      imei: device.imei,
      iccid: device.iccid,
      status: 'OFFLINE',
    });
    expect(operator.requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/devices',
      authorised: true,
      body: { deviceName: 'TEL-1', imei: device.imei, iccid: device.iccid, label: 'Door' },
    });
    // The same IMEI again: the operator answers 409 with the existing id, taken as success.
    expect(await platform.register({ ...device, deviceId: 'TEL-1-AGAIN' })).toEqual({ thirdPartyId });
    expect(operator.devices.size).toBe(1);
  });

  it('reads the status, mapping the operator\u2019s words', async () => {
    const { thirdPartyId } = await platform.register(device);
    expect(await platform.status(thirdPartyId)).toEqual({ status: 'offline' });
    operator.setStatus(thirdPartyId, 'ONLINE');
    expect(await platform.status(thirdPartyId)).toEqual({ status: 'online' });
    operator.setStatus(thirdPartyId, 'SUSPENDED');
    expect(await platform.status(thirdPartyId)).toEqual({ status: 'unknown' });
    expect(await kind(() => platform.status('CT999999'))).toBe('not_found');
  });

  it('removes a registration; an unknown one counts as removed', async () => {
    const { thirdPartyId } = await platform.register({ ...device, imei: '862222222222222' });
    await platform.remove(thirdPartyId);
    expect(operator.devices.has(thirdPartyId)).toBe(false);
    await expect(platform.remove(thirdPartyId)).resolves.toBeUndefined();
    // Ids are path-escaped.
    await expect(platform.remove('a/../b')).resolves.toBeUndefined();
    expect(operator.requests.at(-1)?.path).toBe('/api/devices/a%2F..%2Fb');
  });

  it('reports a wrong key as unauthorized', async () => {
    const wrong = new HttpTelecomPlatform({ url: operator.url, appKey: 'not-the-key', timeoutMs: 5_000 });
    expect(await kind(() => wrong.register(device))).toBe('unauthorized');
    operator.script({ status: 403, body: { message: 'forbidden' } });
    expect(await kind(() => platform.status('CT000001'))).toBe('unauthorized');
  });

  it('passes the operator\u2019s reason for a refusal on, printable and short', async () => {
    operator.script({ status: 422, body: { code: 'QUOTA', message: 'SIM quota\nexceeded' } });
    const refused = await failure(() => platform.register(device));
    expect([refused.kind, refused.reason]).toEqual(['rejected', 'SIM quota exceeded']);
    operator.script({ status: 400, body: { message: 'x'.repeat(1000) } });
    expect((await failure(() => platform.register(device))).reason).toHaveLength(200);
    operator.script({ status: 400, body: 'not json' });
    expect((await failure(() => platform.register(device))).reason).toBe('HTTP 400');
  });

  it('reports operator failures, unreadable answers and timeouts', async () => {
    operator.script({ status: 500, body: { code: 'INTERNAL' } });
    expect(await kind(() => platform.register(device))).toBe('unavailable');
    operator.script({ status: 503 });
    expect(await kind(() => platform.remove('CT000001'))).toBe('unavailable');
    operator.script({ status: 201, body: '{"deviceId": ' });
    expect(await kind(() => platform.register(device))).toBe('bad_answer');
    operator.script({ status: 201, body: { id: 'wrong-field' } });
    expect(await kind(() => platform.register(device))).toBe('bad_answer');
    operator.script({ status: 200, body: { deviceId: 'CT000001' } });
    expect(await kind(() => platform.status('CT000001'))).toBe('bad_answer');
    const impatient = new HttpTelecomPlatform({ url: operator.url, appKey: operator.appKey, timeoutMs: 200 });
    operator.script({ status: 201, body: { deviceId: 'CT000001' }, delayMs: 3_000 });
    const started = Date.now();
    expect(await kind(() => impatient.register(device))).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('reports an operator that cannot be reached as unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const nowhere = new HttpTelecomPlatform({
      url: `http://127.0.0.1:${port}/api`,
      appKey: 'k'.repeat(8),
      timeoutMs: 500,
    });
    expect(await kind(() => nowhere.register(device))).toBe('unavailable');
  });
});

describe('operator configuration', () => {
  it('is off without TELECOM_API_URL and needs a key with it', () => {
    expect(loadConfig({}).telecom).toBeUndefined();
    expect(
      loadConfig({ TELECOM_API_URL: 'https://iot.example.com/api', TELECOM_APP_KEY: 'secret-key-1' }).telecom,
    ).toEqual({ url: 'https://iot.example.com/api', appKey: 'secret-key-1', timeoutMs: 5000 });
    expect(() => loadConfig({ TELECOM_API_URL: 'https://iot.example.com/api' })).toThrow(
      /TELECOM_APP_KEY: required when TELECOM_API_URL is set/,
    );
    expect(() => loadConfig({ TELECOM_API_URL: 'ftp://iot.example.com', TELECOM_APP_KEY: 'short' })).toThrow(
      ConfigError,
    );
    let text = '';
    try {
      loadConfig({ TELECOM_API_URL: 'ftp://x', TELECOM_APP_KEY: 'short', TELECOM_TIMEOUT_MS: '5' });
    } catch (error) {
      text = String(error);
    }
    expect(text).toMatch(/TELECOM_API_URL: must start with http:\/\/ or https:\/\//);
    expect(text).toMatch(/TELECOM_APP_KEY: must be at least 8 characters/);
    expect(text).toMatch(/TELECOM_TIMEOUT_MS/);
  });
});
