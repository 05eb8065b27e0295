import { and, asc, count, desc, eq, ilike, inArray, lte, or, sql } from 'drizzle-orm';
import type { FirmwareState, UpgradeState } from '@vigil/contract';
import type { Executor } from '../../db/database.ts';
import { containsPattern, inProviders } from '../../db/sql-filters.ts';
import { liveFirmwareVersion, liveOnline, withLiveState } from '../devices/live-columns.ts';
import {
  accounts,
  deviceLiveState,
  devices,
  firmwareGreyDevices,
  firmwarePackages,
  firmwareRollouts,
  firmwareUpgrades,
  providers,
} from '../../db/schema.ts';

export type PackageRecord = typeof firmwarePackages.$inferSelect;
export type RolloutRecord = typeof firmwareRollouts.$inferSelect;
export type UpgradeRecord = typeof firmwareUpgrades.$inferSelect;

/** Upgrades by stage and state: the figures a rollout's progress is read from. */
export interface StageStateCount {
  stage: number;
  state: UpgradeState;
  n: number;
}

/** Upgrades under way: sent to the device, which has not finished. */
export const IN_FLIGHT: readonly UpgradeState[] = ['sent', 'downloading', 'installing'];
/** Upgrades not yet sent. */
export const WAITING: readonly UpgradeState[] = ['pending', 'deferred'];

/** What a release needs of each device it targets. */
const TARGET = {
  id: devices.id,
  deviceId: devices.deviceId,
  providerId: devices.providerId,
  firmwareVersion: liveFirmwareVersion,
};

export class FirmwareRepository {
  async insertPackage(db: Executor, values: typeof firmwarePackages.$inferInsert): Promise<PackageRecord> {
    const [row] = await db.insert(firmwarePackages).values(values).returning();
    if (!row) throw new Error('firmware package insert returned nothing');
    return row;
  }

  async findPackage(db: Executor, id: number, lock = false): Promise<PackageRecord | undefined> {
    const query = db.select().from(firmwarePackages).where(eq(firmwarePackages.id, id));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  }

  async updatePackage(db: Executor, id: number, values: Partial<typeof firmwarePackages.$inferInsert>): Promise<void> {
    await db.update(firmwarePackages).set(values).where(eq(firmwarePackages.id, id));
  }

  async deletePackage(db: Executor, id: number): Promise<void> {
    await db.delete(firmwarePackages).where(eq(firmwarePackages.id, id));
  }

  /** Every package's version and state for a device type (the version rule compares them). */
  async versionsOf(db: Executor, deviceType: number): Promise<{ version: string; state: FirmwareState }[]> {
    const rows = await db
      .select({ version: firmwarePackages.version, state: firmwarePackages.state })
      .from(firmwarePackages)
      .where(eq(firmwarePackages.deviceType, deviceType));
    return rows.map((r) => ({ version: r.version, state: r.state as FirmwareState }));
  }

  async page(
    db: Executor,
    q: { deviceType?: number; state?: FirmwareState; keyword?: string; offset: number; limit: number },
  ) {
    const p = firmwarePackages;
    const like = q.keyword ? containsPattern(q.keyword) : undefined;
    const where = and(
      q.deviceType === undefined ? undefined : eq(p.deviceType, q.deviceType),
      q.state === undefined ? undefined : eq(p.state, q.state),
      like ? or(ilike(p.version, like), ilike(p.fileName, like), ilike(p.remark, like)) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      db
        .select({ pkg: p, uploadedByName: accounts.userName })
        .from(p)
        .leftJoin(accounts, eq(accounts.id, p.uploadedBy))
        .where(where)
        .orderBy(desc(p.uploadedAt), desc(p.id))
        .offset(q.offset)
        .limit(q.limit),
      db.select({ n: count() }).from(p).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async uploaderName(db: Executor, accountId: number | null): Promise<string | null> {
    if (accountId === null) return null;
    const [row] = await db.select({ name: accounts.userName }).from(accounts).where(eq(accounts.id, accountId));
    return row?.name ?? null;
  }

  // --- whitelist ----------------------------------------------------------------------------

  async addGreyDevices(db: Executor, packageId: number, deviceRowIds: readonly number[], by: number, at: Date) {
    if (!deviceRowIds.length) return 0;
    const rows = await db
      .insert(firmwareGreyDevices)
      .values(deviceRowIds.map((deviceRowId) => ({ packageId, deviceRowId, addedBy: by, addedAt: at })))
      .onConflictDoNothing()
      .returning({ id: firmwareGreyDevices.deviceRowId });
    return rows.length;
  }

  async removeGreyDevice(db: Executor, packageId: number, deviceRowId: number): Promise<void> {
    await db
      .delete(firmwareGreyDevices)
      .where(and(eq(firmwareGreyDevices.packageId, packageId), eq(firmwareGreyDevices.deviceRowId, deviceRowId)));
  }

  /** Grey devices of packages the caller sees, counted per package. */
  async greyCounts(db: Executor, packageIds: readonly number[], scope: readonly number[] | null) {
    if (!packageIds.length) return new Map<number, number>();
    const rows = await db
      .select({ packageId: firmwareGreyDevices.packageId, n: count() })
      .from(firmwareGreyDevices)
      .innerJoin(devices, eq(devices.id, firmwareGreyDevices.deviceRowId))
      .where(and(inArray(firmwareGreyDevices.packageId, [...packageIds]), inProviders(devices.providerId, scope)))
      .groupBy(firmwareGreyDevices.packageId);
    return new Map(rows.map((r) => [r.packageId, r.n]));
  }

  async greyPage(db: Executor, packageId: number, scope: readonly number[] | null, offset: number, limit: number) {
    const g = firmwareGreyDevices;
    const where = and(eq(g.packageId, packageId), inProviders(devices.providerId, scope));
    const [rows, [total]] = await Promise.all([
      db
        .select({
          device: devices,
          online: liveOnline,
          firmwareVersion: liveFirmwareVersion,
          providerName: providers.name,
          upgradeState: firmwareUpgrades.state,
          progress: firmwareUpgrades.progress,
        })
        .from(g)
        .innerJoin(devices, eq(devices.id, g.deviceRowId))
        .leftJoin(deviceLiveState, withLiveState)
        .innerJoin(providers, eq(providers.id, devices.providerId))
        .leftJoin(
          firmwareUpgrades,
          and(eq(firmwareUpgrades.packageId, g.packageId), eq(firmwareUpgrades.deviceRowId, g.deviceRowId)),
        )
        .where(where)
        .orderBy(asc(devices.deviceId))
        .offset(offset)
        .limit(limit),
      db.select({ n: count() }).from(g).innerJoin(devices, eq(devices.id, g.deviceRowId)).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  /** The whitelist's devices in scope (a grey release's targets). */
  async greyDevices(db: Executor, packageId: number, scope: readonly number[] | null) {
    return db
      .select(TARGET)
      .from(firmwareGreyDevices)
      .innerJoin(devices, eq(devices.id, firmwareGreyDevices.deviceRowId))
      .leftJoin(deviceLiveState, withLiveState)
      .where(and(eq(firmwareGreyDevices.packageId, packageId), inProviders(devices.providerId, scope)));
  }

  /** A registered device by its ID, as a whitelist names it (read-only, like the targets). */
  async deviceBySerial(
    db: Executor,
    deviceId: string,
  ): Promise<{ id: number; providerId: number | null; typeCode: number } | undefined> {
    const [row] = await db
      .select({ id: devices.id, providerId: devices.providerId, typeCode: devices.typeCode })
      .from(devices)
      .where(eq(devices.deviceId, deviceId));
    return row;
  }

  /** Every device of a type in scope (a full release's targets). */
  async devicesOfType(db: Executor, deviceType: number, scope: readonly number[] | null) {
    return db
      .select(TARGET)
      .from(devices)
      .leftJoin(deviceLiveState, withLiveState)
      .where(and(eq(devices.typeCode, deviceType), inProviders(devices.providerId, scope)));
  }

  // --- rollouts and upgrades ----------------------------------------------------------------

  async rollout(db: Executor, packageId: number, lock = false): Promise<RolloutRecord | undefined> {
    const query = db.select().from(firmwareRollouts).where(eq(firmwareRollouts.packageId, packageId));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  }

  async rollouts(db: Executor, packageIds: readonly number[]): Promise<RolloutRecord[]> {
    if (!packageIds.length) return [];
    return db
      .select()
      .from(firmwareRollouts)
      .where(inArray(firmwareRollouts.packageId, [...packageIds]));
  }

  async runningRollouts(db: Executor): Promise<RolloutRecord[]> {
    return db.select().from(firmwareRollouts).where(eq(firmwareRollouts.state, 'running'));
  }

  async saveRollout(db: Executor, values: typeof firmwareRollouts.$inferInsert): Promise<void> {
    const { packageId: _key, ...rest } = values;
    await db
      .insert(firmwareRollouts)
      .values(values)
      .onConflictDoUpdate({ target: firmwareRollouts.packageId, set: rest });
  }

  /**
   * Changes a rollout only if it is still in one of `from` (a pause racing the rollout's own
   * look, two administrators): true when this call changed it.
   */
  async moveRollout(
    db: Executor,
    packageId: number,
    from: readonly string[],
    values: Partial<typeof firmwareRollouts.$inferInsert>,
  ): Promise<boolean> {
    const rows = await db
      .update(firmwareRollouts)
      .set(values)
      .where(and(eq(firmwareRollouts.packageId, packageId), inArray(firmwareRollouts.state, [...from])))
      .returning({ id: firmwareRollouts.packageId });
    return rows.length > 0;
  }

  /** New upgrades; a device that already has one for this package keeps it. */
  async insertUpgrades(db: Executor, values: (typeof firmwareUpgrades.$inferInsert)[]): Promise<number> {
    let added = 0;
    for (let i = 0; i < values.length; i += 500) {
      const rows = await db
        .insert(firmwareUpgrades)
        .values(values.slice(i, i + 500))
        .onConflictDoNothing()
        .returning({ id: firmwareUpgrades.id });
      added += rows.length;
    }
    return added;
  }

  /** Upgrades of the package per stage and state; only devices in scope when one is given. */
  async stageCounts(db: Executor, packageIds: readonly number[], scope: readonly number[] | null = null) {
    if (!packageIds.length) return [] as (StageStateCount & { packageId: number })[];
    const u = firmwareUpgrades;
    const rows = await db
      .select({ packageId: u.packageId, stage: u.stage, state: u.state, n: count() })
      .from(u)
      .where(and(inArray(u.packageId, [...packageIds]), inProviders(u.providerId, scope)))
      .groupBy(u.packageId, u.stage, u.state);
    return rows.map((r) => ({ ...r, state: r.state as UpgradeState }));
  }

  async upgradePage(
    db: Executor,
    q: { packageId: number; scope: readonly number[] | null; state?: UpgradeState; stage?: number },
    offset: number,
    limit: number,
  ) {
    const u = firmwareUpgrades;
    const where = and(
      eq(u.packageId, q.packageId),
      inProviders(u.providerId, q.scope),
      q.state === undefined ? undefined : eq(u.state, q.state),
      q.stage === undefined ? undefined : eq(u.stage, q.stage),
    );
    const [rows, [total]] = await Promise.all([
      db
        .select({
          upgrade: u,
          device: devices,
          online: liveOnline,
          firmwareVersion: liveFirmwareVersion,
          providerName: providers.name,
        })
        .from(u)
        .innerJoin(devices, eq(devices.id, u.deviceRowId))
        .leftJoin(deviceLiveState, withLiveState)
        .innerJoin(providers, eq(providers.id, u.providerId))
        .where(where)
        .orderBy(asc(u.stage), desc(u.updatedAt), asc(devices.deviceId))
        .offset(offset)
        .limit(limit),
      db.select({ n: count() }).from(u).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  /** Waiting upgrades of open stages, with what deciding on them needs: the device and its bed. */
  async dispatchable(db: Executor, packageId: number, upToStage: number, limit: number) {
    const u = firmwareUpgrades;
    return db
      .select({
        id: u.id,
        state: u.state,
        deviceRowId: devices.id,
        deviceId: devices.deviceId,
        providerId: devices.providerId,
        online: liveOnline,
        firmwareVersion: liveFirmwareVersion,
      })
      .from(u)
      .innerJoin(devices, eq(devices.id, u.deviceRowId))
      .leftJoin(deviceLiveState, withLiveState)
      .where(and(eq(u.packageId, packageId), lte(u.stage, upToStage), inArray(u.state, [...WAITING])))
      .orderBy(asc(u.stage), asc(u.id))
      .limit(limit);
  }

  /** Moves an upgrade only from one of `from`: true when this call moved it. */
  async moveUpgrade(
    db: Executor,
    id: number,
    from: readonly UpgradeState[],
    values: Partial<typeof firmwareUpgrades.$inferInsert>,
  ): Promise<boolean> {
    const rows = await db
      .update(firmwareUpgrades)
      .set(values)
      .where(and(eq(firmwareUpgrades.id, id), inArray(firmwareUpgrades.state, [...from])))
      .returning({ id: firmwareUpgrades.id });
    return rows.length > 0;
  }

  /** Every upgrade of a package (of one device, when given) still in one of `from` moves on (a stop cancels the waiting ones). */
  async moveUpgradesOf(
    db: Executor,
    packageId: number,
    from: readonly UpgradeState[],
    values: Partial<typeof firmwareUpgrades.$inferInsert>,
    deviceRowId?: number,
  ): Promise<number> {
    const rows = await db
      .update(firmwareUpgrades)
      .set(values)
      .where(
        and(
          eq(firmwareUpgrades.packageId, packageId),
          inArray(firmwareUpgrades.state, [...from]),
          deviceRowId === undefined ? undefined : eq(firmwareUpgrades.deviceRowId, deviceRowId),
        ),
      )
      .returning({ id: firmwareUpgrades.id });
    return rows.length;
  }

  /** Waiting upgrades of the same devices to other packages: a newer release replaces them. */
  async cancelOthers(db: Executor, packageId: number, deviceRowIds: readonly number[], now: Date): Promise<void> {
    for (let i = 0; i < deviceRowIds.length; i += 500) {
      await db
        .update(firmwareUpgrades)
        .set({ state: 'cancelled', reason: 'superseded', error: 'superseded', updatedAt: now, finishedAt: now })
        .where(
          and(
            sql`${firmwareUpgrades.packageId} <> ${packageId}`,
            inArray(firmwareUpgrades.deviceRowId, deviceRowIds.slice(i, i + 500)),
            inArray(firmwareUpgrades.state, [...WAITING]),
          ),
        );
    }
  }

  /** Upgrades under way whose device has been silent about them since `before`. */
  async timedOut(db: Executor, before: Date) {
    return db
      .select({ id: firmwareUpgrades.id, packageId: firmwareUpgrades.packageId })
      .from(firmwareUpgrades)
      .where(and(inArray(firmwareUpgrades.state, [...IN_FLIGHT]), lte(firmwareUpgrades.updatedAt, before)));
  }

  /** A device's upgrades under way, with their package's version (what its reports are matched to). */
  async inFlightOf(db: Executor, deviceRowId: number) {
    return db
      .select({
        id: firmwareUpgrades.id,
        packageId: firmwareUpgrades.packageId,
        state: firmwareUpgrades.state,
        commandId: firmwareUpgrades.commandId,
        version: firmwarePackages.version,
      })
      .from(firmwareUpgrades)
      .innerJoin(firmwarePackages, eq(firmwarePackages.id, firmwareUpgrades.packageId))
      .where(and(eq(firmwareUpgrades.deviceRowId, deviceRowId), inArray(firmwareUpgrades.state, [...IN_FLIGHT])));
  }

  /** Of the given devices, those with an upgrade under way. */
  async devicesUpgrading(db: Executor, deviceRowIds: readonly number[]): Promise<number[]> {
    if (!deviceRowIds.length) return [];
    const rows = await db
      .selectDistinct({ id: firmwareUpgrades.deviceRowId })
      .from(firmwareUpgrades)
      .where(
        and(inArray(firmwareUpgrades.deviceRowId, [...deviceRowIds]), inArray(firmwareUpgrades.state, [...IN_FLIGHT])),
      );
    return rows.map((r) => r.id);
  }

  async upgradeByCommand(db: Executor, commandId: number) {
    const [row] = await db.select().from(firmwareUpgrades).where(eq(firmwareUpgrades.commandId, commandId));
    return row;
  }

  /** The upgrade a download address belongs to, with its package. */
  async byToken(db: Executor, token: string) {
    const [row] = await db
      .select({ upgrade: firmwareUpgrades, pkg: firmwarePackages })
      .from(firmwareUpgrades)
      .innerJoin(firmwarePackages, eq(firmwarePackages.id, firmwareUpgrades.packageId))
      .where(eq(firmwareUpgrades.downloadToken, token));
    return row;
  }
}
