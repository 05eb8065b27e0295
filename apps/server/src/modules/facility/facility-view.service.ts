import { BED_DEVICE_TYPES, MATTRESSES, type Bunk, type CallResult, type getBunkConfiguration } from '@vigil/contract';
import type { Db, Executor } from '../../db/database.ts';
import { notFound } from '../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../core/caller.ts';
import { listScope, scopeIds } from '../../core/tenant.ts';
import type { DeviceStateReader } from '../devices/device-state.service.ts';
import { FacilityQueryRepository, type BedFilter, type BedView, type Counts } from './facility-query.repository.ts';
import { addCounts, countsOf, mattressOf, toArea, toBunk, toRoom, withFree } from './facility.present.ts';
import { bedPathKey } from './facility.policy.ts';
import { PlaceRepository } from './place.repository.ts';

export interface Paging {
  pageNum: number;
  pageSize: number;
}

export interface BedListQuery extends Paging {
  keyWord?: string | undefined;
  areaId?: number | undefined;
  roomId?: number | undefined;
  free?: boolean | undefined;
  hasDevice?: boolean | undefined;
  providerId?: number | undefined;
}

type Configuration = CallResult<typeof getBunkConfiguration>;

const pageOf = (q: Paging) => ({ offset: (q.pageNum - 1) * q.pageSize, limit: q.pageSize });

/** Every list, tree and summary of the facility, limited to what the caller sees. */
export class FacilityViewService {
  private readonly queries = new FacilityQueryRepository();
  private readonly places = new PlaceRepository();

  constructor(
    private readonly db: Db,
    /** The devices module's device states: a bed's device shows as the device list shows it. */
    private readonly devices: DeviceStateReader,
  ) {}

  /** Beds as the calls answer them, each device with its state (decision 0034). */
  private async present(rows: readonly BedView[], executor: Executor = this.db): Promise<Bunk[]> {
    const states = await this.devices.answers(
      rows.flatMap((r) => (r.deviceId === null ? [] : [r.deviceId])),
      executor,
    );
    return rows.map((r) => toBunk(r, r.deviceId === null ? null : (states.get(r.deviceId) ?? null)));
  }

  /**
   * Providers a list shows: the one asked for when the caller sees it (none otherwise, as for a
   * provider that does not exist), else the chosen provider, else the whole scope (null: all).
   */
  providersFor(caller: Caller, providerId?: number): readonly number[] | null {
    if (providerId !== undefined) return canSeeProvider(caller.scope, providerId) ? [providerId] : [];
    return scopeIds(listScope(caller));
  }

  async areaList(
    caller: Caller,
    q: Paging & { keyWord?: string | undefined; areaId?: number | undefined; providerId?: number | undefined },
  ) {
    const { rows, total } = await this.queries.areas(
      this.db,
      { providerIds: this.providersFor(caller, q.providerId), keyWord: q.keyWord, parentId: q.areaId },
      pageOf(q),
    );
    const ids = rows.map((r) => r.area.id);
    const floors = await this.queries.floorCounts(this.db, ids);
    const floorsPerArea = await this.queries.floorsPerArea(this.db, ids);
    return {
      total,
      rows: rows.map(({ area, providerName, parentName }) => {
        const mine = floors.filter((f) => (area.parentId === null ? f.areaId === area.id : f.floorId === area.id));
        const counts = mine.reduce<Counts>((sum, f) => addCounts(sum, f), countsOf(undefined));
        const roomCount = mine.reduce((n, f) => n + f.roomCount, 0);
        const floorCount = area.parentId === null ? (floorsPerArea.get(area.id) ?? 0) : 0;
        return toArea(area, { providerName, parentName }, { ...counts, floorCount, roomCount });
      }),
    };
  }

  /** The facility tree with bed counts on every node. */
  async tree(caller: Caller, providerId?: number) {
    const providerIds = this.providersFor(caller, providerId);
    const [allAreas, allRooms, counts, residentsIn] = [
      await this.queries.allAreas(this.db, providerIds),
      await this.queries.allRooms(this.db, providerIds),
      await this.queries.countsByRoom(this.db, providerIds),
      await this.queries.residentsByRoom(this.db, providerIds),
    ];
    const roomsByFloor = new Map<number, typeof allRooms>();
    for (const room of allRooms) roomsByFloor.set(room.floorId, [...(roomsByFloor.get(room.floorId) ?? []), room]);
    const floorsOf = (areaId: number) => allAreas.filter((a) => a.area.parentId === areaId);
    return allAreas
      .filter((a) => a.area.parentId === null)
      .map(({ area, providerName }) => {
        let areaCounts = countsOf(undefined);
        const floors = floorsOf(area.id).map(({ area: floor }) => {
          let floorCounts = countsOf(undefined);
          const rooms = (roomsByFloor.get(floor.id) ?? []).map((room) => {
            const c = countsOf(counts.get(room.id));
            floorCounts = addCounts(floorCounts, c);
            return { id: room.id, name: room.name, ...withFree(c), residentCount: residentsIn.get(room.id) ?? 0 };
          });
          areaCounts = addCounts(areaCounts, floorCounts);
          return { id: floor.id, name: floor.name, sort: floor.sort, ...withFree(floorCounts), rooms };
        });
        return {
          id: area.id,
          name: area.name,
          sort: area.sort,
          providerId: area.providerId,
          providerName,
          ...withFree(areaCounts),
          floors,
        };
      });
  }

  /** Rooms of an area (all its floors) or a floor that the caller sees. */
  async roomsOfArea(caller: Caller, areaId: number) {
    const area = await this.places.area(this.db, areaId);
    if (!area || !canSeeProvider(caller.scope, area.providerId)) throw notFound();
    return (await this.rooms([area.providerId], { areaId })).rows;
  }

  async roomList(
    caller: Caller,
    q: Paging & { keyWord?: string | undefined; areaId?: number | undefined; providerId?: number | undefined },
  ) {
    return this.rooms(this.providersFor(caller, q.providerId), { keyWord: q.keyWord, areaId: q.areaId }, pageOf(q));
  }

  /** Every room in scope (the bed screen's room filter). */
  async allRooms(caller: Caller, q: { keyWord?: string | undefined; areaId?: number | undefined }) {
    return (await this.rooms(this.providersFor(caller), q)).rows;
  }

  private async rooms(
    providerIds: readonly number[] | null,
    f: { keyWord?: string | undefined; areaId?: number | undefined },
    page?: { offset: number; limit: number },
  ) {
    const { rows, total } = await this.queries.rooms(this.db, { providerIds, ...f }, page);
    const counts = await this.queries.roomCounts(
      this.db,
      rows.map((r) => r.id),
    );
    return { rows: rows.map((r) => toRoom(r, counts.get(r.id))), total };
  }

  /** Beds of a room the caller sees. */
  async bedsOfRoom(caller: Caller, roomId: number): Promise<Bunk[]> {
    const room = await this.places.room(this.db, roomId);
    if (!room || !canSeeProvider(caller.scope, room.providerId)) throw notFound();
    return this.present((await this.queries.beds(this.db, { providerIds: [room.providerId], roomId })).rows);
  }

  async bedList(caller: Caller, q: BedListQuery) {
    const filter: BedFilter = {
      providerIds: this.providersFor(caller, q.providerId),
      keyWord: q.keyWord,
      areaId: q.areaId,
      roomId: q.roomId,
      free: q.free,
      hasDevice: q.hasDevice,
    };
    const { rows, total } = await this.queries.beds(this.db, filter, pageOf(q));
    return { rows: await this.present(rows), total };
  }

  async bedsByRoomName(caller: Caller, q: { roomName: string; areaId?: number | undefined }): Promise<Bunk[]> {
    const filter = { providerIds: this.providersFor(caller), roomName: q.roomName, areaId: q.areaId };
    return this.present((await this.queries.beds(this.db, filter)).rows);
  }

  /** Every bed of one provider by its path (case-insensitive names): imports name beds by path. */
  async bedsByPath(providerId: number, executor: Executor = this.db): Promise<Map<string, BedView>> {
    const { rows } = await this.queries.beds(executor, { providerIds: [providerId] });
    return new Map(rows.map((b) => [bedPathKey(b.areaName, b.floorName, b.roomName, b.name), b] as const));
  }

  /** One bed as the wire shows it (after a save). */
  async bed(id: number, executor: Executor = this.db): Promise<Bunk> {
    const [row] = (await this.queries.beds(executor, { providerIds: null, ids: [id] })).rows;
    if (!row) throw notFound();
    const [bunk] = await this.present([row], executor);
    if (!bunk) throw new Error('unreachable: one bed presented');
    return bunk;
  }

  /** Options of the bed forms and the area → floor → room → bed picker. */
  async configuration(
    caller: Caller,
    q: { providerId?: number | undefined; free?: boolean | undefined },
  ): Promise<Configuration> {
    const providerIds = this.providersFor(caller, q.providerId);
    const allAreas = await this.queries.allAreas(this.db, providerIds);
    const allRooms = await this.queries.allRooms(this.db, providerIds);
    const allBeds = (await this.queries.beds(this.db, { providerIds, free: q.free })).rows;
    const bedsByRoom = new Map<number, typeof allBeds>();
    for (const bed of allBeds) bedsByRoom.set(bed.roomId, [...(bedsByRoom.get(bed.roomId) ?? []), bed]);
    return {
      mattresses: [...MATTRESSES],
      deviceTypes: [...BED_DEVICE_TYPES],
      areas: allAreas
        .filter((a) => a.area.parentId === null)
        .map(({ area }) => ({
          id: area.id,
          name: area.name,
          providerId: area.providerId,
          floors: allAreas
            .filter((f) => f.area.parentId === area.id)
            .map(({ area: floor }) => ({
              id: floor.id,
              name: floor.name,
              rooms: allRooms
                .filter((r) => r.floorId === floor.id)
                .map((room) => ({
                  id: room.id,
                  name: room.name,
                  beds: (bedsByRoom.get(room.id) ?? []).map((b) => ({
                    id: b.id,
                    name: b.name,
                    mattress: mattressOf(b.mattress),
                    userId: b.userId,
                    userName: b.userName,
                    deviceId: b.deviceId,
                  })),
                })),
            })),
        })),
    };
  }

  /** Bed totals overall and per area. */
  async summary(caller: Caller, providerId?: number) {
    const rows = await this.queries.summaryByArea(this.db, this.providersFor(caller, providerId));
    const areas = rows.map((r) => ({ ...r, free: r.total - r.occupied }));
    const total = areas.reduce((n, a) => n + a.total, 0);
    const occupied = areas.reduce((n, a) => n + a.occupied, 0);
    const withDevice = areas.reduce((n, a) => n + a.withDevice, 0);
    return { total, occupied, free: total - occupied, withDevice, withoutDevice: total - withDevice, areas };
  }
}
