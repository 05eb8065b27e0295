import { PLACE_NAME_MAX, Status, type Bunk, type Mattress } from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import type { Db, Executor, Tx } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import { AppError, fail, notFound } from '../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../core/caller.ts';
import { targetProvider } from '../../core/tenant.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { FacilityViewService } from './facility-view.service.ts';
import { transact } from './facility-tx.ts';
import { nameKey, parseNameList, refusal, type NameList, type NameProblem } from './facility.policy.ts';
import { LINK_CONSTRAINTS, type Actor, type OccupancyService, type RowProblem } from './occupancy.service.ts';
import { PlaceRepository, type AreaRow, type BedRow, type RoomRow } from './place.repository.ts';

/** Whether providers exist and are live (the providers module answers). */
export type ProviderCheck = (ids: readonly number[], tx: Executor) => Promise<boolean>;

export interface BedEdit {
  id: number;
  name?: string | undefined;
  mattress?: Mattress | undefined;
  remark?: string | null | undefined;
  deviceCode?: string | null | undefined;
  residentId?: number | null | undefined;
  confirm: boolean;
}

/** One row of a bed import: the path of a new bed; missing areas, floors and rooms are created. */
export interface BedImportRow {
  area: string;
  floor: string;
  room: string;
  bed: string;
  mattress?: Mattress | undefined;
}

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const FORBIDDEN = /[,，\u0000-\u001f\u007f]/;

/** A list refused as a whole: the message of its first problem, every problem in data. */
const listFailure = (list: Extract<NameList, { ok: false }>): AppError =>
  new AppError(Status.FAILED, list.key, list.params, 200, list.problems.length ? { problems: list.problems } : null);

const parsed = (raw: string): string[] => {
  const list = parseNameList(raw);
  if (!list.ok) throw listFailure(list);
  return list.names;
};

/** Names already taken, as problems at their positions in the list. */
const takenProblems = (names: readonly string[], taken: readonly string[], msgKey: 'room.exists' | 'bed.exists') => {
  const keys = new Set(taken.map(nameKey));
  return names.flatMap((name, index): NameProblem[] => (keys.has(nameKey(name)) ? [{ index, name, msgKey }] : []));
};

/** Ids of inserted rows in the order of the names (matched by name, not by RETURNING order). */
const idsInOrder = (names: readonly string[], rows: readonly { id: number; name: string }[]): number[] => {
  const byName = new Map(rows.map((r) => [nameKey(r.name), r.id]));
  return names.map((n) => byName.get(nameKey(n)) ?? 0);
};

/** Areas/buildings, floors/units, rooms and beds: create, rename, delete, with the hierarchy's rules. */
export class PlaceService {
  private readonly repo = new PlaceRepository();

  constructor(
    private readonly db: Db,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly occupancy: OccupancyService,
    private readonly view: FacilityViewService,
    private readonly providersExist: ProviderCheck,
  ) {}

  // --- Areas and floors ----------------------------------------------------------------------

  async createArea(
    actor: Actor,
    input: {
      name: string;
      areaId?: number | undefined;
      providerId?: number | undefined;
      sort?: number | undefined;
      remark?: string | undefined;
    },
  ): Promise<{ id: number }> {
    const exists = input.areaId === undefined ? 'area.exists' : 'floor.exists';
    return transact(
      this.db,
      async (tx) => {
        let providerId: number;
        let parentId: number | null = null;
        if (input.areaId !== undefined) {
          const parent = await this.visibleArea(tx, actor.caller, input.areaId);
          if (parent.parentId !== null) throw fail('area.parentNotArea');
          providerId = parent.providerId;
          parentId = parent.id;
        } else {
          providerId = targetProvider(actor.caller, input.providerId);
          if (!(await this.providersExist([providerId], tx))) throw notFound();
        }
        if (await this.repo.areaNameTaken(tx, providerId, parentId, input.name))
          throw fail(exists, { name: input.name });
        const now = this.clock.now();
        const row = await this.repo.insertArea(tx, {
          providerId,
          parentId,
          name: input.name,
          sort: input.sort ?? 0,
          remark: input.remark ?? null,
          createdAt: now,
          updatedAt: now,
        });
        await this.record(tx, actor, parentId === null ? 'area.create' : 'floor.create', 'area', row, {
          name: row.name,
        });
        return { id: row.id };
      },
      {
        area_name_unique: [exists, { name: input.name }],
        area_parent_fk: 'not_found',
        area_provider_id_provider_id_fk: 'not_found',
      },
    );
  }

  async updateArea(
    actor: Actor,
    input: { id: number; name?: string | undefined; sort?: number | undefined; remark?: string | null | undefined },
  ): Promise<void> {
    let exists: 'area.exists' | 'floor.exists' = 'area.exists';
    await transact(
      this.db,
      async (tx) => {
        const area = await this.visibleArea(tx, actor.caller, input.id, true);
        exists = area.parentId === null ? 'area.exists' : 'floor.exists';
        if (
          input.name !== undefined &&
          (await this.repo.areaNameTaken(tx, area.providerId, area.parentId, input.name, area.id))
        ) {
          throw fail(exists, { name: input.name });
        }
        await this.repo.updateArea(tx, area.id, {
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.sort === undefined ? {} : { sort: input.sort }),
          ...(input.remark === undefined ? {} : { remark: input.remark }),
          updatedAt: this.clock.now(),
        });
        const action = area.parentId === null ? 'area.update' : 'floor.update';
        await this.record(tx, actor, action, 'area', area, { name: input.name ?? area.name, previousName: area.name });
      },
      { area_name_unique: [exists, { name: input.name ?? '' }] },
    );
  }

  /** An area without floors or a floor without rooms. */
  async deleteArea(actor: Actor, id: number): Promise<void> {
    await transact(
      this.db,
      async (tx) => {
        const area = await this.visibleArea(tx, actor.caller, id, true);
        if (area.parentId === null) {
          if ((await this.repo.floorCount(tx, area.id)) > 0) throw fail('area.hasFloors');
        } else if ((await this.repo.roomCount(tx, area.id)) > 0) throw fail('floor.hasRooms');
        await this.repo.deleteArea(tx, area.id);
        await this.record(tx, actor, area.parentId === null ? 'area.delete' : 'floor.delete', 'area', area, {
          name: area.name,
        });
      },
      { area_parent_fk: 'area.hasFloors', room_floor_id_area_id_fk: 'floor.hasRooms' },
    );
  }

  // --- Rooms -----------------------------------------------------------------------------------

  /** Adds the rooms of a comma-separated list to a floor, all or none. */
  async createRooms(actor: Actor, input: { floorId: number; name: string; remark?: string | undefined }) {
    const names = parsed(input.name);
    return transact(this.db, (tx) => this.addRooms(tx, actor, input.floorId, names, input.remark), {
      room_name_unique: ['room.exists', { names: names.join(', ') }],
      room_floor_id_area_id_fk: 'not_found',
    });
  }

  /** Adds validated, distinct room names to a floor inside `tx`; refuses the whole list when a name is taken. */
  async addRooms(tx: Executor, actor: Actor, floorId: number, names: readonly string[], remark?: string) {
    const floor = await this.visibleArea(tx, actor.caller, floorId);
    if (floor.parentId === null) throw fail('room.floorRequired');
    const problems = takenProblems(names, await this.repo.roomNamesTaken(tx, floor.id, names), 'room.exists');
    if (problems.length) throw listFailure(refusal(problems));
    const now = this.clock.now();
    const rows = await this.repo.insertRooms(
      tx,
      names.map((name) => ({
        providerId: floor.providerId,
        floorId: floor.id,
        name,
        remark: remark ?? null,
        createdAt: now,
        updatedAt: now,
      })),
    );
    await this.record(tx, actor, 'room.create', 'area', floor, { rooms: names });
    return { ids: idsInOrder(names, rows) };
  }

  async updateRoom(
    actor: Actor,
    input: { id: number; name?: string | undefined; floorId?: number | undefined; remark?: string | null | undefined },
  ): Promise<void> {
    await transact(
      this.db,
      async (tx) => {
        const room = await this.visibleRoom(tx, actor.caller, input.id, true);
        let floorId = room.floorId;
        if (input.floorId !== undefined && input.floorId !== room.floorId) {
          const floor = await this.visibleArea(tx, actor.caller, input.floorId);
          if (floor.parentId === null) throw fail('room.floorRequired');
          if (floor.providerId !== room.providerId) throw fail('room.floorOtherProvider');
          floorId = floor.id;
        }
        const name = input.name ?? room.name;
        if ((await this.repo.roomNamesTaken(tx, floorId, [name], room.id)).length)
          throw fail('room.exists', { names: name });
        await this.repo.updateRoom(tx, room.id, {
          name,
          floorId,
          ...(input.remark === undefined ? {} : { remark: input.remark }),
          updatedAt: this.clock.now(),
        });
        await this.record(tx, actor, 'room.update', 'room', room, {
          name,
          previousName: room.name,
          floorId,
          previousFloorId: room.floorId,
        });
      },
      { room_name_unique: ['room.exists', { names: input.name ?? '' }], room_floor_id_area_id_fk: 'not_found' },
    );
  }

  /** A room without beds that is nobody's address. */
  async deleteRoom(actor: Actor, id: number): Promise<void> {
    await transact(
      this.db,
      async (tx) => {
        const room = await this.visibleRoom(tx, actor.caller, id, true);
        if ((await this.repo.bedCount(tx, room.id)) > 0) throw fail('room.hasBeds');
        if ((await this.repo.addressCount(tx, room.id)) > 0) throw fail('room.hasResidents');
        await this.repo.deleteRoom(tx, room.id);
        await this.record(tx, actor, 'room.delete', 'room', room, { name: room.name });
      },
      { bed_room_id_room_id_fk: 'room.hasBeds', resident_room_id_room_id_fk: 'room.hasResidents' },
    );
  }

  // --- Beds ------------------------------------------------------------------------------------

  /** Adds the beds of a comma-separated list to a room, all or none. */
  async createBeds(
    actor: Actor,
    input: { roomId: number; name: string; mattress: Mattress; remark?: string | undefined },
  ) {
    const names = parsed(input.name);
    return transact(this.db, (tx) => this.addBeds(tx, actor, input.roomId, names, input.mattress, input.remark), {
      bed_name_unique: ['bed.exists', { names: names.join(', ') }],
      bed_room_id_room_id_fk: 'not_found',
    });
  }

  /** Adds validated, distinct bed names to a room inside `tx`; refuses the whole list when a name is taken. */
  async addBeds(
    tx: Executor,
    actor: Actor,
    roomId: number,
    names: readonly string[],
    mattress: Mattress,
    remark?: string,
  ) {
    const room = await this.visibleRoom(tx, actor.caller, roomId);
    const problems = takenProblems(names, await this.repo.bedNamesTaken(tx, room.id, names), 'bed.exists');
    if (problems.length) throw listFailure(refusal(problems));
    const now = this.clock.now();
    const rows = await this.repo.insertBeds(
      tx,
      names.map((name) => ({
        providerId: room.providerId,
        roomId: room.id,
        name,
        mattress,
        remark: remark ?? null,
        createdAt: now,
        updatedAt: now,
      })),
    );
    await this.record(tx, actor, 'bed.create', 'room', room, { beds: names });
    return { ids: idsInOrder(names, rows) };
  }

  /** Saves a bed: name, mattress, remark, and its device and resident (moves need confirmation). */
  async updateBed(actor: Actor, input: BedEdit): Promise<Bunk> {
    await this.transactions.run(
      async (tx, emit) => {
        await this.occupancy.linkIn(tx, emit, actor, {
          bedId: input.id,
          deviceCode: input.deviceCode,
          residentId: input.residentId,
          confirm: input.confirm,
        });
        if (input.name === undefined && input.mattress === undefined && input.remark === undefined) return;
        const bed = await this.visibleBed(tx, actor.caller, input.id, true);
        if (input.name !== undefined && (await this.repo.bedNamesTaken(tx, bed.roomId, [input.name], bed.id)).length) {
          throw fail('bed.exists', { names: input.name });
        }
        await this.repo.updateBed(tx, bed.id, {
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.mattress === undefined ? {} : { mattress: input.mattress }),
          ...(input.remark === undefined ? {} : { remark: input.remark }),
          updatedAt: this.clock.now(),
        });
        await this.record(tx, actor, 'bed.update', 'bed', bed, {
          name: input.name ?? bed.name,
          previousName: bed.name,
        });
      },
      {
        constraints: { ...LINK_CONSTRAINTS, bed_name_unique: ['bed.exists', { names: input.name ?? '' }] },
        busy: 'facility.busy',
      },
    );
    return this.view.bed(input.id);
  }

  /** A bed without a resident or a device. */
  async deleteBed(actor: Actor, id: number): Promise<void> {
    await transact(this.db, async (tx) => {
      const bed = await this.visibleBed(tx, actor.caller, id, true);
      if (bed.residentId !== null || bed.deviceId !== null) {
        const view = await this.view.bed(bed.id, tx);
        if (bed.residentId !== null) throw fail('bed.hasResident', { resident: view.userName ?? '' });
        throw fail('bed.hasDevice', { device: view.deviceId ?? '' });
      }
      await this.repo.deleteBed(tx, bed.id);
      await this.record(tx, actor, 'bed.delete', 'bed', bed, { name: bed.name });
    });
  }

  // --- Imports ---------------------------------------------------------------------------------

  /**
   * Creates beds from import rows inside `tx` (a savepoint of it): areas, floors and rooms are
   * found by name (case-insensitive) or created. Every bad row is reported (field, message key)
   * and then nothing is written; otherwise the new bed ids come back in row order.
   */
  async importBeds(
    actor: Actor,
    input: { providerId?: number | undefined; rows: readonly BedImportRow[] },
    tx: Executor,
  ): Promise<{ problems: RowProblem[]; bedIds: number[] }> {
    const providerId = targetProvider(actor.caller, input.providerId);
    return transact(tx, async (t) => {
      const problems = this.checkImportNames(input.rows);
      const seen = new Map<string, number>();
      input.rows.forEach((row, index) => {
        const key = [row.area, row.floor, row.room, row.bed].map(nameKey).join('\u0000');
        const first = seen.get(key);
        if (first !== undefined) {
          problems.push({ index, field: 'bed', msgKey: 'facility.duplicateInList', params: { names: row.bed } });
        } else seen.set(key, index);
      });
      // Every row is checked before anything is written, so the user hears of every bad row at once.
      const tree = await this.loadTree(t, providerId);
      input.rows.forEach((row, index) => {
        if (tree.bed(row)) problems.push({ index, field: 'bed', msgKey: 'bed.exists', params: { names: row.bed } });
      });
      if (problems.length) return { problems: problems.sort((a, b) => a.index - b.index), bedIds: [] };
      const bedIds: number[] = [];
      const now = this.clock.now();
      for (const row of input.rows) {
        const area =
          tree.area(row) ??
          tree.addArea(
            await this.repo.insertArea(t, {
              providerId,
              parentId: null,
              name: row.area.trim(),
              createdAt: now,
              updatedAt: now,
            }),
          );
        const floor =
          tree.floor(row) ??
          tree.addFloor(
            await this.repo.insertArea(t, {
              providerId,
              parentId: area.id,
              name: row.floor.trim(),
              createdAt: now,
              updatedAt: now,
            }),
          );
        const room =
          tree.room(row) ??
          tree.addRoom(
            (
              await this.repo.insertRooms(t, [
                { providerId, floorId: floor.id, name: row.room.trim(), createdAt: now, updatedAt: now },
              ])
            )[0],
          );
        const [bed] = await this.repo.insertBeds(t, [
          {
            providerId,
            roomId: room.id,
            name: row.bed.trim(),
            mattress: row.mattress ?? 'sponge',
            createdAt: now,
            updatedAt: now,
          },
        ]);
        if (!bed) throw new Error('bed insert returned nothing');
        bedIds.push(bed.id);
      }
      await this.audit.byCaller(
        actor.caller,
        actor.ip,
        'bed.import',
        { type: 'provider', id: providerId, providerId, detail: { beds: bedIds.length } },
        t,
      );
      return { problems: [], bedIds };
    });
  }

  private checkImportNames(rows: readonly BedImportRow[]): RowProblem[] {
    const problems: RowProblem[] = [];
    rows.forEach((row, index) => {
      for (const field of ['area', 'floor', 'room', 'bed'] as const) {
        const value = row[field].trim();
        if (!value) problems.push({ index, field, msgKey: 'validation.required', params: { field } });
        else if (value.length > PLACE_NAME_MAX)
          problems.push({
            index,
            field,
            msgKey: 'facility.nameTooLong',
            params: { names: value, max: PLACE_NAME_MAX },
          });
        else if (FORBIDDEN.test(value))
          problems.push({ index, field, msgKey: 'facility.nameChars', params: { field } });
      }
    });
    return problems;
  }

  /** The provider's existing areas, floors, rooms and beds, looked up by lower-case name. */
  private async loadTree(tx: Executor, providerId: number) {
    const k = (...parts: (string | number)[]) =>
      parts.map((p) => (typeof p === 'string' ? nameKey(p) : p)).join('\u0000');
    const areas = new Map<string, AreaRow>();
    const floors = new Map<string, AreaRow>();
    const rooms = new Map<string, RoomRow>();
    const beds = new Map<string, BedRow>();
    for (const a of await this.repo.areasNamed(tx, providerId, [null])) areas.set(k(a.name), a);
    const areaIds = [...areas.values()].map((a) => a.id);
    for (const f of await this.repo.areasNamed(tx, providerId, areaIds)) floors.set(k(f.parentId ?? 0, f.name), f);
    for (const r of await this.repo.roomsOfFloors(
      tx,
      [...floors.values()].map((f) => f.id),
    ))
      rooms.set(k(r.floorId, r.name), r);
    for (const b of await this.repo.bedsOfRooms(
      tx,
      [...rooms.values()].map((r) => r.id),
    ))
      beds.set(k(b.roomId, b.name), b);
    const tree = {
      area: (row: BedImportRow) => areas.get(k(row.area)),
      floor: (row: BedImportRow) => {
        const area = tree.area(row);
        return area && floors.get(k(area.id, row.floor));
      },
      room: (row: BedImportRow) => {
        const floor = tree.floor(row);
        return floor && rooms.get(k(floor.id, row.room));
      },
      bed: (row: BedImportRow) => {
        const room = tree.room(row);
        return room && beds.get(k(room.id, row.bed));
      },
      addArea: (a: AreaRow) => (areas.set(k(a.name), a), a),
      addFloor: (f: AreaRow) => (floors.set(k(f.parentId ?? 0, f.name), f), f),
      addRoom: (r: RoomRow | undefined) => {
        if (!r) throw new Error('room insert returned nothing');
        rooms.set(k(r.floorId, r.name), r);
        return r;
      },
    };
    return tree;
  }

  // --- Helpers ---------------------------------------------------------------------------------

  private async visibleArea(tx: Executor, caller: Caller, id: number, lock = false): Promise<AreaRow> {
    const row = await this.repo.area(tx, id, lock);
    if (!row || !canSeeProvider(caller.scope, row.providerId)) throw notFound();
    return row;
  }

  private async visibleRoom(tx: Executor, caller: Caller, id: number, lock = false): Promise<RoomRow> {
    const row = await this.repo.room(tx, id, lock);
    if (!row || !canSeeProvider(caller.scope, row.providerId)) throw notFound();
    return row;
  }

  private async visibleBed(tx: Executor | Tx, caller: Caller, id: number, lock = false): Promise<BedRow> {
    const row = await this.repo.bed(tx, id, lock);
    if (!row || !canSeeProvider(caller.scope, row.providerId)) throw notFound();
    return row;
  }

  private async record(
    tx: Executor,
    actor: Actor,
    action: string,
    type: string,
    target: { id: number; providerId: number },
    detail: Record<string, unknown>,
  ): Promise<void> {
    await this.audit.byCaller(
      actor.caller,
      actor.ip,
      action,
      { type, id: target.id, providerId: target.providerId, detail },
      tx,
    );
  }
}
