import { deviceCalls } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { deviceRawMinutes, devices } from '../db/schema.ts';
import { AlarmRepository } from '../modules/alarms/alarm.repository.ts';
import type { TestApp } from './harness.ts';
import type { ProbeRefs } from './tenancy-probe.ts';

const must = <T>(what: string, res: { status: number; msg: string; data: T | null }): T => {
  if (res.status !== 200 || res.data === null) throw new Error(`seed ${what}: ${res.status} ${res.msg}`);
  return res.data;
};

/** Catalogue types of the seeded device IDs (spreadsheet probes name a device with its type). */
export const SEEDED_DEVICE_TYPES: Readonly<Record<string, number>> = {
  'FOREIGNB-GW-1': 21008,
  'FOREIGNB-SUB-1': 20995,
  'FOREIGNB-NB-1': 20996,
  'A-GW-1': 21008,
  'A-SUB-1': 20995,
};

/**
 * Device rows for the tenancy matrix, made through the API: registry entries loaded by the
 * platform administrator, then the foreign tenant's gateway host with a sub-device and a
 * standalone NB-IoT sensor (IDs and names carrying the marker, a pending command queued), and
 * the probing tenant's own gateway host with a sub-device. The bed devices come from the facility seed.
 */
export const seedDevices = async (
  app: TestApp,
  admin: string,
  foreign: { token: string },
  own: { token: string },
): Promise<ProbeRefs['objects']> => {
  const ids = {
    bHost: 'FOREIGNB-GW-1',
    bSub: 'FOREIGNB-SUB-1',
    bSensor: 'FOREIGNB-NB-1',
    aHost: 'A-GW-1',
    aSub: 'A-SUB-1',
  };
  must(
    'device registry',
    await app.call(
      deviceCalls.deviceStockImport,
      {
        rows: [
          { deviceId: ids.bHost, deviceType: 21008, batch: 'FOREIGNB batch' },
          { deviceId: ids.bSub, deviceType: 20995 },
          { deviceId: ids.bSensor, deviceType: 20996, imei: '869999999999999', cipherId: 'FOREIGNBCIPHER' },
          { deviceId: ids.aHost, deviceType: 21008 },
          { deviceId: ids.aSub, deviceType: 20995 },
        ],
      },
      { token: admin },
    ),
  );
  const b = { token: foreign.token };
  must(
    'B host',
    await app.call(
      deviceCalls.heAddHost,
      { deviceId: ids.bHost, name: 'FOREIGNB gateway', remark: 'FOREIGNB remark' },
      b,
    ),
  );
  must(
    'B sub-device',
    await app.call(
      deviceCalls.heInsertDevice,
      { hostDeviceId: ids.bHost, deviceId: ids.bSub, deviceType: 20995, name: 'FOREIGNB door' },
      b,
    ),
  );
  must(
    'B sensor',
    await app.call(deviceCalls.insertDevice, { deviceId: ids.bSensor, deviceType: 20996, name: 'FOREIGNB smoke' }, b),
  );
  // What the device gateway will do: report B's sensor online; B then queues a restart for it.
  await app.database.db.update(devices).set({ online: true }).where(eq(devices.deviceId, ids.bSensor));
  must('B command', await app.call(deviceCalls.restartDevice, { deviceId: ids.bSensor }, b));

  const a = { token: own.token };
  must('A host', await app.call(deviceCalls.heAddHost, { deviceId: ids.aHost, name: 'A gateway' }, a));
  must(
    'A sub-device',
    await app.call(deviceCalls.heInsertDevice, { hostDeviceId: ids.aHost, deviceId: ids.aSub, deviceType: 20995 }, a),
  );
  // Raw samples of B's sensor and of A's sub-device, today (UTC), as the ingest keeps them for the original data calls.
  const today = Date.parse(app.clock.now().toISOString().slice(0, 10));
  const raw = { t: [0], hr: [60], rr: [14], inBed: [1 as const], asleep: [0 as const], move: [0], rri: [[900]] };
  for (const deviceId of [ids.bSensor, ids.aSub]) {
    const [device] = await app.database.db.select().from(devices).where(eq(devices.deviceId, deviceId));
    await app.database.db.insert(deviceRawMinutes).values(
      [0, 1].map((m) => ({
        deviceId,
        minute: new Date(today + m * 60_000),
        providerId: device?.providerId ?? null,
        samples: raw,
      })),
    );
  }
  // An open alarm of B's sensor and one of A's sub-device, as the alarm engine stores them.
  const alarmOf = async (deviceId: string, typeCode: number) => {
    const [device] = await app.database.db.select().from(devices).where(eq(devices.deviceId, deviceId));
    const now = app.clock.now();
    const [raised] = await new AlarmRepository().raise(app.database.db, [
      {
        providerId: device?.providerId ?? null,
        deviceId,
        deviceType: typeCode,
        deviceRowId: device?.id ?? null,
        bedId: null,
        roomId: null,
        areaId: null,
        caregiverId: null,
        residentId: null,
        alertType: 'SMOKE',
        level: 1,
        startedAt: now,
        at: now,
        detail: {},
        measure: null,
        eventId: null,
        counts: true,
      },
    ]);
    if (!raised) throw new Error(`seed alarm of ${deviceId}`);
    return raised.alarm.id;
  };
  const bAlarm = await alarmOf(ids.bSensor, 20996);
  const aAlarm = await alarmOf(ids.aSub, 20995);
  return {
    alarm: { foreign: [{ label: 'B-alarm', id: bAlarm }], own: aAlarm },
    deviceCode: {
      foreign: [
        { label: 'B-gateway', id: ids.bHost },
        { label: 'B-sub-device', id: ids.bSub },
        { label: 'B-nb-sensor', id: ids.bSensor },
      ],
      own: ids.aSub,
    },
    gatewayCode: { foreign: [{ label: 'B-gateway', id: ids.bHost }], own: ids.aHost },
  };
};
