import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../db/database.ts';
import { devices } from '../../../db/schema.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, deviceWorld, loadStock, T, type DeviceWorld } from '../../devices/device-test-support.ts';
import { DeviceDirectory } from './device-directory.ts';

/**
 * The real database with one delay put in: `holdNext` keeps the next query's rows (read at once,
 * as the database had them) from its caller until released, so a test decides which of two reads
 * finishes first. Everything else goes through untouched.
 */
const withHeldReads = (db: Db) => {
  const armed: Promise<void>[] = [];
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, p, receiver) {
        const value: unknown = Reflect.get(t, p, receiver);
        if (typeof value !== 'function') return value;
        if (p === 'then') {
          const gate = armed.shift();
          return (ok: (rows: unknown) => unknown, ko: (error: unknown) => unknown) =>
            (value as (a: (rows: unknown) => unknown) => Promise<unknown>)
              .call(t, async (rows: unknown) => {
                await gate;
                return rows;
              })
              .then(ok, ko);
        }
        return (...args: unknown[]) => {
          const out: unknown = (value as (...a: unknown[]) => unknown).apply(t, args);
          return out && typeof out === 'object' ? wrap(out) : out;
        };
      },
    });
  return {
    db: wrap(db),
    /** Holds the rows of the next query run; answers its release. */
    holdNext: () => {
      let release: () => void = () => undefined;
      armed.push(new Promise<void>((resolve) => (release = resolve)));
      return release;
    },
  };
};

describe('the device directory applies reads in the order they began', () => {
  let app: TestApp;
  let w: DeviceWorld;
  let held: ReturnType<typeof withHeldReads>;
  let directory: DeviceDirectory;
  const DEVICE = 'DIR-SOS1';
  const moveTo = (providerId: number) =>
    app.database.db.update(devices).set({ providerId }).where(eq(devices.deviceId, DEVICE));

  beforeAll(async () => {
    app = await createTestApp('pglite');
    w = await deviceWorld(app, 'Dir');
    await loadStock(app, w.admin, [{ deviceId: DEVICE, deviceType: T.sos }]);
    await addDevice(app, w.aHome.token, DEVICE, T.sos);
  }, 300_000);
  afterAll(() => app?.close());
  beforeEach(async () => {
    await moveTo(w.aHome.id);
    held = withHeldReads(app.database.db);
    directory = new DeviceDirectory(held.db, app.clock);
    await directory.load();
    expect(directory.get(DEVICE)?.providerId).toBe(w.aHome.id);
  });

  it('a move makes the device’s messages wait for its fresh context, and only its', async () => {
    await moveTo(w.bGroup.id);
    const release = held.holdNext();
    const read = directory.changed([DEVICE]);
    const fresh = directory.settled(DEVICE);
    expect(fresh).toBeDefined();
    expect(directory.settled('DIR-OTHER')).toBeUndefined();
    // Until the read lands the entry is the old one: a message must wait for `settled`, not take `get`.
    expect(directory.get(DEVICE)?.providerId).toBe(w.aHome.id);
    release();
    expect(await fresh).toMatchObject({ deviceId: DEVICE, providerId: w.bGroup.id });
    await read;
    expect(directory.settled(DEVICE)).toBeUndefined();
  });

  it('a full reload that began before a move never undoes it, whenever it finishes', async () => {
    const release = held.holdNext();
    const reload = directory.load();
    // The reload has read the device at A-Home; then it moves, and the move is read.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await moveTo(w.bGroup.id);
    await directory.changed([DEVICE]);
    expect(directory.get(DEVICE)?.providerId).toBe(w.bGroup.id);
    const version = directory.version;
    release();
    await reload;
    expect(directory.get(DEVICE)?.providerId).toBe(w.bGroup.id);
    expect(directory.version).toBe(version);
  });

  it('of two reads after two moves, the one begun last wins, whichever lands first', async () => {
    await moveTo(w.bGroup.id);
    const release = held.holdNext();
    const first = directory.changed([DEVICE]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await moveTo(w.aGroup.id);
    await directory.changed([DEVICE]);
    release();
    await first;
    expect(directory.get(DEVICE)?.providerId).toBe(w.aGroup.id);
  });

  it('tells its listeners what changed, once', async () => {
    const heard: string[] = [];
    directory.onChange((changed, removed) =>
      heard.push(...changed.map((c) => `${c.deviceId}@${c.providerId}`), ...removed),
    );
    await directory.load();
    expect(heard).toEqual([]);
    await moveTo(w.bGroup.id);
    await directory.changed([DEVICE]);
    await directory.changed([DEVICE]);
    expect(heard).toEqual([`${DEVICE}@${w.bGroup.id}`]);
  });
});
