import { createHash } from 'node:crypto';
import { firmwareCalls, topicOf, type Firmware } from '@vigil/contract';
import { and, desc, eq } from 'drizzle-orm';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands, devices, firmwareUpgrades } from '../../db/schema.ts';
import { describeEachDb } from '../../test/db-suites.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../../test/harness.ts';
import {
  addDevice,
  deviceWorld,
  linkBed,
  loadStock,
  placeBed,
  T,
  type DeviceWorld,
} from '../devices/device-test-support.ts';

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

/** A real zip holding a firmware image of `size` pseudo-random bytes (seeded, so each version differs). */
const firmwareZip = (seed: number, size = 4000): Uint8Array => {
  const image = new Uint8Array(size);
  for (let i = 0; i < size; i++) image[i] = (i * 31 + seed * 17 + (i >> 8)) & 255;
  // Stored, not deflated: the zip is as large as its image.
  return zipSync(
    { 'firmware.bin': image, 'manifest.json': new TextEncoder().encode(`{"seed":${seed}}`) },
    { level: 0 },
  );
};

const form = (fields: Record<string, string>, file?: { bytes: Uint8Array; name: string }) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  if (file) data.append('file', new Blob([file.bytes]), file.name);
  return data;
};

describeEachDb('firmware packages: upload checks, whitelist, release, rollout and download (%s)', (target) => {
  let app: TestApp;
  let w: DeviceWorld;
  const MAX = 64 * 1024;

  const upload = (version: string, bytes: Uint8Array, extra: Record<string, string> = {}, lang = 'en-US') =>
    app.call(
      firmwareCalls.firmwareUpload,
      form(
        { deviceType: String(T.sleep), version, md5: md5(bytes), remark: `v${version}`, ...extra },
        {
          bytes,
          name: `sleep-${version}.zip`,
        },
      ),
      { token: w.admin, lang },
    );
  const uploaded = async (version: string, seed: number): Promise<Firmware> => {
    const res = await upload(version, firmwareZip(seed));
    if (res.status !== 200 || !res.data) throw new Error(`upload ${version}: ${res.msg}`);
    return res.data;
  };
  const rollouts = () => app.services.firmware.rollouts;
  const upgradesOf = (packageId: number) =>
    app.database.db.select().from(firmwareUpgrades).where(eq(firmwareUpgrades.packageId, packageId));
  const otaCommandOf = async (deviceId: string) => {
    const rows = await app.database.db
      .select()
      .from(deviceCommands)
      .where(and(eq(deviceCommands.deviceId, deviceId), eq(deviceCommands.command, 'ota')))
      .orderBy(desc(deviceCommands.id))
      .limit(1);
    return rows[0];
  };
  /** Sessions lapse when a test moves the clock on by hours. */
  const relogin = async () => {
    w.admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
  };
  /** Every sleep monitor says it is online now (a moved clock may have made the gateway call some silent). */
  const allOnline = async () => {
    for (let i = 0; i < 12; i++) await status(`FW-S${String(i).padStart(2, '0')}`, {});
  };
  let seq = 1;
  const status = async (deviceId: string, body: Record<string, unknown>) => {
    await app.services.gateway.ingest.handle(
      topicOf(deviceId, 'status'),
      Buffer.from(JSON.stringify({ ts: app.clock.now().getTime() / 1000, seq: seq++, online: true, ...body })),
    );
    await rollouts().settled();
    // What the driver reads: the gateway's live state as written to the database.
    await app.services.gateway.live.writer.flush();
  };

  beforeAll(async () => {
    app = await createTestApp(target, { env: { FIRMWARE_MAX_BYTES: String(MAX), OTA_CHECK_SECONDS: '600' } });
    w = await deviceWorld(app, 'Fw');
    const ids = Array.from({ length: 12 }, (_, i) => `FW-S${String(i).padStart(2, '0')}`);
    await loadStock(app, w.admin, [
      ...ids.map((deviceId) => ({ deviceId, deviceType: T.sleep })),
      { deviceId: 'FW-DOOR1', deviceType: T.door },
      { deviceId: 'FW-BS1', deviceType: T.sleep },
    ]);
    for (const id of ids) await addDevice(app, w.aGroup.token, id, T.sleep);
    await addDevice(app, w.aGroup.token, 'FW-DOOR1', T.door);
    await addDevice(app, w.bGroup.token, 'FW-BS1', T.sleep);
    await app.database.db.update(devices).set({ firmwareVersion: '1.0.0', online: true });
  }, 120_000);
  afterAll(() => app?.close());

  describe('upload', () => {
    it('refuses what is not a zip, by its content rather than its name', async () => {
      const bytes = new TextEncoder().encode('this is not a zip at all, only text pretending to be one');
      const res = await upload('1.1.0', bytes);
      expect(res.msgKey).toBe('firmware.notZip');
      expect(res.msg).toBe('The file is not a zip package.');
    });

    it('refuses a package that unpacks to over 100 times its size, or names a path outside its folder', async () => {
      // Issue 28: devices unpack what they are sent.
      const bomb = zipSync({ 'firmware.bin': new Uint8Array(4 * 1024 * 1024) });
      expect(bomb.length).toBeLessThan(MAX);
      const res = await upload('1.1.0', bomb);
      expect(res.msgKey).toBe('firmware.unpacksTooLarge');
      expect(res.msg).toContain('100');
      for (const name of ['../firmware.bin', '/etc/init.d/firmware', 'app/../../boot.bin', 'C:\\boot.bin']) {
        const bytes = zipSync({ 'manifest.json': new TextEncoder().encode('{}'), [name]: new Uint8Array([1, 2, 3]) });
        const refused = await upload('1.1.0', bytes, {}, 'zh-CN');
        expect(refused.msgKey, name).toBe('firmware.unsafePath');
        expect(refused.msg).toContain(name);
      }
    });

    it('refuses a file whose MD5 is not the one given, in the caller’s language', async () => {
      const bytes = firmwareZip(1);
      const res = await upload('1.1.0', bytes, { md5: 'a'.repeat(32) }, 'zh-CN');
      expect(res.msgKey).toBe('firmware.md5Mismatch');
      expect(res.msg).toContain(md5(bytes));
      expect(res.msg).toContain('不一致');
    });

    it('refuses a malformed MD5 and version at the edge', async () => {
      const bytes = firmwareZip(1);
      expect((await upload('1.1.0', bytes, { md5: 'xyz' })).msgKey).toBe('firmware.md5Format');
      expect((await upload('1.1.beta', bytes)).msgKey).toBe('firmware.versionFormat');
      expect((await upload('1.2.3.4.5.6.7.8.9.10.11', bytes)).msgKey).toBe('firmware.versionFormat');
    });

    it('refuses a file over FIRMWARE_MAX_BYTES with the spec’s “file too large”', async () => {
      const big = firmwareZip(2, MAX + 1000);
      const res = await upload('1.1.0', big);
      expect(res.msgKey).toBe('upload.tooLarge');
    });

    it('refuses a missing file', async () => {
      const res = await app.call(
        firmwareCalls.firmwareUpload,
        form({ deviceType: String(T.sleep), version: '1.1.0', md5: 'a'.repeat(32) }),
        { token: w.admin },
      );
      expect(res.msgKey).toBe('upload.missing');
    });

    it('stores a valid package unpublished, with its digests; the bytes come back whole', async () => {
      const bytes = firmwareZip(3);
      const res = await upload('1.1.0', bytes);
      expect(res.status).toBe(200);
      const pkg = res.data as Firmware;
      expect(pkg).toMatchObject({ state: 'unpublished', version: '1.1.0', size: bytes.length, md5: md5(bytes) });
      expect(pkg.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      const parts: Buffer[] = [];
      for await (const part of app.services.firmware.firmware.store.stream(app.database.db, pkg.id, 0, pkg.size))
        parts.push(part);
      expect(Buffer.concat(parts).equals(Buffer.from(bytes))).toBe(true);
      expect((await upload('1.1.0', firmwareZip(4))).msgKey).toBe('firmware.versionExists');
      // Only an unpublished package can be deleted; this one can.
      const del = await app.call(firmwareCalls.firmwareDelete, { id: pkg.id }, { token: w.admin });
      expect(del.status).toBe(200);
    });

    it('refuses a version not higher than the newest released for the type (compared number by number)', async () => {
      const pkg = await uploaded('1.9.0', 5);
      await app.call(firmwareCalls.greyDevicePost, { id: pkg.id, deviceIds: ['FW-S00'] }, { token: w.admin });
      const released = await app.call(firmwareCalls.firmwarePost, { id: pkg.id, release: 'grey' }, { token: w.admin });
      expect(released.data?.state).toBe('grey');
      const lower = await upload('1.8.9', firmwareZip(6));
      expect(lower.msgKey).toBe('firmware.versionNotHigher');
      expect(lower.msg).toContain('1.9.0');
      // 1.10 is newer than 1.9: accepted.
      const higher = await upload('1.10', firmwareZip(7));
      expect(higher.status).toBe(200);
      // Stop the grey release so it does not disturb the tests below.
      await app.call(firmwareCalls.firmwareUpdate, { id: pkg.id, action: 'offline' }, { token: w.admin });
      const del = await app.call(firmwareCalls.firmwareDelete, { id: pkg.id }, { token: w.admin });
      expect(del.msgKey).toBe('firmware.notUnpublished');
    });

    it('is for super and senior administrators only', async () => {
      const res = await app.call(firmwareCalls.firmwarePageList, {}, { token: w.aGroup.token });
      expect(res.msgKey).toBe('no_permission');
    });
  });

  describe('whitelist and release', () => {
    it('grey release needs a whitelist, of devices of the package’s type the caller sees', async () => {
      const pkg = await uploaded('2.0.0', 10);
      const empty = await app.call(firmwareCalls.firmwarePost, { id: pkg.id, release: 'grey' }, { token: w.admin });
      expect(empty.msgKey).toBe('firmware.greyEmpty');
      const door = await app.call(
        firmwareCalls.greyDevicePost,
        { id: pkg.id, deviceIds: ['FW-DOOR1'] },
        { token: w.admin },
      );
      expect(door.msgKey).toBe('firmware.deviceTypeMismatch');
      const none = await app.call(
        firmwareCalls.greyDevicePost,
        { id: pkg.id, deviceIds: ['NO-SUCH'] },
        { token: w.admin },
      );
      expect(none.msgKey).toBe('device.notFound');
      const added = await app.call(
        firmwareCalls.greyDevicePost,
        { id: pkg.id, deviceIds: ['FW-S01', 'fw-s02', 'FW-S01'] },
        { token: w.admin },
      );
      expect(added.data).toEqual({ added: 2 });
      const list = await app.call(firmwareCalls.greyDeviceList, { id: pkg.id }, { token: w.admin });
      expect(list.data?.rows.map((r) => r.deviceId)).toEqual(['FW-S01', 'FW-S02']);
      expect(list.data?.rows[0]).toMatchObject({ firmwareVersion: '1.0.0', upgradeState: null });
      const removed = await app.call(
        firmwareCalls.greyDeviceDelete,
        { id: pkg.id, deviceId: 'FW-S02' },
        { token: w.admin },
      );
      expect(removed.status).toBe(200);
      expect((await app.call(firmwareCalls.firmwarePageList, {}, { token: w.admin })).data?.rows[0]).toMatchObject({
        id: pkg.id,
        greyCount: 1,
      });
      await app.call(firmwareCalls.firmwareDelete, { id: pkg.id }, { token: w.admin });
    });

    it('grey → full → offline: upgrades sent, reported, succeeded; download resumes by range; the link expires', async () => {
      const pkg = await uploaded('3.0.0', 20);
      await app.call(firmwareCalls.greyDevicePost, { id: pkg.id, deviceIds: ['FW-S03'] }, { token: w.admin });
      const grey = await app.call(firmwareCalls.firmwarePost, { id: pkg.id, release: 'grey' }, { token: w.admin });
      expect(grey.data?.rollout).toMatchObject({ kind: 'grey', stages: [100], state: 'running' });
      await rollouts().look();
      const command = await otaCommandOf('FW-S03');
      expect(command?.payload).toMatchObject({ version: '3.0.0', size: pkg.size, md5: pkg.md5, sha256: pkg.sha256 });
      const url = String(command?.payload.url);
      expect(url).toMatch(/^\/hardSoft\/download\?token=[A-Za-z0-9_-]+$/);

      const whole = await app.app.inject({ method: 'GET', url });
      expect(whole.statusCode).toBe(200);
      expect(md5(whole.rawPayload)).toBe(pkg.md5);
      // A download broken off after 1,000 bytes resumes from there.
      const rest = await app.app.inject({ method: 'GET', url, headers: { range: 'bytes=1000-' } });
      expect(rest.statusCode).toBe(206);
      expect(rest.headers['content-range']).toBe(`bytes 1000-${pkg.size - 1}/${pkg.size}`);
      expect(Buffer.concat([whole.rawPayload.subarray(0, 1000), rest.rawPayload]).equals(whole.rawPayload)).toBe(true);
      const past = await app.app.inject({ method: 'GET', url, headers: { range: `bytes=${pkg.size}-` } });
      expect(past.statusCode).toBe(416);
      // Another device's token, or none at all, gets nothing.
      expect((await app.app.inject({ method: 'GET', url: `${url}x` })).statusCode).toBe(404);

      await status('FW-S03', { ota: { id: command?.id, state: 'downloading', progress: 40 } });
      let [upgrade] = await upgradesOf(pkg.id);
      expect(upgrade).toMatchObject({ state: 'downloading', progress: 40 });
      await status('FW-S03', { ota: { id: command?.id, state: 'installing' } });
      await status('FW-S03', { fw: '3.0.0' });
      [upgrade] = await upgradesOf(pkg.id);
      expect(upgrade).toMatchObject({ state: 'succeeded', progress: 100 });
      // The finished upgrade's link no longer works.
      expect((await app.app.inject({ method: 'GET', url })).statusCode).toBe(404);
      await rollouts().look();
      const page = await app.call(firmwareCalls.firmwarePageList, { state: 'grey' }, { token: w.admin });
      expect(page.data?.rows.find((r) => r.id === pkg.id)?.rollout).toMatchObject({
        state: 'done',
        counts: { total: 1, succeeded: 1 },
      });

      // Full release: every sleep monitor of the caller's scope still on an older version.
      const full = await app.call(
        firmwareCalls.firmwarePost,
        { id: pkg.id, release: 'full', stages: [10, 50, 100] },
        { token: w.admin },
      );
      expect(full.data?.state).toBe('full');
      expect(full.data?.rollout?.counts.total).toBe(13);
      const locked = await app.call(
        firmwareCalls.greyDevicePost,
        { id: pkg.id, deviceIds: ['FW-S04'] },
        { token: w.admin },
      );
      expect(locked.msgKey).toBe('firmware.greyLocked');
      // A look sending upgrades while the package goes offline: on PostgreSQL the send once
      // updated the upgrade row twice and deadlocked against the stop.
      const looking = rollouts().look();
      const offline = await app.call(
        firmwareCalls.firmwareUpdate,
        { id: pkg.id, action: 'offline' },
        { token: w.admin },
      );
      await looking;
      expect(offline.status === 200 ? 'ok' : `${offline.status} ${offline.msgKey} ${offline.msg}`).toBe('ok');
      expect(offline.data?.state).toBe('offline');
      expect(offline.data?.rollout?.state).toBe('stopped');
      const left = (await upgradesOf(pkg.id)).filter((u) => u.state === 'pending' || u.state === 'deferred');
      expect(left).toEqual([]);
      await app.database.db.update(devices).set({ firmwareVersion: '1.0.0' });
    });

    it('a link expires', async () => {
      const pkg = await uploaded('3.1.0', 30);
      await app.call(firmwareCalls.greyDevicePost, { id: pkg.id, deviceIds: ['FW-S05'] }, { token: w.admin });
      await app.call(firmwareCalls.firmwarePost, { id: pkg.id, release: 'grey' }, { token: w.admin });
      await rollouts().look();
      const url = String((await otaCommandOf('FW-S05'))?.payload.url);
      expect((await app.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-9' } })).statusCode).toBe(206);
      app.clock.advance(25 * 3_600_000);
      await relogin();
      expect((await app.app.inject({ method: 'GET', url })).statusCode).toBe(404);
      // Silent past the timeout: failed.
      await rollouts().look();
      const [upgrade] = await upgradesOf(pkg.id);
      expect(upgrade).toMatchObject({ state: 'failed' });
      expect(upgrade?.error).toContain('timeout');
      expect(upgrade?.reason).toBe('timeout');
      await app.call(firmwareCalls.firmwareUpdate, { id: pkg.id, action: 'offline' }, { token: w.admin });
    });
  });

  describe('staged rollout', () => {
    it('opens stage after stage, pauses itself when a stage fails too often, and can be paused, resumed and stopped', async () => {
      await allOnline();
      const pkg = await uploaded('4.0.0', 40);
      const res = await app.call(
        firmwareCalls.firmwarePost,
        { id: pkg.id, release: 'full', stages: [10, 50, 100], failureThreshold: 20 },
        { token: w.admin },
      );
      const total = res.data?.rollout?.counts.total ?? 0;
      expect(total).toBe(13);
      expect(res.data?.rollout?.stageCounts.map((s) => s.total)).toEqual([2, 5, 6]);
      await rollouts().look();
      const sent = async () => (await upgradesOf(pkg.id)).filter((u) => u.state === 'sent');
      const first = await sent();
      expect(first.map((u) => u.stage)).toEqual([0, 0]);
      // Both devices of the first stage upgrade: the next stage opens.
      for (const u of first) {
        const [device] = await app.database.db.select().from(devices).where(eq(devices.id, u.deviceRowId));
        await status(device?.deviceId ?? '', { fw: '4.0.0' });
      }
      await rollouts().look();
      const second = await sent();
      expect(second.length).toBe(5);
      expect(new Set(second.map((u) => u.stage))).toEqual(new Set([1]));
      // Two of the five fail (40 % > 20 %): the rollout pauses by itself.
      for (const [i, u] of second.entries()) {
        const [device] = await app.database.db.select().from(devices).where(eq(devices.id, u.deviceRowId));
        const commandId = u.commandId;
        await status(
          device?.deviceId ?? '',
          i < 2 ? { ota: { id: commandId, state: 'failed', error: 'flash write error' } } : { fw: '4.0.0' },
        );
      }
      await rollouts().look();
      const page = await app.call(firmwareCalls.firmwarePageList, { state: 'full' }, { token: w.admin });
      const rollout = page.data?.rows.find((r) => r.id === pkg.id)?.rollout;
      expect(rollout).toMatchObject({ state: 'paused', pausedReason: 'failures', stage: 1 });
      expect(await sent()).toEqual([]);
      // Resuming after an automatic pause carries on with the next stage.
      const resumed = await app.call(
        firmwareCalls.firmwareUpdate,
        { id: pkg.id, action: 'resume' },
        { token: w.admin },
      );
      expect(resumed.data?.rollout?.state).toBe('running');
      await rollouts().look();
      expect((await sent()).length).toBe(6);
      const paused = await app.call(firmwareCalls.firmwareUpdate, { id: pkg.id, action: 'pause' }, { token: w.admin });
      expect(paused.data?.rollout).toMatchObject({ state: 'paused', pausedReason: 'admin' });
      const stopped = await app.call(firmwareCalls.firmwareUpdate, { id: pkg.id, action: 'stop' }, { token: w.admin });
      expect(stopped.data?.rollout?.state).toBe('stopped');
      const again = await app.call(firmwareCalls.firmwareUpdate, { id: pkg.id, action: 'resume' }, { token: w.admin });
      expect(again.msgKey).toBe('firmware.rolloutEnded');
      const failed = await app.call(
        firmwareCalls.firmwareUpgradeList,
        { id: pkg.id, state: 'failed' },
        { token: w.admin },
      );
      expect(failed.data?.rows.map((r) => r.error)).toEqual(['flash write error', 'flash write error']);
      expect(failed.data?.rows.map((r) => r.reason)).toEqual(['failedOnDevice', 'failedOnDevice']);
      await app.call(firmwareCalls.firmwareUpdate, { id: pkg.id, action: 'offline' }, { token: w.admin });
      await app.database.db.update(devices).set({ firmwareVersion: '1.0.0' });
    });

    it('defers a device whose bed is occupied in its sleep window, unless the release forces it', async () => {
      const { bedId } = await placeBed(app, w.aGroup.id, {
        area: 'Fw Wing',
        room: 'Fw 1',
        bed: 'Fw 1-1',
        resident: 'Fw Resident',
      });
      await linkBed(app, bedId, 'FW-S06');
      // 02:00 in the beds' time zone: inside the default sleep window (21:00–07:00).
      const zone = app.config.timeZone;
      const at = new Date(app.clock.now());
      for (let h = 0; h < 48; h++) {
        const hour = Number(
          new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' }).format(at),
        );
        if (hour === 2) break;
        at.setTime(at.getTime() + 3_600_000);
      }
      app.clock.set(at);
      await relogin();
      await allOnline();
      await app.services.gateway.ingest.handle(
        topicOf('FW-S06', 'telemetry'),
        Buffer.from(
          JSON.stringify({ ts: at.getTime() / 1000, seq: seq++, hr: 60, rr: 14, inBed: true, asleep: true, move: 0 }),
        ),
      );
      const pkg = await uploaded('5.0.0', 50);
      await app.call(firmwareCalls.greyDevicePost, { id: pkg.id, deviceIds: ['FW-S06', 'FW-S07'] }, { token: w.admin });
      await app.call(firmwareCalls.firmwarePost, { id: pkg.id, release: 'grey' }, { token: w.admin });
      await rollouts().look();
      const byDevice = async () => {
        const rows = await app.database.db
          .select({ deviceId: devices.deviceId, state: firmwareUpgrades.state })
          .from(firmwareUpgrades)
          .innerJoin(devices, eq(devices.id, firmwareUpgrades.deviceRowId))
          .where(eq(firmwareUpgrades.packageId, pkg.id));
        return Object.fromEntries(rows.map((r) => [r.deviceId, r.state]));
      };
      expect(await byDevice()).toEqual({ 'FW-S06': 'deferred', 'FW-S07': 'sent' });
      // Forced: the occupied bed's monitor upgrades now.
      await app.call(
        firmwareCalls.firmwarePost,
        { id: pkg.id, release: 'grey', forceOccupied: true },
        { token: w.admin },
      );
      await rollouts().look();
      expect((await byDevice())['FW-S06']).toBe('sent');
      await app.call(firmwareCalls.firmwareUpdate, { id: pkg.id, action: 'offline' }, { token: w.admin });
    });

    it('a device offline waits: it is sent its upgrade once it is online', async () => {
      await status('FW-S08', { online: false });
      const pkg = await uploaded('6.0.0', 60);
      await app.call(firmwareCalls.greyDevicePost, { id: pkg.id, deviceIds: ['FW-S08'] }, { token: w.admin });
      await app.call(firmwareCalls.firmwarePost, { id: pkg.id, release: 'grey' }, { token: w.admin });
      await rollouts().look();
      expect((await upgradesOf(pkg.id))[0]?.state).toBe('pending');
      await status('FW-S08', {});
      await rollouts().look();
      expect((await upgradesOf(pkg.id))[0]?.state).toBe('sent');
      // The device refuses the command: the upgrade fails with its reason.
      const command = await otaCommandOf('FW-S08');
      await app.services.gateway.ingest.handle(
        topicOf('FW-S08', 'ack'),
        Buffer.from(JSON.stringify({ id: command?.id, ok: false, error: 'battery low' })),
      );
      await rollouts().settled();
      expect((await upgradesOf(pkg.id))[0]).toMatchObject({ state: 'failed', error: 'battery low' });
      expect((await upgradesOf(pkg.id))[0]?.reason).toBe('refused');
    });
  });
});
