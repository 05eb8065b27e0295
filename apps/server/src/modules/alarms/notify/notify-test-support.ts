/** Test support of alarm notifications: a stand-in gateway and a home whose beds notify by SMS and chat. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { caregiverCalls } from '@vigil/contract';
import { inArray } from 'drizzle-orm';
import { residents } from '../../../db/schema.ts';
import type { TestApp } from '../../../test/harness.ts';
import { makeCaregiver } from '../../caregivers/care-fixtures.ts';
import {
  addDevice,
  deviceWorld,
  linkBed,
  loadStock,
  placeBed,
  T,
  type DeviceWorld,
} from '../../devices/device-test-support.ts';

/** A local stand-in for a gateway: records what it was sent; answers what the test says. */
export const fakeGateway = async () => {
  const received: { body: Record<string, unknown>; auth: string | undefined }[] = [];
  let answer: () => { status: number; body: unknown } = () => ({ status: 200, body: { errcode: 0 } });
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      received.push({ body: JSON.parse(data) as Record<string, unknown>, auth: req.headers.authorization });
      const { status, body } = answer();
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`,
    received,
    answerWith: (next: typeof answer) => (answer = next),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
};

export interface NotifyingHome {
  world: DeviceWorld;
  receiverPhone: string;
  /** Each radar's resident, by device ID. */
  residentOf: Map<string, number>;
}

/**
 * A care home whose fall radars each watch a resident's bed; the residents' community tells one
 * receiver by SMS and the chat group. Radars given a secret can connect to the broker.
 */
export const notifyingHome = async (
  app: TestApp,
  prefix: string,
  radars: readonly { deviceId: string; secret?: string }[],
): Promise<NotifyingHome> => {
  const world = await deviceWorld(app, prefix);
  await loadStock(
    app,
    world.admin,
    radars.map((r) => ({ deviceId: r.deviceId, deviceType: T.fallDomestic, secret: r.secret })),
  );
  const residentOf = new Map<string, number>();
  for (const [i, r] of radars.entries()) {
    await addDevice(app, world.aHome.token, r.deviceId, T.fallDomestic);
    const bed = await placeBed(app, world.aHome.id, {
      area: `${prefix} Area ${i}`,
      room: `${prefix} ${101 + i}`,
      bed: `${prefix} ${101 + i}-1`,
      resident: `${prefix} Resident ${i}`,
    });
    await linkBed(app, bed.bedId, r.deviceId);
    residentOf.set(r.deviceId, bed.residentId ?? 0);
  }
  const receiver = await makeCaregiver(app, world.aHome.token, `${prefix} Receiver`);
  const community = await app.call(
    caregiverCalls.insertCommunity,
    { name: `${prefix} Community`, providerId: world.aHome.id },
    { token: world.aHome.token },
  );
  await app.database.db
    .update(residents)
    .set({ communityId: community.data?.id ?? 0 })
    .where(inArray(residents.id, [...residentOf.values()]));
  const saved = await app.call(
    caregiverCalls.saveAlarmConfig,
    { communityId: community.data?.id ?? 0, receiverIds: [receiver.id], notify: ['sms', 'chat', 'page'] },
    { token: world.aHome.token },
  );
  if (saved.status !== 200) throw new Error(`saveAlarmConfig: ${saved.status} ${saved.msg}`);
  await app.services.gateway.directory.load();
  await app.services.alarms.watch.load();
  return { world, receiverPhone: receiver.phone, residentOf };
};
