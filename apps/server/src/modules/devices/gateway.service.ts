import { DEVICE_TYPES } from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import { fail, notFound } from '../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../core/caller.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import type { CommandService } from './command.service.ts';
import { assertNotOnBed, visibleDevice } from './device-access.ts';
import { NO_PLACE, storedPlaceOf } from './device-place.ts';
import { codesOfGroup, defaultCommMode, isGatewayHost, typeOf } from './device.policy.ts';
import type { DeviceAdd, DeviceService } from './device.service.ts';
import type { DeviceStates } from './device-state.service.ts';
import type { DeviceMoves } from '../gateway/index.ts';
import { PairingService } from './pairing/pairing.service.ts';
import { StockRepository } from './stock.repository.ts';
import type { RemovalOutcome, TelecomSyncService } from './telecom/telecom-sync.service.ts';

const GATEWAY_CODES = codesOfGroup('gateway', DEVICE_TYPES);

/**
 * Gateway hosts and their sub-devices (`/he/…`): hosts are devices of kind gateway_host; a
 * sub-device is a security sensor whose gateway is a host of the same provider (fewer than 50 per host).
 */
export class GatewayService {
  private readonly stock = new StockRepository();
  /** Pairing sub-devices with their host: commands to the host (/he/subDevicePair …). */
  readonly pairing: PairingService;
  constructor(
    private readonly db: Db,
    private readonly transactions: Transactions,
    /** Replacing a device and moving a host to another provider move devices: announced in their transaction. */
    private readonly moves: DeviceMoves,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly devices: DeviceService,
    private readonly commands: CommandService,
    private readonly providers: ProviderService,
    private readonly telecom: TelecomSyncService,
    private readonly states: DeviceStates,
  ) {
    this.pairing = new PairingService(db, devices, commands, states);
  }

  /** Hosts with their sub-devices. */
  async hosts(
    caller: Caller,
    q: {
      pageNum: number;
      pageSize: number;
      online?: boolean | undefined;
      keyWord?: string | undefined;
      providerId?: number | undefined;
    },
  ) {
    const repo = this.devices.repo;
    const { rows, total } = await repo.page(this.db, {
      offset: (q.pageNum - 1) * q.pageSize,
      limit: q.pageSize,
      providerIds: this.devices.scopeFor(caller, q.providerId),
      typeCodes: GATEWAY_CODES,
      online: q.online,
      keyWord: q.keyWord,
      hostsOnly: true,
    });
    const hosts = await this.devices.present(rows);
    const subs = await repo.subDevicesOf(
      this.db,
      hosts.map((h) => h.id),
    );
    const open = await this.commands.openOf(subs.map((s) => s.id));
    const pairings = await this.commands.openPairingsOf(hosts.map((h) => h.id));
    const states = await this.states.of(subs.map((s) => s.deviceId));
    return {
      rows: hosts.map((h) => ({
        ...h,
        subDevices: subs
          .filter((s) => s.gatewayId === h.id && s.providerId === h.providerId)
          .flatMap((s) => {
            const type = typeOf(s.typeCode);
            const state = states.get(s.deviceId);
            // Deleted since the list was read: not shown.
            if (!state) return [];
            return {
              id: s.id,
              deviceId: s.deviceId,
              deviceType: s.typeCode,
              model: type.model,
              kind: type.kind,
              name: s.name,
              online: state.online,
              lastSeenTime: state.lastSeenAt?.toISOString() ?? null,
              battery: state.battery,
              signal: state.signal,
              signalUnit: state.signalUnit,
              paired: state.paired,
              pairState: state.pairState,
              installed: state.installed,
              installState: state.installState,
              pendingCommands: [...(open.get(s.id) ?? []), ...(pairings.get(s.deviceId) ?? [])],
            };
          }),
      })),
      total,
    };
  }

  addHost(caller: Caller, input: Omit<DeviceAdd, 'deviceType' | 'hostDeviceId'>, ip: string) {
    const [code] = GATEWAY_CODES;
    if (code === undefined) throw new Error('no gateway type in the catalogue');
    return this.devices.add(caller, { ...input, deviceType: code }, ip, { kinds: ['gateway_host'] });
  }

  /** A security sensor under a host: joins the host's provider. */
  addSubDevice(caller: Caller, input: DeviceAdd & { hostDeviceId: string }, ip: string) {
    return this.devices.add(caller, { ...input, providerId: undefined }, ip);
  }

  /**
   * Swaps a host or a sub-device for a registry device of the same type, in stock: name and remark
   * carry over, a host's sub-devices move to the new host, a sub-device's host stays; the old
   * device returns to stock with its unanswered commands cancelled.
   */
  async replace(caller: Caller, oldId: string, newId: string, ip: string) {
    if (oldId === newId) throw fail('device.sameDevice');
    const { created, old } = await this.transactions.run(async (tx, emit) => {
      const old = await visibleDevice(this.devices.repo, caller, oldId, tx, true);
      const host = isGatewayHost(old.typeCode);
      if (!host && old.gatewayId === null) throw fail('device.notGatewayDevice');
      await assertNotOnBed(this.devices.repo, [old.id], tx);
      const stock = await this.stock.findByDeviceId(tx, newId, true);
      if (!stock) throw fail('device.notRegistered');
      if (stock.typeCode !== old.typeCode) throw fail('device.typeMismatch');
      const existing = await this.devices.repo.findByStockId(tx, stock.id);
      if (existing) {
        throw fail(canSeeProvider(caller.scope, existing.providerId) ? 'device.alreadyAdded' : 'device.addedByOther');
      }
      const now = this.clock.now();
      const subs = host ? await this.devices.repo.subDevices(tx, old.id, true) : [];
      const created = await this.devices.repo.insert(tx, {
        // The new device takes the old one's place (decision 0046): the same room, area or wearer.
        ...storedPlaceOf(old),
        providerId: old.providerId,
        stockId: stock.id,
        deviceId: stock.deviceId,
        typeCode: stock.typeCode,
        name: old.name,
        remark: old.remark,
        commMode: defaultCommMode(stock) ?? old.commMode,
        gatewayId: old.gatewayId,
        createdAt: now,
        updatedAt: now,
      });
      await this.devices.repo.updateMany(
        tx,
        subs.map((s) => s.id),
        { gatewayId: created.id, paired: false, updatedAt: now },
      );
      await this.commands.cancelOpen([old.id], tx);
      if (old.gatewayId !== null) await this.commands.cancelPairings(old.gatewayId, [old.deviceId], tx);
      await this.devices.repo.remove(tx, old.id);
      await this.audit.byCaller(
        caller,
        ip,
        'device.replace',
        {
          type: 'device',
          id: created.deviceId,
          providerId: old.providerId,
          detail: { replaced: old.deviceId, movedSubDevices: subs.length },
        },
        tx,
      );
      // The old device back in stock, the new one in its place, a host's sub-devices under the new host.
      await this.moves.record(tx, emit, {
        deviceIds: [old.deviceId, created.deviceId, ...subs.map((s) => s.deviceId)],
      });
      return { created, old };
    });
    // The old device is back in stock: its operator registration goes, as on a delete.
    const removal = await this.telecom.removeRegistration(old.thirdPartyId);
    return { id: created.id, deviceId: created.deviceId, removal };
  }

  /** he/deleteDevice: a host without sub-devices, or a sub-device, of the named type. */
  async remove(caller: Caller, deviceId: string, deviceType: number, ip: string): Promise<RemovalOutcome> {
    const device = await visibleDevice(this.devices.repo, caller, deviceId, this.db);
    if (!isGatewayHost(device.typeCode) && device.gatewayId === null) throw fail('device.notGatewayDevice');
    return this.devices.remove(caller, deviceId, ip, deviceType);
  }

  /** Moves a host and its sub-devices (and their commands) to another provider: platform administrators. */
  async changeProvider(caller: Caller, deviceId: string, providerId: number, ip: string) {
    return this.transactions.run(async (tx, emit) => {
      const host = await visibleDevice(this.devices.repo, caller, deviceId, tx, true);
      if (!isGatewayHost(host.typeCode)) throw fail('device.notGateway');
      if (!canSeeProvider(caller.scope, providerId)) throw notFound();
      const target = await this.providers.findById(providerId, tx);
      if (!target) throw notFound();
      if (!target.enabled) throw fail('provider.disabled');
      const subs = await this.devices.repo.subDevices(tx, host.id, true);
      const ids = [host.id, ...subs.map((s) => s.id)];
      await assertNotOnBed(this.devices.repo, ids, tx);
      const now = this.clock.now();
      // Another provider's rooms, areas and people are no place for them: their places are cleared (decision 0046).
      const place = providerId === host.providerId ? {} : NO_PLACE;
      await this.devices.repo.updateMany(tx, ids, { providerId, ...place, updatedAt: now });
      await this.commands.moveProvider(ids, providerId, tx);
      await this.audit.byCaller(
        caller,
        ip,
        'device.changeProvider',
        {
          type: 'device',
          id: host.deviceId,
          providerId,
          detail: { from: host.providerId, to: providerId, subDevices: subs.length },
        },
        tx,
      );
      // From the moment this commits, no message of these devices may reach the old provider.
      await this.moves.record(tx, emit, { deviceIds: [host.deviceId, ...subs.map((s) => s.deviceId)] });
      return { moved: ids.length };
    });
  }
}
