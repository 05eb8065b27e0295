/** Test support of the monitor module: two providers' residents in beds, with sleep monitors. */
import { topicOf, type Telemetry } from '@vigil/contract';
import { areas, beds, communities, residents, rooms } from '../../db/schema.ts';
import type { TestApp } from '../../test/harness.ts';
import { addDevice, deviceWorld, linkBed, loadStock, T, type DeviceWorld } from '../devices/device-test-support.ts';

export interface MonitorWorld extends DeviceWorld {
  /** Residents by first name; Fay is the other provider's (B). */
  ids: Record<'ada' | 'bert' | 'cleo' | 'dora' | 'fay', number>;
  /** The area "Mon Area", its floor, "Another Area" and its floor, the community of Ada. */
  places: { monArea: number; monFloor: number; otherArea: number; otherFloor: number; community: number };
  /** Ada's, Bert's, Dora's and Fay's sleep monitors, and the fall radar of Ada's room. */
  devices: { ada: string; bert: string; dora: string; fay: string; radar: string };
}

/**
 * Provider A-Home: "Another Area" › room 201 › Cleo (no device); "Mon Area" › room 101 › Ada
 * (sleep monitor), an empty bed with a fall radar, Dora (sleep monitor); room 102 › Bert (sleep
 * monitor). Provider B: Fay with a sleep monitor. Written to the facility tables directly.
 */
export const monitorWorld = async (app: TestApp, prefix: string): Promise<MonitorWorld> => {
  const w = await deviceWorld(app, prefix);
  const { db } = app.database;
  const p = prefix.toUpperCase();
  const devices = {
    ada: `${p}-SLP-ADA`,
    bert: `${p}-SLP-BERT`,
    dora: `${p}-SLP-DORA`,
    fay: `${p}-SLP-FAY`,
    radar: `${p}-RADAR`,
  };
  await loadStock(app, w.admin, [
    ...[devices.ada, devices.bert, devices.dora, devices.fay].map((deviceId) => ({ deviceId, deviceType: T.sleep })),
    { deviceId: devices.radar, deviceType: T.fallAbroad },
  ]);
  for (const id of [devices.ada, devices.bert, devices.dora]) await addDevice(app, w.aHome.token, id, T.sleep);
  await addDevice(app, w.aHome.token, devices.radar, T.fallAbroad);
  await addDevice(app, w.bGroup.token, devices.fay, T.sleep);

  const area = async (providerId: number, name: string) => {
    const [top] = await db.insert(areas).values({ providerId, name }).returning();
    const [floor] = await db
      .insert(areas)
      .values({ providerId, parentId: top?.id, name: `${name} F1` })
      .returning();
    if (!top || !floor) throw new Error('area insert failed');
    return { area: top.id, floor: floor.id };
  };
  const room = async (providerId: number, floorId: number, name: string) => {
    const [row] = await db.insert(rooms).values({ providerId, floorId, name }).returning();
    if (!row) throw new Error('room insert failed');
    return row.id;
  };
  const bed = async (
    providerId: number,
    roomId: number,
    name: string,
    resident?: { name: string; communityId?: number; birthDate?: string },
  ) => {
    let residentId: number | null = null;
    if (resident) {
      const [row] = await db
        .insert(residents)
        .values({ providerId, gender: 1, state: 'checkedIn', roomId, ...resident })
        .returning();
      residentId = row?.id ?? null;
    }
    const [row] = await db.insert(beds).values({ providerId, roomId, name, residentId }).returning();
    if (!row) throw new Error('bed insert failed');
    return { bedId: row.id, residentId: residentId ?? 0 };
  };

  const home = w.aHome.id;
  const [community] = await db
    .insert(communities)
    .values({ providerId: home, name: `${prefix} Club` })
    .returning();
  const mon = await area(home, `${prefix} Mon Area`);
  const other = await area(home, `${prefix} Another Area`);
  const r101 = await room(home, mon.floor, `${prefix} 101`);
  const r102 = await room(home, mon.floor, `${prefix} 102`);
  const r201 = await room(home, other.floor, `${prefix} 201`);
  const ada = await bed(home, r101, `${prefix} 101-1`, {
    name: `${prefix} Ada`,
    communityId: community?.id ?? 0,
    birthDate: '1940-05-01',
  });
  const empty = await bed(home, r101, `${prefix} 101-2`);
  const dora = await bed(home, r101, `${prefix} 101-3`, { name: `${prefix} Dora` });
  const bert = await bed(home, r102, `${prefix} 102-1`, { name: `${prefix} Bert` });
  const cleo = await bed(home, r201, `${prefix} 201-1`, { name: `${prefix} Cleo` });
  const foreignArea = await area(w.bGroup.id, `${prefix} B Area`);
  const fay = await bed(w.bGroup.id, await room(w.bGroup.id, foreignArea.floor, `${prefix} B1`), `${prefix} B1-1`, {
    name: `${prefix} Fay`,
  });
  await linkBed(app, ada.bedId, devices.ada);
  await linkBed(app, empty.bedId, devices.radar);
  await linkBed(app, dora.bedId, devices.dora);
  await linkBed(app, bert.bedId, devices.bert);
  await linkBed(app, fay.bedId, devices.fay);
  await app.services.gateway.directory.load();
  return {
    ...w,
    ids: {
      ada: ada.residentId,
      bert: bert.residentId,
      cleo: cleo.residentId,
      dora: dora.residentId,
      fay: fay.residentId,
    },
    places: {
      monArea: mon.area,
      monFloor: mon.floor,
      otherArea: other.area,
      otherFloor: other.floor,
      community: community?.id ?? 0,
    },
    devices,
  };
};

/** A sleep monitor's sample through the ingest pipeline, stamped with the app's clock. */
export const streamVitals = (() => {
  let seq = 1;
  return (app: TestApp, deviceId: string, values: Partial<Telemetry> = {}) =>
    app.services.gateway.ingest.handle(
      topicOf(deviceId, 'telemetry'),
      Buffer.from(
        JSON.stringify({
          ts: app.clock.now().getTime() / 1000,
          seq: seq++,
          hr: 62,
          rr: 15,
          inBed: true,
          asleep: false,
          move: 1,
          ...values,
        }),
      ),
    );
})();
