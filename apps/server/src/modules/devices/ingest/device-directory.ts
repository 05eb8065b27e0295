import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Clock } from '../../../clock.ts';
import type { Db } from '../../../db/database.ts';
import { beds, devices, deviceStock } from '../../../db/schema.ts';

const host = alias(devices, 'host');

/** Who a device is at this moment: what the ingest stamps on its events and rollups. */
export interface DeviceContext {
  deviceId: string;
  typeCode: number;
  /** Null while the device is in stock (registered, not added by a provider). */
  deviceRowId: number | null;
  providerId: number | null;
  bedId: number | null;
  residentId: number | null;
  /** Raw samples are kept (/device/isUploadData). */
  uploadData: boolean;
  /** The reporting interval set by the `interval` command, in seconds; null: the default. */
  reportInterval: number | null;
  /** The gateway host's device ID, for a paired sub-device. */
  gatewayDeviceId: string | null;
}

/**
 * Every registered device and where it serves, in memory, so the ingest stamps each message
 * without a query. Reloaded in full periodically (a few thousand rows, one query) and one
 * device at a time when a message comes from a device it does not know yet; a bed move or a
 * raw-upload switch reaches the ingest within `reloadMs` (decision 0022).
 */
export class DeviceDirectory {
  private byId = new Map<string, DeviceContext>();
  private subDevices = new Map<string, Set<string>>();
  private readonly misses = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  loadedAt: Date | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly reloadMs = 30_000,
  ) {}

  get(deviceId: string): DeviceContext | undefined {
    return this.byId.get(deviceId);
  }

  /** The device IDs paired under a gateway host. */
  subDevicesOf(hostDeviceId: string): ReadonlySet<string> {
    return this.subDevices.get(hostDeviceId) ?? new Set();
  }

  /** Every device known now. */
  all(): IterableIterator<DeviceContext> {
    return this.byId.values();
  }

  get size(): number {
    return this.byId.size;
  }

  async load(): Promise<void> {
    const rows = await this.query();
    const byId = new Map<string, DeviceContext>();
    for (const row of rows) byId.set(row.deviceId, row);
    this.byId = byId;
    this.subDevices = new Map();
    for (const row of rows) if (row.gatewayDeviceId) this.pairUnder(row.gatewayDeviceId, row.deviceId);
    this.loadedAt = this.clock.now();
  }

  /**
   * The context of a device not in memory, read once; a device the registry does not know
   * is not asked again for a while (a flood of unknown IDs must not become a flood of queries).
   */
  async lookup(deviceId: string): Promise<DeviceContext | undefined> {
    const known = this.byId.get(deviceId);
    if (known) return known;
    const missedAt = this.misses.get(deviceId);
    const now = this.clock.now().getTime();
    if (missedAt !== undefined && now - missedAt < this.reloadMs) return undefined;
    const [row] = await this.query(deviceId);
    if (!row) {
      if (this.misses.size > 100_000) this.misses.clear();
      this.misses.set(deviceId, now);
      return undefined;
    }
    this.byId.set(deviceId, row);
    if (row.gatewayDeviceId) this.pairUnder(row.gatewayDeviceId, row.deviceId);
    return row;
  }

  private readonly refreshedAt = new Map<string, number>();

  /**
   * Reads one device again, at most every `minIntervalMs` per device: a sub-device paired a
   * moment ago speaks through its host before the next full reload. Answers the fresh context.
   */
  async refresh(deviceId: string, minIntervalMs = 2_000): Promise<DeviceContext | undefined> {
    const now = this.clock.now().getTime();
    const last = this.refreshedAt.get(deviceId);
    if (last !== undefined && now - last < minIntervalMs) return this.byId.get(deviceId);
    if (this.refreshedAt.size > 100_000) this.refreshedAt.clear();
    this.refreshedAt.set(deviceId, now);
    const [row] = await this.query(deviceId);
    const before = this.byId.get(deviceId);
    if (before?.gatewayDeviceId) this.subDevices.get(before.gatewayDeviceId)?.delete(deviceId);
    if (!row) {
      this.byId.delete(deviceId);
      return undefined;
    }
    this.misses.delete(deviceId);
    this.byId.set(deviceId, row);
    if (row.gatewayDeviceId) this.pairUnder(row.gatewayDeviceId, row.deviceId);
    return row;
  }

  start(onError: (error: unknown) => void): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.load().catch(onError), this.reloadMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private pairUnder(host: string, sub: string): void {
    const set = this.subDevices.get(host) ?? new Set<string>();
    set.add(sub);
    this.subDevices.set(host, set);
  }

  private async query(deviceId?: string): Promise<DeviceContext[]> {
    const query = this.db
      .select({
        deviceId: deviceStock.deviceId,
        typeCode: deviceStock.typeCode,
        deviceRowId: devices.id,
        providerId: devices.providerId,
        bedId: beds.id,
        residentId: beds.residentId,
        uploadData: devices.uploadData,
        reportInterval: devices.reportInterval,
        gatewayDeviceId: host.deviceId,
      })
      .from(deviceStock)
      .leftJoin(devices, eq(devices.stockId, deviceStock.id))
      .leftJoin(host, eq(host.id, devices.gatewayId))
      .leftJoin(beds, eq(beds.deviceId, devices.id));
    const rows = await (deviceId ? query.where(eq(deviceStock.deviceId, deviceId)) : query);
    return rows.map((r) => ({
      deviceId: r.deviceId,
      typeCode: r.typeCode,
      deviceRowId: r.deviceRowId,
      providerId: r.providerId,
      bedId: r.bedId,
      residentId: r.residentId,
      uploadData: r.uploadData ?? false,
      reportInterval: r.reportInterval,
      gatewayDeviceId: r.gatewayDeviceId,
    }));
  }
}
