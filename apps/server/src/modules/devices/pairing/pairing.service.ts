import type { Db, Executor } from '../../../db/database.ts';
import type { Within } from '../../../db/transactions.ts';
import { fail } from '../../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../../core/caller.ts';
import type { CommandReceipt, CommandService, PairingCommand } from '../command.service.ts';
import { isGatewayHost } from '../device.policy.ts';
import type { DeviceRecord } from '../device.repository.ts';
import type { DeviceService } from '../device.service.ts';
import type { DeviceStates } from '../device-state.service.ts';

/** A sub-device to pair: the calls' fields (name and remark apply when it is added from stock). */
export interface PairRequest {
  hostDeviceId: string;
  deviceId: string;
  deviceType: number;
  name?: string | undefined;
  remark?: string | undefined;
}

export interface PairingReceipt extends CommandReceipt {
  command: PairingCommand;
  hostDeviceId: string;
  deviceId: string;
  hostOnline: boolean;
}

/**
 * Gateway pairing (`/he/subDevicePair`, `subDevicePair2`, `subDeviceUnPair`, `subDevicePairStatus`):
 * commands to the gateway host naming a sub-device, queued like any command (supersede, audit,
 * sent at once to a connected host). The host's acknowledgement sets the sub-device's paired flag
 * (CommandService.markAcked). `pair` and `unpair` may wait for an offline host (sent when it
 * connects, expired after 24 h); `pair_scan` opens a pairing window of N seconds for a sensor whose
 * pairing button is held, so it is only sent to a host online now.
 */
export class PairingService {
  constructor(
    private readonly db: Db,
    private readonly devices: DeviceService,
    private readonly commands: CommandService,
    private readonly states: DeviceStates,
  ) {}

  /** `pair`: the host enrols the sub-device by its ID; may wait for an offline host. */
  pair(caller: Caller, input: PairRequest, ip: string): Promise<PairingReceipt> {
    return this.queue(caller, ip, 'pair', input.hostDeviceId, async (host, tx, emit) => {
      const sub = await this.subDeviceToPair(caller, host, input, { tx, emit }, ip);
      return { sub, params: { deviceId: sub.deviceId, deviceType: sub.typeCode } };
    });
  }

  /**
   * `pair_scan`: the host listens `seconds` long and the sensor joins when its pairing button is
   * held 3 s. Only for a host online now: a window opening hours later would find nobody there.
   */
  pairScan(caller: Caller, input: PairRequest & { seconds: number }, ip: string): Promise<PairingReceipt> {
    return this.queue(caller, ip, 'pair_scan', input.hostDeviceId, async (host, tx, emit) => {
      if (!this.commands.isOnline(host)) throw fail('device.hostOffline', { host: host.deviceId }).on('hostDeviceId');
      const sub = await this.subDeviceToPair(caller, host, input, { tx, emit }, ip);
      return { sub, params: { deviceId: sub.deviceId, deviceType: sub.typeCode, seconds: input.seconds } };
    });
  }

  unpair(caller: Caller, input: { hostDeviceId: string; deviceId: string }, ip: string): Promise<PairingReceipt> {
    return this.queue(caller, ip, 'unpair', input.hostDeviceId, async (host, tx) => {
      const sub = await this.subDeviceOf(caller, host, input.deviceId, tx, true);
      return { sub, params: { deviceId: sub.deviceId, deviceType: sub.typeCode } };
    });
  }

  /** The latest pairing command of a sub-device and whether it is paired now. */
  async status(caller: Caller, q: { hostDeviceId: string; deviceId: string }) {
    const host = await this.hostOf(caller, q.hostDeviceId, this.db);
    const sub = await this.subDeviceOf(caller, host, q.deviceId, this.db);
    const command = await this.commands.pairingState(host.id, sub.deviceId);
    const state = (await this.states.of([sub.deviceId])).get(sub.deviceId);
    return {
      hostDeviceId: host.deviceId,
      deviceId: sub.deviceId,
      // As the lists show it (decision 0034): a sensor heard through its host is paired.
      paired: state?.paired ?? sub.paired,
      hostOnline: this.commands.isOnline(host),
      command,
    };
  }

  private async queue(
    caller: Caller,
    ip: string,
    command: PairingCommand,
    hostDeviceId: string,
    target: (
      host: DeviceRecord,
      tx: Executor,
      emit: Within['emit'],
    ) => Promise<{ sub: DeviceRecord; params: Record<string, unknown> }>,
  ): Promise<PairingReceipt> {
    let named = { hostDeviceId: '', deviceId: '', hostOnline: false };
    const receipt = await this.commands.queueWith(caller, ip, async (tx, emit) => {
      const host = await this.hostOf(caller, hostDeviceId, tx, true);
      const { sub, params } = await target(host, tx, emit);
      named = { hostDeviceId: host.deviceId, deviceId: sub.deviceId, hostOnline: this.commands.isOnline(host) };
      return {
        device: host,
        spec: {
          command,
          payload: params,
          supersede: (sx, device, now) => this.commands.repo.supersedePairing(sx, device.id, sub.deviceId, now),
        },
      };
    });
    return { ...receipt, command, ...named };
  }

  /** The gateway host named, visible to the caller (another provider's reads "does not exist"). */
  private async hostOf(caller: Caller, hostDeviceId: string, tx: Executor, lock = false): Promise<DeviceRecord> {
    const host = await this.devices.repo.findBySerial(tx, hostDeviceId, lock);
    if (!host || !canSeeProvider(caller.scope, host.providerId)) throw fail('device.hostNotFound').on('hostDeviceId');
    if (!isGatewayHost(host.typeCode)) throw fail('device.notGateway').on('hostDeviceId');
    return host;
  }

  /** A sub-device under this host; one elsewhere (or not a sub-device) is refused. */
  private async subDeviceOf(
    caller: Caller,
    host: DeviceRecord,
    deviceId: string,
    tx: Executor,
    lock = false,
  ): Promise<DeviceRecord> {
    const sub = await this.devices.repo.findBySerial(tx, deviceId, lock);
    if (!sub || !canSeeProvider(caller.scope, sub.providerId)) throw fail('device.notFound').on('deviceId');
    if (sub.gatewayId !== host.id) {
      throw fail('device.notUnderHost', { deviceId: sub.deviceId, host: host.deviceId }).on('deviceId');
    }
    return sub;
  }

  /**
   * The sub-device a pairing names: under this host already (of the type given), or still in stock
   * and then added under the host with the checks of /he/insertDevice (registered, type, not added
   * elsewhere, a security sensor, the host has room).
   */
  private async subDeviceToPair(
    caller: Caller,
    host: DeviceRecord,
    input: PairRequest,
    within: Within,
    ip: string,
  ): Promise<DeviceRecord> {
    const existing = await this.devices.repo.findBySerial(within.tx, input.deviceId, true);
    if (!existing) {
      return this.devices.addIn(
        caller,
        {
          deviceId: input.deviceId,
          deviceType: input.deviceType,
          name: input.name,
          remark: input.remark,
          hostDeviceId: host.deviceId,
        },
        within,
        ip,
      );
    }
    if (existing.gatewayId !== host.id) {
      if (!canSeeProvider(caller.scope, existing.providerId)) throw fail('device.addedByOther');
      throw fail('device.notUnderHost', { deviceId: existing.deviceId, host: host.deviceId }).on('deviceId');
    }
    if (existing.typeCode !== input.deviceType) throw fail('device.typeMismatch');
    return existing;
  }
}
