import { and, eq, inArray, sql } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Clock } from '../../../clock.ts';
import type { EventStream } from '../../../core/events.ts';
import type { Db, Executor } from '../../../db/database.ts';
import { beds, caregivers, devices, deviceStock, residents, rooms } from '../../../db/schema.ts';
import { DEVICE_CONTEXT_CHANGED } from '../../../core/event-catalogue.ts';

const host = alias(devices, 'host');
/** The bed a device is placed at (a call button), and the bed of the resident who wears it (a badge). */
const placeBed = alias(beds, 'place_bed');
const wearerBed = alias(beds, 'wearer_bed');
const wearer = alias(residents, 'wearer');

/** Who a device is at this moment: what the ingest stamps on its events and rollups. */
export interface DeviceContext {
  deviceId: string;
  typeCode: number;
  /** Null while the device is in stock (registered, not added by a provider). */
  deviceRowId: number | null;
  providerId: number | null;
  bedId: number | null;
  residentId: number | null;
  /**
   * Its place (decision 0046): the room (its bed's, its own, its wearer's) and the floor or area
   * (the room's floor, or the area it is placed in); the caregiver who wears a nurse watch.
   */
  roomId: number | null;
  areaId: number | null;
  caregiverId: number | null;
  /** Raw samples are kept (/device/isUploadData). */
  uploadData: boolean;
  /** The reporting interval set by the `interval` command, in seconds; null: the default. */
  reportInterval: number | null;
  /** The gateway host's device ID, for a paired sub-device. */
  gatewayDeviceId: string | null;
}

/** Told of entries that changed (moved, added) or went (`removed`: no longer registered), once applied. */
export type DirectoryListener = (changed: readonly DeviceContext[], removed: readonly string[]) => void;

const sameContext = (a: DeviceContext, b: DeviceContext): boolean =>
  a.typeCode === b.typeCode &&
  a.deviceRowId === b.deviceRowId &&
  a.providerId === b.providerId &&
  a.bedId === b.bedId &&
  a.residentId === b.residentId &&
  a.roomId === b.roomId &&
  a.areaId === b.areaId &&
  a.caregiverId === b.caregiverId &&
  a.uploadData === b.uploadData &&
  a.reportInterval === b.reportInterval &&
  a.gatewayDeviceId === b.gatewayDeviceId;

/**
 * Every registered device and where it serves, in memory, so the ingest stamps each message
 * without a query. A move (a device's provider, bed or resident changed, or the device added,
 * deleted or replaced) is announced by a domain event after its commit, on this instance and over
 * the relay on the others: the moved devices are read again at once, and their messages wait for
 * that read (`settled`), so none is stamped with where a device was (decision 0040). The full
 * reload every `reloadMs` stays as the safety net for what an announcement missed (the relay down);
 * a device not known yet is read when it first speaks.
 *
 * Reads are numbered as they start and every entry keeps the number of the read that set it: a
 * read never overwrites what a later one found, whatever order they finish in.
 */
export class DeviceDirectory {
  private readonly byId = new Map<string, DeviceContext>();
  private readonly subDevices = new Map<string, Set<string>>();
  private readonly misses = new Map<string, number>();
  private readonly refreshedAt = new Map<string, number>();
  /** Devices read again after a move: the fresh context, once read. */
  private readonly settling = new Map<string, Promise<DeviceContext | undefined>>();
  private reads = 0;
  private readonly readOf = new Map<string, number>();
  private readonly listeners = new Set<DirectoryListener>();
  private timer: NodeJS.Timeout | undefined;
  loadedAt: Date | undefined;
  /** Counts changes of the entries: whoever indexes them (the vitals hub) indexes again when it moves. */
  version = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly reloadMs = 30_000,
  ) {}

  get(deviceId: string): DeviceContext | undefined {
    return this.byId.get(deviceId);
  }

  /**
   * The device's context once the read a move started has landed; undefined when no move of it
   * is being read (then `get` is current). The ingest stamps a message with this when there is one.
   */
  settled(deviceId: string): Promise<DeviceContext | undefined> | undefined {
    return this.settling.get(deviceId);
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

  /** Hears of every change applied (the alarm engine re-places the devices it watches); answers the unsubscribe. */
  onChange(listener: DirectoryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async load(): Promise<void> {
    const read = ++this.reads;
    const rows = await this.query();
    this.apply(read, rows, new Set([...this.byId.keys(), ...rows.map((r) => r.deviceId)]));
    this.loadedAt = this.clock.now();
  }

  /**
   * Devices moved (the change committed): read again at once, and until that read lands their
   * messages wait for it. Answers the read, which may fail (the entries stay as they were until the
   * next full reload; the waiting messages go on with them).
   */
  changed(deviceIds: readonly string[]): Promise<void> {
    const ids = [...new Set(deviceIds.map((id) => id.toUpperCase()))];
    if (!ids.length) return Promise.resolve();
    for (const id of ids) {
      this.misses.delete(id);
      this.refreshedAt.delete(id);
    }
    const read = this.readAgain(ids);
    const landed = read.then(
      () => undefined,
      () => undefined,
    );
    for (const id of ids) {
      const fresh = landed.then(() => this.byId.get(id));
      this.settling.set(id, fresh);
      void fresh.then(() => {
        if (this.settling.get(id) === fresh) this.settling.delete(id);
      });
    }
    return read;
  }

  /** Follows the moves announced on the event stream: this instance's, and the others' relayed. */
  follow(events: EventStream, report: (error: unknown) => void): () => void {
    return events.subscribe(
      (event) => {
        this.changed(event.payload.deviceIds).catch(report);
      },
      [DEVICE_CONTEXT_CHANGED],
    );
  }

  /**
   * The devices' contexts as `tx` reads them, applied here too: the transaction storing device
   * events stamps them with this, so an event is never stored (nor its alarm raised) for where its
   * device was, even when the announcement of a move has not reached this instance yet.
   */
  async confirm(tx: Executor, deviceIds: readonly string[]): Promise<Map<string, DeviceContext>> {
    const ids = [...new Set(deviceIds)];
    if (!ids.length) return new Map();
    const read = ++this.reads;
    const rows = await this.query(ids, tx);
    this.apply(read, rows, ids);
    return new Map(rows.map((r) => [r.deviceId, r]));
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
    const read = ++this.reads;
    const rows = await this.query([deviceId]);
    if (!rows.length) {
      if (this.misses.size > 100_000) this.misses.clear();
      this.misses.set(deviceId, now);
      return undefined;
    }
    this.apply(read, rows, [deviceId]);
    return this.byId.get(deviceId);
  }

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
    await this.readAgain([deviceId]);
    return this.byId.get(deviceId);
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

  private async readAgain(ids: readonly string[]): Promise<void> {
    const read = ++this.reads;
    this.apply(read, await this.query(ids), ids);
  }

  /** What read number `read` found for the devices it asked about (absent: no longer registered). */
  private apply(read: number, rows: readonly DeviceContext[], asked: Iterable<string>): void {
    const found = new Map(rows.map((r) => [r.deviceId, r]));
    const changed: DeviceContext[] = [];
    const removed: string[] = [];
    for (const id of asked) {
      // A later read set this entry already: what this one saw is older.
      if ((this.readOf.get(id) ?? 0) > read) continue;
      this.readOf.set(id, read);
      const before = this.byId.get(id);
      const next = found.get(id);
      if (before?.gatewayDeviceId && before.gatewayDeviceId !== next?.gatewayDeviceId)
        this.subDevices.get(before.gatewayDeviceId)?.delete(id);
      if (!next) {
        if (!before) continue;
        this.byId.delete(id);
        removed.push(id);
        continue;
      }
      this.misses.delete(id);
      this.byId.set(id, next);
      if (next.gatewayDeviceId) this.pairUnder(next.gatewayDeviceId, id);
      if (!before || !sameContext(before, next)) changed.push(next);
    }
    if (!changed.length && !removed.length) return;
    this.version++;
    for (const listener of this.listeners) listener(changed, removed);
  }

  private pairUnder(host: string, sub: string): void {
    const set = this.subDevices.get(host) ?? new Set<string>();
    set.add(sub);
    this.subDevices.set(host, set);
  }

  private async query(deviceIds?: readonly string[], executor: Executor = this.db): Promise<DeviceContext[]> {
    const sameProvider = (providerId: AnyPgColumn) => eq(providerId, devices.providerId);
    // One place per device (decision 0046): the bed that holds it (sleep monitor, fall radar), else
    // the bed it is placed at, its room, its area, or the resident who wears it and their bed or room.
    const bedId = sql<number | null>`coalesce(${beds.id}, ${placeBed.id}, ${wearerBed.id})`;
    const query = executor
      .select({
        deviceId: deviceStock.deviceId,
        typeCode: deviceStock.typeCode,
        deviceRowId: devices.id,
        providerId: devices.providerId,
        bedId,
        residentId: sql<number | null>`coalesce(${beds.residentId}, ${placeBed.residentId}, ${wearer.id})`,
        roomId: rooms.id,
        areaId: sql<number | null>`coalesce(${rooms.floorId}, ${devices.placeAreaId})`,
        caregiverId: caregivers.id,
        uploadData: devices.uploadData,
        reportInterval: devices.reportInterval,
        gatewayDeviceId: host.deviceId,
      })
      .from(deviceStock)
      .leftJoin(devices, eq(devices.stockId, deviceStock.id))
      .leftJoin(host, eq(host.id, devices.gatewayId))
      .leftJoin(beds, eq(beds.deviceId, devices.id))
      .leftJoin(placeBed, and(eq(placeBed.id, devices.placeBedId), sameProvider(placeBed.providerId)))
      .leftJoin(wearer, and(eq(wearer.id, devices.placeResidentId), sameProvider(wearer.providerId)))
      .leftJoin(wearerBed, eq(wearerBed.residentId, wearer.id))
      .leftJoin(
        rooms,
        and(
          eq(
            rooms.id,
            sql`coalesce(${beds.roomId}, ${placeBed.roomId}, ${devices.placeRoomId}, ${wearerBed.roomId}, ${wearer.roomId})`,
          ),
          sameProvider(rooms.providerId),
        ),
      )
      .leftJoin(caregivers, and(eq(caregivers.id, devices.placeCaregiverId), sameProvider(caregivers.providerId)));
    const rows = await (deviceIds
      ? deviceIds.length === 1
        ? query.where(eq(deviceStock.deviceId, deviceIds[0] as string))
        : query.where(inArray(deviceStock.deviceId, [...deviceIds]))
      : query);
    return rows.map((r) => ({
      deviceId: r.deviceId,
      typeCode: r.typeCode,
      deviceRowId: r.deviceRowId,
      providerId: r.providerId,
      bedId: r.bedId === null ? null : Number(r.bedId),
      residentId: r.residentId === null ? null : Number(r.residentId),
      roomId: r.roomId,
      areaId: r.areaId === null ? null : Number(r.areaId),
      caregiverId: r.caregiverId,
      uploadData: r.uploadData ?? false,
      reportInterval: r.reportInterval,
      gatewayDeviceId: r.gatewayDeviceId,
    }));
  }
}
