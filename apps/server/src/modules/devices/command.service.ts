import { ALG_MODE_KINDS, SENSOR_INIT_KINDS, type DeviceCommand } from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import type { Db, Executor } from '../../db/database.ts';
import type { devices } from '../../db/schema.ts';
import { fail } from '../../core/app-error.ts';
import type { Caller } from '../../core/caller.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { CommandRepository, type CommandRecord } from './command.repository.ts';
import { visibleDevice } from './device-access.ts';
import { kindOf } from './device.policy.ts';
import { DeviceRepository, type DeviceRecord } from './device.repository.ts';

export interface CommandReceipt {
  commandId: number;
  command: DeviceCommand;
  state: 'pending';
  queuedTime: string;
}

interface QueueSpec {
  command: DeviceCommand;
  payload: Record<string, unknown>;
  /** Rules checked on the locked device row before anything is written. */
  check?: (device: DeviceRecord, tx: Executor) => Promise<void> | void;
  /** The requested setting kept on the device row (what the console shows as configured). */
  apply?: Partial<typeof devices.$inferInsert>;
}

/** A command nobody answered this long after it was queued expires (docs/device-protocol.md). */
export const COMMAND_EXPIRY_MS = 24 * 60 * 60 * 1000;

/**
 * Commands that must reach a device. Each command is stored durably as `pending`, a newer
 * command of the same kind supersedes a pending one; the device gateway sends it when it is
 * queued and again whenever the device connects (`undeliveredFor`, `markSent`), and the
 * device's answer moves it to acked or failed (`acknowledge`); unanswered, it expires after
 * COMMAND_EXPIRY_MS. Callers are told the command is queued, never that the device carried it out.
 */
export class CommandService {
  readonly repo = new CommandRepository();
  private readonly devices = new DeviceRepository();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    /** Whether the device gateway sees the device online now (undefined: it never spoke to it). */
    private readonly liveOnline: (deviceId: string) => boolean | undefined = () => undefined,
  ) {}

  private readonly queuedListeners = new Set<(deviceId: string) => void>();

  /** Called after a command is committed (the gateway sends it at once to a connected device). */
  onQueued(listener: (deviceId: string) => void): () => void {
    this.queuedListeners.add(listener);
    return () => this.queuedListeners.delete(listener);
  }

  private async queue(caller: Caller, deviceId: string, spec: QueueSpec, ip: string): Promise<CommandReceipt> {
    const receipt = await this.db.transaction(async (tx) => {
      const device = await visibleDevice(this.devices, caller, deviceId, tx, true);
      await spec.check?.(device, tx);
      const now = this.clock.now();
      await this.repo.supersede(tx, device.id, spec.command, now);
      const row = await this.repo.insert(tx, {
        providerId: device.providerId,
        deviceRowId: device.id,
        deviceId: device.deviceId,
        command: spec.command,
        payload: spec.payload,
        state: 'pending',
        createdBy: caller.accountId,
        createdAt: now,
        updatedAt: now,
      });
      if (spec.apply) await this.devices.update(tx, device.id, { ...spec.apply, updatedAt: now });
      await this.audit.byCaller(
        caller,
        ip,
        `device.command.${spec.command}`,
        {
          type: 'device',
          id: device.deviceId,
          providerId: device.providerId,
          detail: { commandId: row.id, ...spec.payload },
        },
        tx,
      );
      return {
        deviceId: device.deviceId,
        commandId: row.id,
        command: spec.command,
        state: 'pending' as const,
        queuedTime: now.toISOString(),
      };
    });
    const { deviceId: queuedFor, ...answer } = receipt;
    for (const listener of this.queuedListeners) listener(queuedFor);
    return answer;
  }

  /** Restart: only an online device can be told to restart. */
  restart(caller: Caller, deviceId: string, ip: string): Promise<CommandReceipt> {
    return this.queue(
      caller,
      deviceId,
      {
        command: 'restart',
        payload: {},
        check: (device) => {
          if (!(this.liveOnline(device.deviceId) ?? device.online)) throw fail('device.restartOffline');
        },
      },
      ip,
    );
  }

  /** Reporting interval in seconds (1–254, checked by the contract). */
  interval(caller: Caller, deviceId: string, interval: number, ip: string): Promise<CommandReceipt> {
    return this.queue(
      caller,
      deviceId,
      { command: 'interval', payload: { interval }, apply: { reportInterval: interval } },
      ip,
    );
  }

  /** Algorithm mode of a sleep monitor or fall radar. */
  algMode(caller: Caller, deviceId: string, algMode: number, ip: string): Promise<CommandReceipt> {
    return this.queue(
      caller,
      deviceId,
      {
        command: 'alg_mode',
        payload: { algMode },
        apply: { algMode },
        check: (device) => {
          if (!ALG_MODE_KINDS.includes(kindOf(device.typeCode))) throw fail('device.algModeNotSupported');
        },
      },
      ip,
    );
  }

  /**
   * Sensor initialisation: a sleep monitor installed on a bed, initialised while the bed is empty
   * (the caller confirms it). The device counts as not initialised until it acknowledges.
   */
  forceInit(caller: Caller, deviceId: string, emptyBed: boolean, ip: string): Promise<CommandReceipt> {
    return this.queue(
      caller,
      deviceId,
      {
        command: 'force_init',
        payload: {},
        apply: { sensorInitialised: false },
        check: async (device, tx) => {
          if (!SENSOR_INIT_KINDS.includes(kindOf(device.typeCode))) throw fail('device.initNotSupported');
          const [bed] = await this.devices.bedsOf(tx, [device.id]);
          if (!bed) throw fail('device.initNotInstalled');
          if (!emptyBed) throw fail('device.initBedNotEmpty');
        },
      },
      ip,
    );
  }

  /** Commands of the devices still awaiting delivery or acknowledgement (device row id → commands). */
  async openOf(deviceRowIds: readonly number[], tx: Executor = this.db): Promise<Map<number, DeviceCommand[]>> {
    const out = new Map<number, DeviceCommand[]>();
    for (const row of await this.repo.open(tx, deviceRowIds)) {
      if (row.deviceRowId === null) continue;
      const list = out.get(row.deviceRowId) ?? [];
      if (!list.includes(row.command as DeviceCommand)) list.push(row.command as DeviceCommand);
      out.set(row.deviceRowId, list);
    }
    return out;
  }

  /** Devices leaving (deleted, replaced): their unanswered commands are cancelled. */
  cancelOpen(deviceRowIds: readonly number[], tx: Executor): Promise<void> {
    return this.repo.cancelOpen(tx, deviceRowIds, this.clock.now());
  }

  moveProvider(deviceRowIds: readonly number[], providerId: number, tx: Executor): Promise<void> {
    return this.repo.moveProvider(tx, deviceRowIds, providerId, this.clock.now());
  }

  // --- For the device gateway ------------------------------------------------------------------

  /** Pending commands for a device ID, oldest first. */
  pendingFor(deviceId: string, tx: Executor = this.db): Promise<CommandRecord[]> {
    return this.repo.pendingFor(tx, deviceId.toUpperCase());
  }

  /** Commands to send when a device connects: pending, and sent but never answered. */
  undeliveredFor(deviceId: string, tx: Executor = this.db): Promise<CommandRecord[]> {
    return this.repo.undeliveredFor(tx, deviceId.toUpperCase());
  }

  /** pending → sent, or one more attempt of a sent one. False when the command is closed. */
  markSent(id: number): Promise<boolean> {
    return this.transition(id, ['pending', 'sent'], (now, row) => ({
      state: 'sent',
      sentAt: now,
      attempts: row.attempts + 1,
    }));
  }

  /**
   * A device's answer: acked or failed. Only the device a command was addressed to may answer
   * it; an answer to a closed or foreign command changes nothing (false).
   */
  async acknowledge(deviceId: string, id: number, ok: boolean, error?: string): Promise<boolean> {
    const row = await this.repo.findById(this.db, id);
    if (!row || row.deviceId !== deviceId.toUpperCase()) return false;
    return ok ? this.markAcked(id) : this.markFailed(id, error?.trim() || 'refused by the device');
  }

  /** Unanswered commands older than COMMAND_EXPIRY_MS expire; returns how many. */
  async expireOld(): Promise<number> {
    const now = this.clock.now();
    const expired = await this.repo.expire(this.db, new Date(now.getTime() - COMMAND_EXPIRY_MS), now);
    return expired.length;
  }

  /** pending/sent → acked; an acknowledged initialisation marks the sensor initialised. */
  markAcked(id: number): Promise<boolean> {
    return this.transition(
      id,
      ['pending', 'sent'],
      (now) => ({ state: 'acked', ackedAt: now }),
      async (tx, row, now) => {
        if (row.command === 'force_init' && row.deviceRowId !== null) {
          await this.devices.update(tx, row.deviceRowId, { sensorInitialised: true, updatedAt: now });
        }
      },
    );
  }

  /** pending/sent → failed, with the reason. */
  markFailed(id: number, error: string): Promise<boolean> {
    return this.transition(id, ['pending', 'sent'], () => ({ state: 'failed', error: error.slice(0, 500) }));
  }

  private transition(
    id: number,
    from: readonly string[],
    values: (now: Date, row: CommandRecord) => Partial<CommandRecord>,
    after?: (tx: Executor, row: CommandRecord, now: Date) => Promise<void>,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const row = await this.repo.findById(tx, id, true);
      if (!row || !from.includes(row.state)) return false;
      const now = this.clock.now();
      await this.repo.update(tx, id, { ...values(now, row), updatedAt: now });
      await after?.(tx, row, now);
      return true;
    });
  }
}
