import {
  DEFAULT_FAILURE_THRESHOLD,
  DEFAULT_ROLLOUT_STAGES,
  type CallParsed,
  type Calls,
  type Firmware,
  type FirmwareState,
  type GreyDevice,
  type UpgradeRow,
} from '@vigil/contract';
import { sql } from 'drizzle-orm';
import type { Clock } from '../../clock.ts';
import type { Db, Executor } from '../../db/database.ts';
import { fail, invalid, notFound, sizeText } from '../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../core/caller.ts';
import { scopeIds } from '../../core/tenant.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { compareFirmwareVersions, parseFirmwareVersion } from './firmware-version.ts';
import { FirmwareRepository, WAITING, type PackageRecord, type RolloutRecord } from './firmware.repository.ts';
import { digestOf } from './package-digest.ts';
import { PackageStore } from './package-store.ts';
import { assignStages, rolloutCounts, rolloutOrder } from './rollout-rules.ts';
import { checkPackageFile, type ContentsCheck } from './package-contents.ts';

type Parsed<N extends keyof Calls> = CallParsed<Calls[N]>;

/** Why a package devices would unpack is refused (issue 28), or that it is no zip at all. */
const refusalOf = (check: Exclude<ContentsCheck, { ok: true }> | { ok: false; problem: 'notZip' }) =>
  check.problem === 'notZip'
    ? invalid('firmware.notZip')
    : check.problem === 'unsafePath'
      ? invalid('firmware.unsafePath', { name: check.name.slice(0, 200) })
      : invalid('firmware.unpacksTooLarge', { limit: sizeText(check.limit) });

/** States a package has been released in: its version is "published" for the version rule. */
const RELEASED: readonly FirmwareState[] = ['grey', 'full', 'offline'];

/**
 * Firmware packages and their release (docs/firmware.md): upload with its checks, the
 * whitelist, grey and full release, the rollout controls and taking a package offline. The
 * rollout itself — sending `ota` commands stage by stage, following what devices report — is
 * the RolloutDriver's; this service tells it when a rollout changed (`onChanged`).
 */
export class FirmwareService {
  readonly repo = new FirmwareRepository();
  readonly store = new PackageStore();
  /** Called after a release or a control committed: the driver looks at the rollout at once. */
  onChanged: (packageId: number) => void = () => undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly maxBytes: number,
  ) {}

  async upload(caller: Caller, input: Parsed<'firmwareUpload'>, ip: string): Promise<Firmware> {
    const file = input.file;
    if (!file || file.size === 0) throw invalid('upload.missing');
    const digest = await digestOf(file.stream());
    if (digest.md5 !== input.md5) throw invalid('firmware.md5Mismatch', { actual: digest.md5, expected: input.md5 });
    const contents = await checkPackageFile(file.path);
    if (!contents.ok) throw refusalOf(contents);
    const version = parseFirmwareVersion(input.version);
    if (!version) throw invalid('firmware.versionFormat');
    const now = this.clock.now();
    const row = await this.db.transaction(async (tx) => {
      // One upload of a type at a time: the version rule reads every version of the type.
      await tx.execute(sqlLock(input.deviceType));
      await this.assertNewVersion(tx, input.deviceType, input.version, version);
      const pkg = await this.repo.insertPackage(tx, {
        deviceType: input.deviceType,
        version: input.version,
        fileName: file.filename.slice(0, 255),
        sizeBytes: digest.size,
        md5: digest.md5,
        sha256: digest.sha256,
        remark: input.remark?.trim() || null,
        uploadedBy: caller.accountId,
        uploadedAt: now,
      });
      await this.store.save(tx, pkg.id, file.stream(), this.maxBytes);
      await this.audit.byCaller(
        caller,
        ip,
        'firmware.upload',
        {
          type: 'firmware',
          id: pkg.id,
          providerId: null,
          detail: { deviceType: pkg.deviceType, version: pkg.version },
        },
        tx,
      );
      return pkg;
    });
    return this.present(caller, row);
  }

  /** Refuses a version already uploaded for the type, or not above the newest released one. */
  private async assertNewVersion(db: Executor, type: number, text: string, version: number[]) {
    let newest: { text: string; parts: number[] } | null = null;
    for (const other of await this.repo.versionsOf(db, type)) {
      const parts = parseFirmwareVersion(other.version);
      if (!parts) continue;
      if (compareFirmwareVersions(parts, version) === 0) throw invalid('firmware.versionExists', { version: text });
      if (RELEASED.includes(other.state) && (!newest || compareFirmwareVersions(parts, newest.parts) > 0)) {
        newest = { text: other.version, parts };
      }
    }
    if (newest && compareFirmwareVersions(version, newest.parts) <= 0) {
      throw invalid('firmware.versionNotHigher', { version: text, current: newest.text });
    }
  }

  async page(caller: Caller, q: Parsed<'firmwarePageList'>) {
    const { rows, total } = await this.repo.page(this.db, {
      deviceType: q.deviceType,
      state: q.state,
      keyword: q.keyword || undefined,
      offset: (q.pageNum - 1) * q.pageSize,
      limit: q.pageSize,
    });
    const presented = await this.presentMany(
      caller,
      rows.map((r) => ({ pkg: r.pkg, uploadedBy: r.uploadedByName })),
    );
    return { rows: presented, total, pageNum: q.pageNum, pageSize: q.pageSize };
  }

  async addGreyDevices(caller: Caller, input: Parsed<'greyDevicePost'>, ip: string) {
    const added = await this.db.transaction(async (tx) => {
      const pkg = await this.packageFor(tx, input.id, true);
      if (pkg.state === 'offline') throw fail('firmware.isOffline');
      if (pkg.state === 'full') throw fail('firmware.greyLocked');
      const rowIds: number[] = [];
      for (const deviceId of new Set(input.deviceIds)) {
        const device = await this.repo.deviceBySerial(tx, deviceId);
        if (!device || !canSeeProvider(caller.scope, device.providerId)) throw fail('device.notFound');
        if (device.typeCode !== pkg.deviceType) throw fail('firmware.deviceTypeMismatch', { deviceId });
        rowIds.push(device.id);
      }
      const n = await this.repo.addGreyDevices(tx, pkg.id, rowIds, caller.accountId, this.clock.now());
      await this.audit.byCaller(
        caller,
        ip,
        'firmware.grey.add',
        { type: 'firmware', id: pkg.id, providerId: null, detail: { deviceIds: [...new Set(input.deviceIds)] } },
        tx,
      );
      return { added: n, packageId: pkg.id, state: pkg.state };
    });
    // Devices added to a package already in grey release join its rollout.
    if (added.state === 'grey') await this.extendGrey(caller, added.packageId);
    return { added: added.added };
  }

  async removeGreyDevice(caller: Caller, input: Parsed<'greyDeviceDelete'>, ip: string): Promise<null> {
    await this.db.transaction(async (tx) => {
      const pkg = await this.packageFor(tx, input.id, true);
      if (pkg.state === 'full') throw fail('firmware.greyLocked');
      const device = await this.repo.deviceBySerial(tx, input.deviceId);
      if (!device || !canSeeProvider(caller.scope, device.providerId)) throw fail('device.notFound');
      await this.repo.removeGreyDevice(tx, pkg.id, device.id);
      // A device taken off the whitelist before its upgrade was sent is not upgraded.
      const now = this.clock.now();
      await this.repo.moveUpgradesOf(
        tx,
        pkg.id,
        WAITING,
        { state: 'cancelled', reason: 'removed', error: 'removed from the whitelist', updatedAt: now, finishedAt: now },
        device.id,
      );
      await this.audit.byCaller(
        caller,
        ip,
        'firmware.grey.remove',
        { type: 'firmware', id: pkg.id, providerId: null, detail: { deviceId: input.deviceId } },
        tx,
      );
    });
    return null;
  }

  async greyList(caller: Caller, q: Parsed<'greyDeviceList'>) {
    await this.packageFor(this.db, q.id);
    const { rows, total } = await this.repo.greyPage(
      this.db,
      q.id,
      scopeIds(caller.scope),
      (q.pageNum - 1) * q.pageSize,
      q.pageSize,
    );
    const out: GreyDevice[] = rows.map((r) => ({
      deviceId: r.device.deviceId,
      deviceType: r.device.typeCode,
      name: r.device.name,
      providerName: r.providerName,
      online: r.online,
      firmwareVersion: r.firmwareVersion,
      upgradeState: (r.upgradeState as GreyDevice['upgradeState']) ?? null,
      progress: r.progress ?? null,
    }));
    return { rows: out, total, pageNum: q.pageNum, pageSize: q.pageSize };
  }

  async upgradeList(caller: Caller, q: Parsed<'firmwareUpgradeList'>) {
    await this.packageFor(this.db, q.id);
    const { rows, total } = await this.repo.upgradePage(
      this.db,
      { packageId: q.id, scope: scopeIds(caller.scope), state: q.state, stage: q.stage },
      (q.pageNum - 1) * q.pageSize,
      q.pageSize,
    );
    const out: UpgradeRow[] = rows.map(({ upgrade, device, online, firmwareVersion, providerName }) => ({
      deviceId: device.deviceId,
      deviceType: device.typeCode,
      name: device.name,
      providerName,
      online,
      firmwareVersion,
      fromVersion: upgrade.fromVersion,
      stage: upgrade.stage,
      state: upgrade.state as UpgradeRow['state'],
      progress: upgrade.progress,
      reason: (upgrade.reason as UpgradeRow['reason']) ?? null,
      error: upgrade.error,
      updateTime: upgrade.updatedAt.toISOString(),
    }));
    return { rows: out, total, pageNum: q.pageNum, pageSize: q.pageSize };
  }

  /**
   * Grey: the whitelist (in the caller's scope) in one stage. Full: every device of the type in
   * the caller's scope whose version is older, in stages. Devices already on this version are
   * left out; waiting upgrades of the same devices to other packages are cancelled.
   */
  async release(caller: Caller, input: Parsed<'firmwarePost'>, ip: string): Promise<Firmware> {
    const row = await this.db.transaction(async (tx) => {
      const pkg = await this.packageFor(tx, input.id, true);
      if (pkg.state === 'offline') throw fail('firmware.isOffline');
      if (pkg.state === 'full' && input.release === 'grey') throw fail('firmware.greyLocked');
      const scope = scopeIds(caller.scope);
      const candidates =
        input.release === 'grey'
          ? await this.repo.greyDevices(tx, pkg.id, scope)
          : await this.repo.devicesOfType(tx, pkg.deviceType, scope);
      if (input.release === 'grey' && !candidates.length) throw fail('firmware.greyEmpty');
      const target = parseFirmwareVersion(pkg.version) ?? [];
      const older = candidates.filter((d) => {
        const current = d.firmwareVersion ? parseFirmwareVersion(d.firmwareVersion) : null;
        return !current || compareFirmwareVersions(current, target) < 0;
      });
      if (!older.length) throw fail('firmware.noDevices');
      const stages = input.release === 'grey' ? [100] : [...(input.stages ?? DEFAULT_ROLLOUT_STAGES)];
      const now = this.clock.now();
      const ordered = rolloutOrder(older);
      const stageOf = assignStages(ordered.length, stages);
      await this.repo.cancelOthers(
        tx,
        pkg.id,
        ordered.map((d) => d.id),
        now,
      );
      // A full release after a grey one starts a new rollout: grey devices still waiting go first,
      // the others' upgrades stay as they are.
      if (input.release === 'full') await this.repo.moveUpgradesOf(tx, pkg.id, WAITING, { stage: 0, updatedAt: now });
      await this.repo.insertUpgrades(
        tx,
        ordered.map((d, i) => ({
          packageId: pkg.id,
          deviceRowId: d.id,
          providerId: d.providerId,
          stage: stageOf[i] ?? stages.length - 1,
          state: 'pending',
          fromVersion: d.firmwareVersion,
          updatedAt: now,
        })),
      );
      await this.repo.saveRollout(tx, {
        packageId: pkg.id,
        kind: input.release,
        stages,
        stage: 0,
        failureThreshold: input.failureThreshold ?? DEFAULT_FAILURE_THRESHOLD,
        state: 'running',
        pausedReason: null,
        forceOccupied: input.forceOccupied ?? false,
        startedBy: caller.accountId,
        startedAt: now,
        updatedAt: now,
      });
      const state: FirmwareState = input.release;
      await this.repo.updatePackage(tx, pkg.id, { state, releasedAt: pkg.releasedAt ?? now });
      await this.audit.byCaller(
        caller,
        ip,
        `firmware.release.${input.release}`,
        { type: 'firmware', id: pkg.id, providerId: null, detail: { devices: ordered.length, stages } },
        tx,
      );
      return { ...pkg, state, releasedAt: pkg.releasedAt ?? now };
    });
    this.onChanged(row.id);
    return this.present(caller, row);
  }

  /** Devices added to the whitelist of a package in grey release join its (single-stage) rollout. */
  private async extendGrey(caller: Caller, packageId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const pkg = await this.packageFor(tx, packageId, true);
      const rollout = await this.repo.rollout(tx, packageId);
      if (!rollout || rollout.kind !== 'grey' || rollout.state === 'stopped') return;
      const target = parseFirmwareVersion(pkg.version) ?? [];
      const now = this.clock.now();
      const grey = await this.repo.greyDevices(tx, packageId, scopeIds(caller.scope));
      const older = grey.filter((d) => {
        const current = d.firmwareVersion ? parseFirmwareVersion(d.firmwareVersion) : null;
        return !current || compareFirmwareVersions(current, target) < 0;
      });
      await this.repo.cancelOthers(
        tx,
        packageId,
        older.map((d) => d.id),
        now,
      );
      const added = await this.repo.insertUpgrades(
        tx,
        older.map((d) => ({
          packageId,
          deviceRowId: d.id,
          providerId: d.providerId,
          stage: 0,
          state: 'pending',
          fromVersion: d.firmwareVersion,
          updatedAt: now,
        })),
      );
      if (added && rollout.state === 'done') {
        await this.repo.moveRollout(tx, packageId, ['done'], { state: 'running', updatedAt: now });
      }
    });
    this.onChanged(packageId);
  }

  /** Pause, resume or stop a rollout at once; offline takes the package offline and stops its rollout. */
  async control(caller: Caller, input: Parsed<'firmwareUpdate'>, ip: string): Promise<Firmware> {
    const row = await this.db.transaction(async (tx) => {
      const pkg = await this.packageFor(tx, input.id, true);
      const now = this.clock.now();
      const rollout = await this.repo.rollout(tx, pkg.id, true);
      const stopWaiting = () =>
        this.repo.moveUpgradesOf(tx, pkg.id, WAITING, {
          state: 'cancelled',
          reason: input.action === 'offline' ? 'offline' : 'stopped',
          error: input.action === 'offline' ? 'package taken offline' : 'rollout stopped',
          updatedAt: now,
          finishedAt: now,
        });
      let next: PackageRecord = pkg;
      switch (input.action) {
        case 'offline':
          if (pkg.state === 'unpublished') throw fail('firmware.noRollout');
          if (pkg.state === 'offline') throw fail('firmware.isOffline');
          if (rollout && (rollout.state === 'running' || rollout.state === 'paused')) {
            await this.repo.moveRollout(tx, pkg.id, ['running', 'paused'], { state: 'stopped', updatedAt: now });
          }
          await stopWaiting();
          await this.repo.updatePackage(tx, pkg.id, { state: 'offline', offlineAt: now });
          next = { ...pkg, state: 'offline', offlineAt: now };
          break;
        case 'pause':
          this.assertControllable(rollout);
          await this.repo.moveRollout(tx, pkg.id, ['running'], {
            state: 'paused',
            pausedReason: 'admin',
            updatedAt: now,
          });
          break;
        case 'resume': {
          this.assertControllable(rollout);
          // After an automatic pause the administrator has seen the failures and goes on: the next
          // stage opens (on the last stage, its failures no longer pause it).
          const afterFailures = rollout?.state === 'paused' && rollout.pausedReason === 'failures';
          const last = rollout ? rollout.stage >= rollout.stages.length - 1 : true;
          await this.repo.moveRollout(tx, pkg.id, ['paused'], {
            state: 'running',
            pausedReason: null,
            updatedAt: now,
            ...(afterFailures && rollout && !last ? { stage: rollout.stage + 1 } : {}),
            ...(afterFailures && last ? { failureThreshold: 100 } : {}),
          });
          break;
        }
        case 'stop':
          this.assertControllable(rollout);
          await this.repo.moveRollout(tx, pkg.id, ['running', 'paused'], { state: 'stopped', updatedAt: now });
          await stopWaiting();
          break;
      }
      await this.audit.byCaller(
        caller,
        ip,
        `firmware.${input.action}`,
        { type: 'firmware', id: pkg.id, providerId: null },
        tx,
      );
      return next;
    });
    this.onChanged(row.id);
    return this.present(caller, row);
  }

  /** Pausing a paused rollout or resuming a running one changes nothing and is answered as it is. */
  private assertControllable(rollout: RolloutRecord | undefined): void {
    if (!rollout) throw fail('firmware.noRollout');
    if (rollout.state === 'stopped' || rollout.state === 'done') throw fail('firmware.rolloutEnded');
  }

  async remove(caller: Caller, id: number, ip: string): Promise<null> {
    await this.db.transaction(async (tx) => {
      const pkg = await this.packageFor(tx, id, true);
      if (pkg.state !== 'unpublished') throw fail('firmware.notUnpublished');
      await this.repo.deletePackage(tx, id);
      await this.audit.byCaller(
        caller,
        ip,
        'firmware.delete',
        { type: 'firmware', id, providerId: null, detail: { deviceType: pkg.deviceType, version: pkg.version } },
        tx,
      );
    });
    return null;
  }

  private async packageFor(db: Executor, id: number, lock = false) {
    const pkg = await this.repo.findPackage(db, id, lock);
    if (!pkg) throw notFound();
    return pkg;
  }

  async present(caller: Caller, pkg: PackageRecord): Promise<Firmware> {
    const uploadedBy = await this.repo.uploaderName(this.db, pkg.uploadedBy);
    const [one] = await this.presentMany(caller, [{ pkg, uploadedBy }]);
    if (!one) throw new Error('firmware package vanished while presented');
    return one;
  }

  /** Packages as the API shows them: the whitelist and the upgrades counted in the caller's scope. */
  private async presentMany(caller: Caller, rows: { pkg: PackageRecord; uploadedBy: string | null }[]) {
    const ids = rows.map((r) => r.pkg.id);
    const scope = scopeIds(caller.scope);
    const [grey, rollouts, counts] = await Promise.all([
      this.repo.greyCounts(this.db, ids, scope),
      this.repo.rollouts(this.db, ids),
      this.repo.stageCounts(this.db, ids, scope),
    ]);
    const rolloutOf = new Map(rollouts.map((r) => [r.packageId, r]));
    return rows.map(({ pkg, uploadedBy }): Firmware => {
      const rollout = rolloutOf.get(pkg.id);
      const progress = rollout
        ? rolloutCounts(
            rollout.stages,
            counts.filter((c) => c.packageId === pkg.id),
          )
        : null;
      return {
        id: pkg.id,
        deviceType: pkg.deviceType,
        version: pkg.version,
        fileName: pkg.fileName,
        size: pkg.sizeBytes,
        md5: pkg.md5,
        sha256: pkg.sha256,
        remark: pkg.remark,
        state: pkg.state as FirmwareState,
        uploadTime: pkg.uploadedAt.toISOString(),
        uploadedBy,
        releaseTime: pkg.releasedAt?.toISOString() ?? null,
        offlineTime: pkg.offlineAt?.toISOString() ?? null,
        greyCount: grey.get(pkg.id) ?? 0,
        rollout:
          rollout && progress
            ? {
                kind: rollout.kind as 'grey' | 'full',
                stages: rollout.stages,
                stage: rollout.stage,
                failureThreshold: rollout.failureThreshold,
                state: rollout.state as 'running' | 'paused' | 'stopped' | 'done',
                pausedReason: (rollout.pausedReason as 'admin' | 'failures' | null) ?? null,
                forceOccupied: rollout.forceOccupied,
                startTime: rollout.startedAt.toISOString(),
                counts: progress.counts,
                stageCounts: progress.stageCounts,
              }
            : null,
      };
    });
  }
}

const FIRMWARE_LOCK_SPACE = 0x0f1a;
/** A transaction-scoped advisory lock per device type: two uploads of one type take turns. */
const sqlLock = (deviceType: number) => sql`select pg_advisory_xact_lock(${FIRMWARE_LOCK_SPACE}, ${deviceType})`;
