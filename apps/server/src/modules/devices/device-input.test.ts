import { deviceCalls, type CallDef } from '@vigil/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { addDevice, deviceWorld, loadStock, T, type DeviceWorld } from './device-test-support.ts';

const c = deviceCalls;
/** Values no field of these calls accepts: an object, a nested empty list, a huge string, a negative huge number. */
const WRONG = [{ nested: { deep: 1 } }, [[]], 'x'.repeat(200_000), -1e308] as const;

/** Every JSON call with a valid base input naming every field. */
const JSON_CALLS: [CallDef, Record<string, unknown>][] = [
  [c.deviceStockImport, { rows: [{ deviceId: 'IN-1', deviceType: T.door }] }],
  [c.deviceStockList, { pageNum: 1, pageSize: 10, keyWord: 'k', deviceType: T.door, stockState: 'in_stock' }],
  [c.deviceStockRemove, { deviceId: 'IN-1' }],
  [
    c.getDeviceList,
    { pageNum: 1, pageSize: 10, deviceType: T.sleep, kind: 'sleep', online: true, keyWord: 'k', providerId: 1 },
  ],
  [
    c.insertDevice,
    {
      deviceId: 'IN-2',
      deviceType: T.sleep,
      name: 'n',
      commMode: 'wifi',
      firmwareType: 'f',
      remark: 'r',
      providerId: 1,
    },
  ],
  [c.updateDevice, { deviceId: 'IN-S1', name: 'n', commMode: 'wifi', remark: 'r' }],
  [c.isUploadData, { deviceId: 'IN-S1', uploadData: true }],
  [c.restartDevice, { deviceId: 'IN-S1' }],
  [c.syncThirdDevice, { deviceId: 'IN-S1' }],
  [c.heGetDeviceList, { pageNum: 1, pageSize: 10, online: false, keyWord: 'k', providerId: 1 }],
  [c.heAddHost, { deviceId: 'IN-3', name: 'n', remark: 'r', providerId: 1 }],
  [c.heInsertDevice, { hostDeviceId: 'IN-GW', deviceId: 'IN-4', deviceType: T.door, name: 'n' }],
  [c.heReplaceDevice, { deviceId: 'IN-S1', newDeviceId: 'IN-5' }],
];
/** Every query and form call with a valid base input. */
const OTHER_CALLS: [CallDef, Record<string, string>][] = [
  [c.getDeviceSummary, { providerId: '1' }],
  [c.deviceTypes, { abroad: 'true' }],
  [c.deleteDevice, { deviceId: 'IN-NONE' }],
  [c.updateInterval, { deviceId: 'IN-S1', interval: '60' }],
  [c.syncAllThirdDevice, { providerId: '1' }],
  [c.heDeleteDevice, { deviceId: 'IN-NONE', deviceType: String(T.door) }],
  [c.updateAlgMode, { deviceId: 'IN-S1', algMode: '1' }],
  [c.forceInitSensor, { deviceId: 'IN-S1', emptyBed: 'true' }],
  [c.heChangProvider, { deviceId: 'IN-NONE', providerId: '1' }],
];
/** Device IDs that are not digits, letters and '-'. */
const HOSTILE_IDS = [
  "x' OR '1'='1",
  'ab;drop table device',
  '<script>',
  'a b',
  '设备',
  'A_1',
  'Ａ1',
  '\u0000A',
  'A%',
  '../A',
];

describeEachDb('device calls never fail with a server error (%s)', (target) => {
  let app: TestApp;
  let w: DeviceWorld;

  const inject = (method: CallDef['method'], url: string, payload?: string, headers: Record<string, string> = {}) =>
    app.app.inject({
      method,
      url,
      headers: { 'x-token': w.admin, 'accept-language': 'en-US', ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
  const body = (res: { body: string }) => JSON.parse(res.body) as { status: number; msgKey?: string; msg: string };
  const expectClientError = (res: { statusCode: number; body: string }, label: string) => {
    expect([200, 400, 413, 415], label).toContain(res.statusCode);
    const parsed = body(res);
    expect(parsed.status, `${label}: ${res.body.slice(0, 200)}`).toBe(400);
    expect(parsed.msgKey, label).toBeTruthy();
  };
  const send = (call: CallDef, fields: Record<string, string>, token = w.admin, lang = 'en-US') =>
    call.input === 'form'
      ? inject(call.method, call.path, new URLSearchParams(fields).toString(), {
          'content-type': 'application/x-www-form-urlencoded',
          'x-token': token,
          'accept-language': lang,
        })
      : inject(call.method, `${call.path}?${new URLSearchParams(fields).toString()}`, undefined, {
          'x-token': token,
          'accept-language': lang,
        });

  beforeAll(async () => {
    app = await createTestApp(target);
    w = await deviceWorld(app, 'Input');
    await loadStock(app, w.admin, [{ deviceId: 'IN-S1', deviceType: T.sleep }]);
    await addDevice(app, w.aHome.token, 'IN-S1', T.sleep);
  });
  afterAll(() => app?.close());

  it.each(JSON_CALLS.map(([call, base]) => [call.path, call, base] as const))(
    '%s: wrong types in every field answer 400',
    async (_path, call, base) => {
      for (const field of Object.keys(base)) {
        for (const value of WRONG) {
          const res = await inject(call.method, call.path, JSON.stringify({ ...base, [field]: value }), {
            'content-type': 'application/json',
          });
          expectClientError(res, `${call.path} ${field}=${JSON.stringify(value).slice(0, 30)}`);
        }
      }
    },
  );

  it.each(JSON_CALLS.map(([call]) => [call.path, call] as const))(
    '%s: malformed bodies answer 400, never 500',
    async (_path, call) => {
      const json = { 'content-type': 'application/json' };
      const cases: [string, string, Record<string, string>][] = [
        ['invalid JSON', '{bad', json],
        ['empty JSON body', '', json],
        ['JSON array', '[1,2,3]', json],
        ['prototype pollution', '{"__proto__": {"admin": true}, "deviceId": "A"}', json],
        ['unknown content type', '<id>1</id>', { 'content-type': 'application/xml' }],
        ['body over 1 MB', JSON.stringify({ deviceId: 'A', name: 'x'.repeat(1_100_000) }), json],
        ['deeply nested', `${'['.repeat(5000)}${']'.repeat(5000)}`, json],
      ];
      for (const [label, payload, headers] of cases) {
        const res = await inject(call.method, call.path, payload, headers);
        expect(res.statusCode, `${call.path} ${label}`).not.toBe(500);
        expect(body(res).status, `${call.path} ${label}: ${res.body.slice(0, 200)}`).toBe(400);
      }
    },
  );

  it.each(OTHER_CALLS.map(([call, base]) => [call.path, call, base] as const))(
    '%s: malformed query strings and forms answer 400, never 500',
    async (_path, call, base) => {
      for (const field of Object.keys(base)) {
        for (const value of ['', 'abc', '1.5', '-3', '1e400', 'NaN', '%00', '9'.repeat(5000), 'x'.repeat(70)]) {
          const res = await send(call, { ...base, [field]: value });
          expect(res.statusCode, `${call.path} ${field}=${value.slice(0, 20)}`).not.toBe(500);
          const parsed = body(res);
          expect(parsed.status, `${call.path} ${field}=${value.slice(0, 20)}: ${res.body.slice(0, 200)}`).not.toBe(500);
          // Free text and flags may accept some of these; everything else is a 400 with a message.
          if (parsed.status === 400) expect(parsed.msgKey).toBeTruthy();
        }
      }
    },
  );

  it('refuses hostile device IDs with the spec\u2019s "id format wrong", in both languages', async () => {
    for (const deviceId of HOSTILE_IDS) {
      const res = await app.call(c.insertDevice, { deviceId, deviceType: T.sleep }, { token: w.aHome.token });
      expect([res.status, res.msgKey], deviceId).toEqual([400, 'device.idFormat']);
      expect(res.msg).toBe('The device ID format is wrong: use digits, letters and - only.');
      const zh = await send(c.deleteDevice, { deviceId }, w.aHome.token, 'zh-CN');
      expect(body(zh)).toMatchObject({
        status: 400,
        msgKey: 'device.idFormat',
        msg: '设备编号格式错误：只能包含数字、字母和“-”。',
      });
    }
    const long = await app.call(
      c.insertDevice,
      { deviceId: 'A'.repeat(65), deviceType: T.sleep },
      { token: w.aHome.token },
    );
    expect([long.status, long.msg]).toEqual([400, 'Device ID must be at most 64 characters.']);
    const blank = await app.call(c.restartDevice, { deviceId: '  ' }, { token: w.aHome.token });
    expect([blank.status, blank.msg]).toEqual([400, 'Device ID is required.']);
  });

  it('names the field of out-of-range numbers, unknown choices and long or hostile texts', async () => {
    const cases: [CallDef, Record<string, unknown>, string][] = [
      [c.insertDevice, { deviceId: 'A', deviceType: 0 }, 'Device type must be at least 49.'],
      [c.insertDevice, { deviceId: 'A', deviceType: 21013 }, 'Device type must be at most 21012.'],
      [c.insertDevice, { deviceId: 'A', deviceType: 50 }, 'Device type is not a known device type.'],
      [
        c.insertDevice,
        { deviceId: 'A', deviceType: 49, commMode: 'carrier-pigeon' },
        'Communication mode must be one of: wifi, nb-iot, 4g, zigbee, lora, ble, ethernet.',
      ],
      [c.insertDevice, { deviceId: 'A', deviceType: 49, name: 'n'.repeat(65) }, 'Name must be at most 64 characters.'],
      [c.insertDevice, { deviceId: 'A', deviceType: 49, name: 'bad\u0007name' }, 'Name has an invalid format.'],
      [
        c.insertDevice,
        { deviceId: 'A', deviceType: 49, remark: 'r'.repeat(201) },
        'Remark must be at most 200 characters.',
      ],
      [
        c.getDeviceList,
        { kind: 'toaster' },
        'Device category must be one of: sleep, fall, security, gateway, wearable.',
      ],
      [c.getDeviceList, { pageSize: 1001 }, 'Page size must be at most 1000.'],
      [c.getDeviceList, { keyWord: 'k'.repeat(65) }, 'Keyword must be at most 64 characters.'],
      [c.deviceStockList, { stockState: 'lost' }, 'Stock state must be one of: in_stock, added.'],
      [c.isUploadData, { deviceId: 'IN-S1' }, 'Raw data upload is required.'],
      [c.isUploadData, { deviceId: 'IN-S1', uploadData: 'maybe' }, 'Raw data upload is invalid.'],
      [
        c.heReplaceDevice,
        { deviceId: 'IN-S1', newDeviceId: 'a b' },
        'The device ID format is wrong: use digits, letters and - only.',
      ],
      [c.heInsertDevice, { hostDeviceId: '', deviceId: 'A', deviceType: 49 }, 'Gateway host ID is required.'],
    ];
    for (const [call, input, msg] of cases) {
      const res = await app.call(call, input as never, { token: w.admin });
      expect([res.status, res.msg], `${call.path} ${JSON.stringify(input).slice(0, 60)}`).toEqual([400, msg]);
    }
    const rows = Array.from({ length: 5001 }, (_, i) => ({ deviceId: `R${i}`, deviceType: T.door }));
    const many = await app.call(c.deviceStockImport, { rows }, { token: w.admin });
    expect([many.status, many.msgKey]).toEqual([400, 'validation.maxLength']);
    const interval = await send(c.updateInterval, { deviceId: 'IN-S1', interval: '255' }, w.aHome.token, 'zh-CN');
    expect(body(interval)).toMatchObject({ status: 400, msgKey: 'validation.max' });
    expect(body(interval).msg).toContain('上报间隔');
  });

  it('keeps texts with quotes, wildcards and non-Latin letters as they are', async () => {
    const name = `O'Brien "床" 100% _x_ \\ ${'\u{1F600}'}`;
    const res = await app.call(c.updateDevice, { deviceId: 'IN-S1', name }, { token: w.aHome.token });
    expect(res.status, res.msg).toBe(200);
    const list = await app.call(c.getDeviceList, { keyWord: '100%' }, { token: w.aHome.token });
    expect(list.data?.rows.map((r) => r.name)).toEqual([name]);
    const none = await app.call(c.getDeviceList, { keyWord: '_x_x' }, { token: w.aHome.token });
    expect(none.data?.rows).toEqual([]);
  });
});
