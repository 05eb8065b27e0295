import {
  type UpgradeState,
  CONSTANTS,
  DEVICE_GROUP_NAMES,
  DEVICE_TYPES,
  DeviceAddInputSchema,
  deviceGroupOf,
  isPlatformRole,
  type DeviceCommMode,
  type DeviceGroup,
  type DevicePlaceInput,
  type DeviceKind,
} from '@vigil/contract';
import { z } from 'zod';
import type { Clock } from '../../clock.ts';
import type { Db, Executor } from '../../db/database.ts';
import { transactWithin, type Transactions, type Within } from '../../db/transactions.ts';
import { AppError, fail, notFound } from '../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../core/caller.ts';
import { listScope, scopeIds, targetProvider } from '../../core/tenant.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import type { AnyCommand, CommandService } from './command.service.ts';
import { assertNotOnBed, visibleDevice } from './device-access.ts';
import {
  canPairUnderGateway,
  codesOfGroup,
  defaultCommMode,
  firmwareMatches,
  gatewayHasRoom,
  groupOfCode,
  isGatewayHost,
  kindOf,
  typeOf,
} from './device.policy.ts';
import { DeviceRepository, type DeviceListRecord, type DeviceRecord } from './device.repository.ts';
import type { DeviceState } from './device-state.ts';
import { storedReport, type DeviceStates } from './device-state.service.ts';
import type { DeviceMoves } from '../gateway/index.ts';
import { problemOfIssue, uniqueMessage, type DeviceRowProblem } from './row-problems.ts';
import { checkedPlace, namesPlace, placeOfNames, samePlace, storedPlaceOf } from './device-place.ts';
import { StockRepository } from './stock.repository.ts';
import type { RemovalOutcome, TelecomSyncService } from './telecom/telecom-sync.service.ts';

const DEVICE_CONFLICTS = {
  device_device_id: 'device.alreadyAdded',
  device_stock_unique: 'device.alreadyAdded',
} as const;

/** One device to add: the contract's insertDevice input, optionally under a gateway host. */
export type DeviceAdd = z.output<typeof DeviceAddInputSchema> & {
  hostDeviceId?: string | undefined;
  /** A spreadsheet's place columns: a path of names, and who wears it (decision 0046). */
  place?: string | undefined;
  wornBy?: string | undefined;
};

export interface AddRules {
  /** Kinds the call accepts (addHost: gateway hosts); another kind is a type mismatch. */
  kinds?: readonly DeviceKind[];
}

export interface DeviceListInput {
  pageNum: number;
  pageSize: number;
  deviceType?: number | undefined;
  kind?: DeviceGroup | undefined;
  online?: boolean | undefined;
  keyWord?: string | undefined;
  providerId?: number | undefined;
  roomId?: number | undefined;
  areaId?: number | undefined;
  placed?: boolean | undefined;
}

/** Which field a refusal of an add is about, for per-row problems. */
const FIELD_OF: Partial<Record<string, string>> = {
  'device.typeMismatch': 'deviceType',
  'device.typeUnknown': 'deviceType',
  'device.notSubDeviceType': 'deviceType',
  'device.notFound': 'hostDeviceId',
  'device.notGateway': 'hostDeviceId',
  'device.gatewayFull': 'hostDeviceId',
  not_found: 'providerId',
  'provider.required': 'providerId',
  'provider.disabled': 'providerId',
  'device.placeNotFound': 'place',
  'device.placeOtherProvider': 'place',
  'device.placeOneOnly': 'place',
  'device.placeBedNotInRoom': 'place',
  'device.placedByBed': 'place',
  'device.placeWorn': 'place',
  'device.placeNotWorn': 'place',
  'device.placeAmbiguous': 'wornBy',
};

/** Marks a batch with problems for rollback of its savepoint. */
class BatchRefused extends Error {}

/**
 * Devices providers add from the registry: lists, counts, add (single and batch), edit and
 * delete. A deleted device returns to stock. Every by-ID call treats another provider's device as
 * missing ("the device does not exist").
 */
export class DeviceService {
  readonly repo = new DeviceRepository();
  private readonly stock = new StockRepository();

  constructor(
    private readonly db: Db,
    private readonly transactions: Transactions,
    /** Adds and deletes move a device into and out of a provider: announced in their transaction. */
    readonly moves: DeviceMoves,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly commands: CommandService,
    private readonly telecom: TelecomSyncService,
    private readonly providers: ProviderService,
    private readonly states: DeviceStates,
  ) {}

  /** Providers a list or count covers: a visible provider asked for, the chosen one, or the whole scope. */
  scopeFor(caller: Caller, providerId: number | undefined): readonly number[] | null {
    if (providerId !== undefined) {
      if (!canSeeProvider(caller.scope, providerId)) throw notFound();
      return [providerId];
    }
    return scopeIds(listScope(caller));
  }

  async list(caller: Caller, q: DeviceListInput) {
    const typeCodes = this.typeFilter(q.deviceType, q.kind);
    const { rows, total } = await this.repo.page(this.db, {
      offset: (q.pageNum - 1) * q.pageSize,
      limit: q.pageSize,
      providerIds: this.scopeFor(caller, q.providerId),
      typeCodes,
      online: q.online,
      keyWord: q.keyWord,
      roomId: q.roomId,
      areaId: q.areaId,
      placed: q.placed,
    });
    return { rows: await this.present(rows), total };
  }

  private typeFilter(deviceType: number | undefined, kind: DeviceGroup | undefined): number[] | undefined {
    const byKind = kind ? codesOfGroup(kind, DEVICE_TYPES) : undefined;
    if (deviceType === undefined) return byKind;
    return byKind && !byKind.includes(deviceType) ? [] : [deviceType];
  }

  /** List rows as the contract shows them, with the commands still waiting for each device. */
  async present(rows: readonly DeviceListRecord[], tx: Executor = this.db) {
    const open = await this.commands.openOf(
      rows.map((r) => r.device.id),
      tx,
    );
    // A sub-device's pairing commands are addressed to its host: they are shown with the sub-device.
    const hostIds = [...new Set(rows.flatMap((r) => (r.device.gatewayId === null ? [] : [r.device.gatewayId])))];
    const pairings = await this.commands.openPairingsOf(hostIds, tx);
    // Firmware upgrades: the list shows each device's latest.
    const upgrades = await this.repo.latestUpgradesOf(
      tx,
      rows.map((r) => r.device.id),
    );
    const states = await this.states.ofRows(
      rows.map((r) => ({
        device: r.device,
        stored: storedReport({ ...r.live, heard: false }),
        atBed: r.linkedBedId !== null,
      })),
      tx,
    );
    return rows.map((r) => {
      const state = states.get(r.device.deviceId);
      if (!state) throw new Error(`no state derived for ${r.device.deviceId}`);
      return this.presentRow(
        r,
        state,
        [...(open.get(r.device.id) ?? []), ...(pairings.get(r.device.deviceId) ?? [])],
        upgrades.get(r.device.id) ?? null,
      );
    });
  }

  private presentRow(
    r: DeviceListRecord,
    state: DeviceState,
    pendingCommands: readonly AnyCommand[],
    firmwareUpgrade: { version: string; state: UpgradeState; progress: number } | null,
  ) {
    const d = r.device;
    const type = typeOf(d.typeCode);
    return {
      id: d.id,
      deviceId: d.deviceId,
      cipherId: r.cipherId,
      deviceType: d.typeCode,
      model: type.model,
      kind: type.kind,
      group: deviceGroupOf(type.kind),
      name: d.name,
      commMode: d.commMode as DeviceCommMode | null,
      online: state.online,
      lastSeenTime: state.lastSeenAt?.toISOString() ?? null,
      firmwareVersion: r.live.firmwareVersion,
      hardwareVersion: r.live.hardwareVersion,
      signal: state.signal,
      signalUnit: state.signalUnit,
      battery: state.battery,
      installed: state.installed,
      installState: state.installState,
      paired: state.paired,
      pairState: state.pairState,
      sensorInitialised: state.sensorInitialised,
      sensorState: state.sensorState,
      sensitivity: d.sensitivity,
      reportInterval: d.reportInterval,
      algMode: d.algMode,
      uploadData: d.uploadData,
      imei: r.imei,
      imei4g: r.imei4g,
      iccid: r.iccid,
      hostDeviceId: r.hostDeviceId,
      subDeviceCount: r.subDeviceCount,
      thirdPartyId: d.thirdPartyId,
      thirdPartyStatus: d.thirdPartyStatus as 'online' | 'offline' | 'unknown' | null,
      thirdPartySyncTime: d.thirdPartySyncedAt?.toISOString() ?? null,
      firmwareUpgrade,
      pendingCommands: [...pendingCommands],
      providerId: d.providerId,
      providerName: r.providerName,
      placeKind: r.placeKind,
      bunkId: r.bedId,
      bunkName: r.bedName,
      roomId: r.roomId,
      roomName: r.roomName,
      floorId: r.floorId,
      floorName: r.floorName,
      areaId: r.areaId,
      areaName: r.areaName,
      userId: r.residentId,
      userName: r.residentName,
      caregiverId: r.caregiverId,
      caregiverName: r.caregiverName,
      remark: d.remark,
      createTime: d.createdAt.toISOString(),
    };
  }

  async summary(caller: Caller, providerId: number | undefined) {
    const counts = await this.repo.countsByType(this.db, this.scopeFor(caller, providerId));
    const groups = new Map(DEVICE_GROUP_NAMES.map((g) => [g, { kind: g, total: 0, online: 0, offline: 0 }]));
    const all = { total: 0, online: 0, offline: 0 };
    for (const c of counts) {
      const group = groups.get(deviceGroupOf(kindOf(c.typeCode)));
      for (const bucket of [group, all]) {
        if (!bucket) continue;
        bucket.total += c.n;
        if (c.online) bucket.online += c.n;
        else bucket.offline += c.n;
      }
    }
    return { ...all, groups: [...groups.values()] };
  }

  /**
   * The device groups the caller works with (decision 0033): those of the devices in its whole
   * provider scope; platform accounts, who add registry devices to providers, also the registry's.
   */
  async groupsOf(caller: Caller): Promise<DeviceGroup[]> {
    const codes = new Set(await this.repo.typeCodesIn(this.db, scopeIds(caller.scope)));
    if (isPlatformRole(caller.role)) for (const code of await this.stock.typeCodes(this.db)) codes.add(code);
    const present = new Set([...codes].map(groupOfCode));
    return DEVICE_GROUP_NAMES.filter((group) => present.has(group));
  }

  /** The catalogue, filtered by the console's overseas flag (ED719W abroad, ED719N otherwise). */
  types(abroad: boolean | undefined) {
    return DEVICE_TYPES.filter(
      (t) => abroad === undefined || !t.market || t.market === (abroad ? 'abroad' : 'domestic'),
    ).map((t) => ({
      code: t.code,
      model: t.model,
      kind: t.kind,
      group: deviceGroupOf(t.kind),
      market: t.market ?? null,
    }));
  }

  /** Adds one device from the registry (insertDevice, addHost, a gateway's sub-device). */
  async add(caller: Caller, input: DeviceAdd, ip: string, rules: AddRules = {}): Promise<DeviceRecord> {
    return this.transactions.run((tx, emit) => this.addIn(caller, input, { tx, emit }, ip, rules));
  }

  /**
   * The checks of an add, in the order the spec lists them: format (contract), registered, type,
   * already added (here / elsewhere); then the gateway's kind and capacity. The registry row is
   * locked, so two adds of one device ID are serialised.
   */
  async addIn(
    caller: Caller,
    input: DeviceAdd,
    { tx, emit }: Within,
    ip: string,
    rules: AddRules = {},
  ): Promise<DeviceRecord> {
    let providerId: number;
    let host: DeviceRecord | undefined;
    if (input.hostDeviceId !== undefined) {
      host = await visibleDevice(this.repo, caller, input.hostDeviceId, tx, true);
      if (!isGatewayHost(host.typeCode)) throw fail('device.notGateway');
      providerId = host.providerId;
    } else {
      providerId = targetProvider(caller, input.providerId);
      const provider = await this.providers.findById(providerId, tx);
      if (!provider) throw notFound();
      if (!provider.enabled) throw fail('provider.disabled');
    }
    const stock = await this.stock.findByDeviceId(tx, input.deviceId, true);
    if (!stock) throw fail('device.notRegistered');
    if (stock.typeCode !== input.deviceType || !firmwareMatches(input.firmwareType, stock.firmwareType)) {
      throw fail('device.typeMismatch');
    }
    if (rules.kinds && !rules.kinds.includes(kindOf(stock.typeCode))) throw fail('device.typeMismatch');
    const existing = await this.repo.findByStockId(tx, stock.id);
    if (existing) {
      throw fail(canSeeProvider(caller.scope, existing.providerId) ? 'device.alreadyAdded' : 'device.addedByOther');
    }
    if (host) {
      if (!canPairUnderGateway(stock.typeCode)) throw fail('device.notSubDeviceType');
      if (!gatewayHasRoom(await this.repo.countSubDevices(tx, host.id))) {
        throw fail('device.gatewayFull', { max: CONSTANTS.maxSubDevicesPerGateway });
      }
    }
    const device = { providerId, typeCode: stock.typeCode };
    const named = input.place || input.wornBy ? await placeOfNames(tx, device, input) : {};
    const place = await checkedPlace(tx, device, { ...input, ...named });
    const now = this.clock.now();
    let row: DeviceRecord;
    try {
      row = await this.repo.insert(tx, {
        ...place,
        providerId,
        stockId: stock.id,
        deviceId: stock.deviceId,
        typeCode: stock.typeCode,
        name: input.name || null,
        commMode: input.commMode ?? defaultCommMode(stock),
        gatewayId: host?.id ?? null,
        remark: input.remark || null,
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      const key = uniqueMessage(error, DEVICE_CONFLICTS);
      if (key) throw fail(key);
      throw error;
    }
    await this.audit.byCaller(
      caller,
      ip,
      'device.add',
      {
        type: 'device',
        id: row.deviceId,
        providerId,
        detail: { deviceType: row.typeCode, ...(host ? { hostDeviceId: host.deviceId } : {}) },
      },
      tx,
    );
    // Out of stock into a provider: the directory no longer stamps it as a device of none.
    await this.moves.record(tx, emit, { deviceIds: [row.deviceId] });
    return row;
  }

  /**
   * Adds many devices inside `tx`, all or nothing (the spreadsheet batch adds): each row is
   * validated with the contract's schema and added in its own savepoint, so later rows see earlier
   * ones (a gateway filling up, a repeated ID). Every problem is returned; when there is any,
   * nothing is written.
   */
  async addMany(
    caller: Caller,
    rows: readonly unknown[],
    within: Within,
    ip = '',
    rules: AddRules = {},
  ): Promise<{ added: number; problems: DeviceRowProblem[] }> {
    const problems: DeviceRowProblem[] = [];
    let added = 0;
    const schema = DeviceAddInputSchema.extend({
      hostDeviceId: DeviceAddInputSchema.shape.deviceId.optional(),
      place: z.string().trim().max(200).optional(),
      wornBy: z.string().trim().max(64).optional(),
    });
    try {
      // The batch's moves are announced only if the whole batch holds.
      await transactWithin(within, async (batch, emit) => {
        for (const [index, raw] of rows.entries()) {
          const parsed = schema.safeParse(raw);
          if (!parsed.success) {
            const [issue] = parsed.error.issues;
            if (issue) problems.push(problemOfIssue(index, issue, raw));
            continue;
          }
          try {
            await transactWithin({ tx: batch, emit }, (sp, rowEmit) =>
              this.addIn(caller, parsed.data, { tx: sp, emit: rowEmit }, ip, rules),
            );
            added++;
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            // A place refused because of who wears it is a problem of that column.
            const worn = error.key.startsWith('device.place') && parsed.data.wornBy && !parsed.data.place;
            const field = worn ? 'wornBy' : (FIELD_OF[error.key] ?? 'deviceId');
            problems.push({ index, field, key: error.key, params: error.params });
          }
        }
        if (problems.length) throw new BatchRefused();
      });
    } catch (error) {
      if (!(error instanceof BatchRefused)) throw error;
      return { added: 0, problems };
    }
    return { added, problems };
  }

  async update(
    caller: Caller,
    input: {
      deviceId: string;
      name?: string | null;
      commMode?: DeviceCommMode | null;
      remark?: string | null;
    } & DevicePlaceInput,
    ip: string,
  ): Promise<void> {
    await this.transactions.run(async (tx, emit) => {
      const device = await visibleDevice(this.repo, caller, input.deviceId, tx, true);
      const before = storedPlaceOf(device);
      const place = namesPlace(input) ? await checkedPlace(tx, device, input) : before;
      const moved = !samePlace(before, place);
      const values = {
        ...(input.name === undefined ? {} : { name: input.name || null }),
        ...(input.commMode === undefined ? {} : { commMode: input.commMode }),
        ...(input.remark === undefined ? {} : { remark: input.remark || null }),
        ...(moved ? place : {}),
      };
      await this.repo.update(tx, device.id, { ...values, updatedAt: this.clock.now() });
      await this.audit.byCaller(
        caller,
        ip,
        'device.update',
        { type: 'device', id: device.deviceId, providerId: device.providerId, detail: values },
        tx,
      );
      // A new place: every directory reads the device again, so its very next alarm names it.
      if (moved) await this.moves.record(tx, emit, { deviceIds: [device.deviceId] });
    });
  }

  /** Keeps (or stops keeping) the raw data of a device: a server-side setting, no command. */
  async setUploadData(caller: Caller, deviceId: string, uploadData: boolean, ip: string): Promise<void> {
    await this.transactions.run(async (tx, emit) => {
      const device = await visibleDevice(this.repo, caller, deviceId, tx, true);
      await this.repo.update(tx, device.id, { uploadData, updatedAt: this.clock.now() });
      // The ingest keeps raw samples from the next message on, not from the next reload.
      await this.moves.record(tx, emit, { deviceIds: [device.deviceId] });
      await this.audit.byCaller(
        caller,
        ip,
        'device.uploadData',
        { type: 'device', id: device.deviceId, providerId: device.providerId, detail: { uploadData } },
        tx,
      );
    });
  }

  /**
   * Deletes a device: it returns to stock, its unanswered commands are cancelled, then its operator
   * registration is removed. Refused while it is on a bed (a resident would silently lose
   * monitoring; unlink it on the bed first) and for a gateway host with sub-devices.
   * `expectType`: the type the caller names (he/deleteDevice); another one is a mismatch.
   */
  async remove(caller: Caller, deviceId: string, ip: string, expectType?: number): Promise<RemovalOutcome> {
    const removed = await this.transactions.run(async (tx, emit) => {
      const device = await visibleDevice(this.repo, caller, deviceId, tx, true);
      if (expectType !== undefined && device.typeCode !== expectType) throw fail('device.typeMismatch');
      await this.removeIn(caller, device, { tx, emit }, ip);
      return device;
    });
    return this.telecom.removeRegistration(removed.thirdPartyId);
  }

  /** The delete itself, for a locked, visible device (also used by the gateway's replace). */
  async removeIn(caller: Caller, device: DeviceRecord, { tx, emit }: Within, ip: string, action = 'device.delete') {
    await assertNotOnBed(this.repo, [device.id], tx);
    if (isGatewayHost(device.typeCode)) {
      const subs = await this.repo.countSubDevices(tx, device.id);
      if (subs > 0) throw fail('device.hasSubDevices', { count: subs });
    }
    await this.commands.cancelOpen([device.id], tx);
    if (device.gatewayId !== null) await this.commands.cancelPairings(device.gatewayId, [device.deviceId], tx);
    await this.repo.remove(tx, device.id);
    await this.audit.byCaller(
      caller,
      ip,
      action,
      { type: 'device', id: device.deviceId, providerId: device.providerId, detail: { deviceType: device.typeCode } },
      tx,
    );
    // Back in stock: it serves no provider from now on.
    await this.moves.record(tx, emit, { deviceIds: [device.deviceId] });
  }
}
