import { CONFIRM_MOVE_KEY, DEFAULT_LANGUAGE, Status, translate, type Language, type MessageKey } from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import type { Db, Executor, Tx } from '../../db/database.ts';
import type { Emit, Transactions, TransactOptions, Within } from '../../db/transactions.ts';
import { AppError, fail, notFound } from '../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../core/caller.ts';
import { scopeIds } from '../../core/tenant.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { DeviceMoves } from '../gateway/index.ts';
import { FacilityQueryRepository, type BedView } from './facility-query.repository.ts';
import { Replan, type ConstraintMessages } from './facility-tx.ts';
import { bedPath, checkedIn, checkedOut, isBedDeviceType, loggedOff, type ConflictKind } from './facility.policy.ts';
import { OccupancyRepository, type DeviceRef, type ResidentRef } from './occupancy.repository.ts';
import { PlaceRepository, type BedRow } from './place.repository.ts';

/** Who is acting: the caller, their address (audit) and language (the confirmation text). */
export interface Actor {
  caller: Caller;
  ip: string;
  lang?: Language | undefined;
}

/** A change of what occupies one bed. `undefined` keeps a link, `null` clears it. */
export interface LinkChange {
  bedId: number;
  /** Device ID (plaintext, case-insensitive) of a bed-capable device of the bed's provider. */
  deviceCode?: string | null | undefined;
  /** Resident to check in to the bed; null checks the current resident out. */
  residentId?: number | null | undefined;
  /** Move a device or resident linked elsewhere, and check out a different current occupant. */
  confirm: boolean;
}

export interface LinkOutcome {
  bedId: number;
  changed: boolean;
  /** The bed the device was taken from. */
  deviceMovedFrom: number | null;
  /** The bed the resident was taken from. */
  residentMovedFrom: number | null;
  /** The previous occupant, checked out by this change. */
  checkedOutResident: number | null;
}

export interface Conflict {
  kind: ConflictKind;
  bunkId: number;
  bunkPath: string;
  deviceId: string | null;
  userId: number | null;
  userName: string | null;
}

/** One row of a batch check-in (resident import): a resident and the bed they go to. */
export interface CheckInRow {
  residentId: number;
  bedId: number;
}

export interface RowProblem {
  index: number;
  field: string;
  msgKey: MessageKey;
  params: Record<string, string | number>;
}

/** Races the row locks cannot rule out (another writer bypassing this service) become messages. */
export const LINK_CONSTRAINTS: ConstraintMessages = {
  bed_device_unique: 'bed.deviceTaken',
  bed_resident_unique: 'bed.residentTaken',
};

/** How occupancy changes run: retried on lock races, 'facility.busy' when the retries run out. */
const LINKING: TransactOptions = { constraints: LINK_CONSTRAINTS, busy: 'facility.busy' };
const OCCUPANCY: TransactOptions = { busy: 'facility.busy' };

const ids = (values: readonly (number | null | undefined)[]): number[] =>
  [...new Set(values.filter((v): v is number => typeof v === 'number'))].sort((a, b) => a - b);

/**
 * Occupancy of beds and the resident lifecycle (registered → checked in → checked out → logged off
 * → checked in again). The only writer of bed.device_id, bed.resident_id and the resident columns
 * state, room_id, admitted_at, checked_out_at and logged_off_at.
 *
 * Every change locks in one order — resident rows (id order), then devices (advisory locks, id
 * order), then bed rows (id order) — and re-reads under the locks; if the plan went stale it
 * runs again. Methods take an optional `within`: inside another module's transaction they run in
 * a savepoint of it. Every change of a bed's device or resident is announced (`moves`) in its
 * transaction: the device directories stamp the devices' next messages with where they are now.
 */
export class OccupancyService {
  private readonly repo = new OccupancyRepository();
  private readonly places = new PlaceRepository();
  private readonly queries = new FacilityQueryRepository();

  constructor(
    private readonly db: Db,
    private readonly transactions: Transactions,
    private readonly moves: DeviceMoves,
    private readonly clock: Clock,
    private readonly audit: AuditService,
  ) {}

  /** Links or unlinks a device and/or a resident on a bed (a bed save). */
  link(actor: Actor, change: LinkChange, within?: Within): Promise<LinkOutcome> {
    return this.transactions.runWithin(within, (tx, emit) => this.linkIn(tx, emit, actor, change), LINKING);
  }

  /** Checks a resident in to a bed (registered, checked-out or logged-off; a checked-in one moves). */
  checkIn(
    actor: Actor,
    input: { residentId: number; bedId: number; confirm: boolean },
    within?: Within,
  ): Promise<LinkOutcome> {
    return this.link(actor, { bedId: input.bedId, residentId: input.residentId, confirm: input.confirm }, within);
  }

  /** Checks a resident out: bed emptied, state checkedOut, checked_out_at now; data and room address kept. */
  async checkOut(actor: Actor, residentId: number, within?: Within): Promise<{ bedId: number }> {
    return this.transactions.runWithin(
      within,
      async (tx, emit) => {
        await this.visibleResident(tx, actor.caller, residentId);
        const resident = (await this.repo.lockResidents(tx, [residentId])).get(residentId);
        if (!resident) throw notFound();
        // Under the resident's lock nobody else can move them: the bed they are in is settled.
        const holder = await this.repo.bedOfResident(tx, resident.id);
        if (!holder) throw fail('resident.notCheckedIn');
        const locked = (await this.repo.lockBeds(tx, [holder.id])).get(holder.id);
        if (locked?.residentId !== resident.id) throw new Replan();
        const now = this.clock.now();
        await this.repo.setBed(tx, holder.id, { residentId: null, updatedAt: now });
        await this.repo.setOccupancy(tx, resident.id, checkedOut(resident, now), now);
        await this.record(tx, actor, 'resident.checkOut', resident, { bedId: holder.id });
        await this.moves.record(tx, emit, { bedIds: [holder.id], residentIds: [resident.id] });
        return { bedId: holder.id };
      },
      OCCUPANCY,
    );
  }

  /**
   * Logs a resident off: a bed they are in is emptied (and they are checked out), the address link
   * (room) is cleared, state loggedOff; the record and its data are kept. Logging off twice is a no-op.
   * The residents module calls this from its delete/log-off call.
   */
  async logOff(actor: Actor, residentId: number, within?: Within): Promise<void> {
    await this.transactions.runWithin(
      within,
      async (tx, emit) => {
        await this.visibleResident(tx, actor.caller, residentId);
        const resident = (await this.repo.lockResidents(tx, [residentId])).get(residentId);
        if (!resident) throw notFound();
        if (resident.state === 'loggedOff') return;
        const holder = await this.repo.bedOfResident(tx, resident.id);
        const now = this.clock.now();
        if (holder) {
          await this.repo.lockBeds(tx, [holder.id]);
          await this.repo.setBed(tx, holder.id, { residentId: null, updatedAt: now });
        }
        await this.repo.setOccupancy(tx, resident.id, loggedOff(resident, now), now);
        await this.record(tx, actor, 'resident.logOff', resident, { bedId: holder?.id ?? null });
        await this.moves.record(tx, emit, { bedIds: [holder?.id], residentIds: [resident.id] });
      },
      OCCUPANCY,
    );
  }

  /**
   * Removes a device from whatever bed holds it (the devices module calls this before a device
   * changes provider). Returns the bed it was taken from. No tenancy check: the caller owns the device.
   */
  async unlinkDevice(deviceRowId: number, within?: Within): Promise<number | null> {
    return this.transactions.runWithin(
      within,
      async (tx, emit) => {
        await this.repo.lockDevices(tx, [deviceRowId]);
        const holder = await this.repo.bedOfDevice(tx, deviceRowId);
        if (!holder) return null;
        await this.repo.lockBeds(tx, [holder.id]);
        await this.repo.setBed(tx, holder.id, { deviceId: null, updatedAt: this.clock.now() });
        await this.moves.record(tx, emit, { deviceRowIds: [deviceRowId] });
        return holder.id;
      },
      OCCUPANCY,
    );
  }

  /**
   * Checks many residents in without confirmations (imports): each row runs in its own savepoint of
   * `tx`; a row that would move someone, displace an occupant or break a rule is reported, not applied.
   * The caller decides whether to keep the applied rows or roll back its transaction.
   */
  async checkInMany(actor: Actor, rows: readonly CheckInRow[], within: Within): Promise<RowProblem[]> {
    const problems: RowProblem[] = [];
    const beds = new Map<number, number>();
    for (const [index, row] of rows.entries()) {
      const first = beds.get(row.bedId);
      if (first !== undefined) {
        problems.push({ index, field: 'bed', msgKey: 'facility.duplicateInList', params: { names: `#${first + 1}` } });
        continue;
      }
      beds.set(row.bedId, index);
      try {
        await this.link(actor, { bedId: row.bedId, residentId: row.residentId, confirm: false }, within);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        problems.push({ index, field: 'bed', msgKey: error.key, params: { ...error.params } });
      }
    }
    return problems;
  }

  /** Where residents are: resident id → their bed with its path (residents not in a bed are absent). */
  async bedsOfResidents(residentIds: readonly number[], executor: Executor = this.db): Promise<Map<number, BedView>> {
    const found = await this.repo.bedsOfResidents(executor, residentIds);
    const { rows } = await this.queries.beds(executor, { providerIds: null, ids: found.map((b) => b.id) });
    return new Map(rows.filter((r) => r.userId !== null).map((r) => [r.userId as number, r]));
  }

  /** Where devices are: device row id → their bed with its path. */
  async bedsOfDevices(deviceRowIds: readonly number[], executor: Executor = this.db): Promise<Map<number, BedView>> {
    const found = await this.repo.bedsOfDevices(executor, deviceRowIds);
    const { rows } = await this.queries.beds(executor, { providerIds: null, ids: found.map((b) => b.id) });
    return new Map(rows.filter((r) => r.deviceRowId !== null).map((r) => [r.deviceRowId as number, r]));
  }

  /**
   * The core of every bed change; runs inside `transact` (which retries on Replan). Validates,
   * locks, asks for confirmation when something would move or be displaced, then writes, and
   * announces the devices whose bed or resident changed.
   */
  async linkIn(tx: Tx, emit: Emit, actor: Actor, change: LinkChange): Promise<LinkOutcome> {
    const { caller } = actor;
    const bed0 = await this.places.bed(tx, change.bedId);
    if (!bed0 || !canSeeProvider(caller.scope, bed0.providerId)) throw notFound();

    let device: DeviceRef | null | undefined;
    if (change.deviceCode === null) device = null;
    else if (change.deviceCode !== undefined) device = await this.resolveDevice(tx, caller, bed0, change.deviceCode);
    let resident: ResidentRef | null | undefined;
    if (change.residentId === null) resident = null;
    else if (change.residentId !== undefined) {
      resident = await this.visibleResident(tx, caller, change.residentId);
      if (resident.providerId !== bed0.providerId) throw fail('bed.residentOtherProvider');
    }
    const deviceChanges = device !== undefined && (device?.id ?? null) !== bed0.deviceId;
    const residentChanges = resident !== undefined && (resident?.id ?? null) !== bed0.residentId;
    const outcome: LinkOutcome = {
      bedId: bed0.id,
      changed: deviceChanges || residentChanges,
      deviceMovedFrom: null,
      residentMovedFrom: null,
      checkedOutResident: null,
    };
    if (!outcome.changed) return outcome;

    // Locks: residents, then devices, then beds, each in id order.
    const lockedResidents = await this.repo.lockResidents(
      tx,
      residentChanges ? ids([resident?.id, bed0.residentId]) : [],
    );
    await this.repo.lockDevices(tx, deviceChanges ? ids([device?.id, bed0.deviceId]) : []);
    // Under those locks nobody else can move this resident or device: where they are is settled.
    const residentHolder = residentChanges && resident ? await this.repo.bedOfResident(tx, resident.id) : undefined;
    const deviceHolder = deviceChanges && device ? await this.repo.bedOfDevice(tx, device.id) : undefined;
    const lockedBeds = await this.repo.lockBeds(tx, ids([bed0.id, residentHolder?.id, deviceHolder?.id]));
    const bed = lockedBeds.get(bed0.id);
    if (!bed) throw notFound();
    // The bed itself may have changed between the first read and its lock: plan again.
    if (bed.residentId !== bed0.residentId || bed.deviceId !== bed0.deviceId) throw new Replan();
    const freshResident = residentChanges && resident ? lockedResidents.get(resident.id) : undefined;
    if (residentChanges && resident && !freshResident) throw notFound();

    const conflicts: Omit<Conflict, 'bunkPath'>[] = [];
    const base = { deviceId: null, userId: null, userName: null };
    if (device && deviceHolder && deviceHolder.id !== bed.id) {
      conflicts.push({ ...base, kind: 'device', bunkId: deviceHolder.id, deviceId: device.deviceId });
    }
    if (resident && residentHolder && residentHolder.id !== bed.id) {
      conflicts.push({
        ...base,
        kind: 'resident',
        bunkId: residentHolder.id,
        userId: resident.id,
        userName: resident.name,
      });
    }
    const occupant =
      residentChanges && resident && bed.residentId !== null ? lockedResidents.get(bed.residentId) : undefined;
    if (occupant) {
      conflicts.push({ ...base, kind: 'occupant', bunkId: bed.id, userId: occupant.id, userName: occupant.name });
    }
    if (conflicts.length && !change.confirm) throw await this.confirmation(tx, actor, conflicts);

    const now = this.clock.now();
    if (deviceChanges) {
      if (device && deviceHolder && deviceHolder.id !== bed.id) {
        await this.repo.setBed(tx, deviceHolder.id, { deviceId: null, updatedAt: now });
        outcome.deviceMovedFrom = deviceHolder.id;
      }
      await this.repo.setBed(tx, bed.id, { deviceId: device?.id ?? null, updatedAt: now });
      const previous = bed.deviceId === null ? null : ((await this.repo.deviceCode(tx, bed.deviceId)) ?? null);
      await this.record(tx, actor, 'bed.device', bed, {
        device: device?.deviceId ?? null,
        previousDevice: previous,
        fromBed: outcome.deviceMovedFrom,
      });
    }
    if (residentChanges) {
      if (resident && residentHolder && residentHolder.id !== bed.id) {
        await this.repo.setBed(tx, residentHolder.id, { residentId: null, updatedAt: now });
        outcome.residentMovedFrom = residentHolder.id;
      }
      await this.repo.setBed(tx, bed.id, { residentId: resident?.id ?? null, updatedAt: now });
      const previous = bed.residentId === null ? undefined : lockedResidents.get(bed.residentId);
      if (previous) {
        await this.repo.setOccupancy(tx, previous.id, checkedOut(previous, now), now);
        outcome.checkedOutResident = previous.id;
        await this.record(tx, actor, 'resident.checkOut', previous, { bedId: bed.id });
      }
      if (resident && freshResident) {
        const moving = outcome.residentMovedFrom !== null;
        await this.repo.setOccupancy(tx, resident.id, checkedIn(freshResident, bed.roomId, now, moving), now);
        await this.record(tx, actor, 'resident.checkIn', resident, {
          bedId: bed.id,
          fromBed: outcome.residentMovedFrom,
        });
      }
    }
    // The bed's device before and after, and the device of the bed a resident was taken from.
    // Residents moved also move what is placed at their beds and what they wear (decision 0046).
    await this.moves.record(tx, emit, {
      deviceRowIds: [bed.deviceId, deviceChanges ? device?.id : null, residentHolder?.deviceId],
      ...(residentChanges ? { bedIds: [bed.id, residentHolder?.id], residentIds: [resident?.id, bed.residentId] } : {}),
    });
    return outcome;
  }

  private async resolveDevice(tx: Tx, caller: Caller, bed: BedRow, code: string): Promise<DeviceRef> {
    const device = await this.repo.deviceByCode(tx, code, scopeIds(caller.scope));
    if (!device) throw fail('bed.deviceNotFound');
    if (device.providerId !== bed.providerId) throw fail('bed.deviceOtherProvider', { device: device.deviceId });
    if (!isBedDeviceType(device.typeCode)) throw fail('bed.deviceType', { device: device.deviceId });
    return device;
  }

  private async visibleResident(tx: Executor, caller: Caller, id: number): Promise<ResidentRef> {
    const resident = await this.repo.resident(tx, id);
    if (!resident || !canSeeProvider(caller.scope, resident.providerId)) throw notFound();
    return resident;
  }

  /** The confirm-move failure: nothing written; data lists every conflict with the bed it concerns. */
  private async confirmation(tx: Tx, actor: Actor, found: Omit<Conflict, 'bunkPath'>[]): Promise<AppError> {
    const { rows } = await this.queries.beds(tx, { providerIds: null, ids: found.map((c) => c.bunkId) });
    const byId = new Map(rows.map((r) => [r.id, r]));
    const conflicts: Conflict[] = found.map((c) => {
      const view = byId.get(c.bunkId);
      // A bed of a provider the caller cannot see (a stale link) is never named.
      const visible = view && canSeeProvider(actor.caller.scope, view.providerId);
      return { ...c, bunkPath: visible ? bedPath(view) : '—' };
    });
    const lang = actor.lang ?? DEFAULT_LANGUAGE;
    const details = conflicts
      .map((c) =>
        translate(lang, `bed.conflict.${c.kind}`, {
          device: c.deviceId ?? '',
          resident: c.userName ?? '',
          bed: c.bunkPath,
        }),
      )
      .join(lang === 'zh-CN' ? '；' : '; ');
    return new AppError(Status.FAILED, CONFIRM_MOVE_KEY as MessageKey, { details }, 200, {
      confirmRequired: true,
      conflicts,
    });
  }

  private async record(
    tx: Executor,
    actor: Actor,
    action: string,
    target: { id: number; providerId: number },
    detail: Record<string, unknown>,
  ): Promise<void> {
    const type = action.startsWith('resident.') ? 'resident' : 'bed';
    await this.audit.byCaller(
      actor.caller,
      actor.ip,
      action,
      { type, id: target.id, providerId: target.providerId, detail },
      tx,
    );
  }
}
