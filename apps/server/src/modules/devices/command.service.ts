import {
  ALG_MODE_KINDS,
  PAIRING_COMMANDS,
  SENSOR_INIT_KINDS,
  type DeviceCommand,
  type DeviceCommandState,
} from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import type { Db, Executor } from '../../db/database.ts';
import type { Emit, Transactions } from '../../db/transactions.ts';
import type { devices } from '../../db/schema.ts';
import { fail } from '../../core/app-error.ts';
import type { Caller } from '../../core/caller.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { CommandRepository, type CommandRecord } from './command.repository.ts';
import { visibleDevice } from './device-access.ts';
import { kindOf } from './device.policy.ts';
import { DeviceRepository, type DeviceRecord } from './device.repository.ts';
import { PairingRepository } from './pairing/pairing.repository.ts';

/** Commands to a gateway host about one of its sub-devices (docs/device-protocol.md). */
export type PairingCommand = (typeof PAIRING_COMMANDS)[number];
/** Any command the server queues for a device. */
export type AnyCommand = DeviceCommand | PairingCommand;
export const isPairingCommand = (command: string): command is PairingCommand =>
  (PAIRING_COMMANDS as readonly string[]).includes(command);
/** The sub-device a pairing command names, from its params. */
export const pairingSubject = (row: Pick<CommandRecord, 'command' | 'payload'>): string | null =>
  isPairingCommand(row.command) && typeof row.payload.deviceId === 'string' ? row.payload.deviceId : null;

/** A device's answer that moved one of its commands to acked or failed. */
export interface CommandAnswer {
  commandId: number;
  command: string;
  deviceId: string;
  ok: boolean;
  error?: string;
}

export interface CommandReceipt<C extends AnyCommand = AnyCommand> {
  commandId: number;
  command: C;
  state: 'pending';
  queuedTime: string;
}

export interface QueueSpec<C extends AnyCommand = AnyCommand> {
  command: C;
  payload: Record<string, unknown>;
  /** Rules checked on the locked device row before anything is written. */
  check?: (device: DeviceRecord, tx: Executor) => Promise<void> | void;
  /** What a newer command replaces; default: a pending command of the same kind for the device. */
  supersede?: (tx: Executor, device: DeviceRecord, now: Date) => Promise<void>;
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
  private readonly pairing = new PairingRepository();

  constructor(
    private readonly db: Db,
    private readonly transactions: Transactions,
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

  private readonly answeredListeners = new Set<(answer: CommandAnswer) => void>();

  /** Called after a device's answer changed a command (acked or failed), with the command it answered. */
  onAnswered(listener: (answer: CommandAnswer) => void): () => void {
    this.answeredListeners.add(listener);
    return () => this.answeredListeners.delete(listener);
  }

  /**
   * Queues a command the platform itself decides on (a firmware rollout), inside the caller's
   * transaction: no account, no audit entry here (the rollout keeps its own record). Call
   * `announce` with the device after the transaction commits, so a connected device gets it at once.
   */
  async queueBySystem(
    tx: Executor,
    device: Pick<DeviceRecord, 'id' | 'deviceId' | 'providerId'>,
    command: DeviceCommand,
    payload: Record<string, unknown>,
    now: Date,
  ): Promise<number> {
    await this.repo.supersede(tx, device.id, command, now);
    const row = await this.repo.insert(tx, {
      providerId: device.providerId,
      deviceRowId: device.id,
      deviceId: device.deviceId,
      command,
      payload,
      state: 'pending',
      createdBy: null,
      createdAt: now,
      updatedAt: now,
    });
    return row.id;
  }

  /** Tells the gateway a committed command waits for the device (see queueBySystem). */
  announce(deviceId: string): void {
    for (const listener of this.queuedListeners) listener(deviceId);
  }

  private queue<C extends DeviceCommand>(
    caller: Caller,
    deviceId: string,
    spec: QueueSpec<C>,
    ip: string,
  ): Promise<CommandReceipt<C>> {
    return this.queueWith(caller, ip, async (tx) => {
      const device = await visibleDevice(this.devices, caller, deviceId, tx, true);
      await spec.check?.(device, tx);
      return { device, spec };
    });
  }

  /**
   * Queues the command `prepare` decides on, for the device it found (locked) and checked, in one
   * transaction: supersede, insert, the setting kept on the device row, audit; then the queued
   * listeners hear of it (the gateway sends it at once to a connected device).
   */
  async queueWith<C extends AnyCommand>(
    caller: Caller,
    ip: string,
    /** Finds and checks the device; may change more in the transaction and announce it (`emit`). */
    prepare: (tx: Executor, emit: Emit) => Promise<{ device: DeviceRecord; spec: QueueSpec<C> }>,
  ): Promise<CommandReceipt<C>> {
    const receipt = await this.transactions.run(async (tx, emit) => {
      const { device, spec } = await prepare(tx, emit);
      const now = this.clock.now();
      if (spec.supersede) await spec.supersede(tx, device, now);
      else await this.repo.supersede(tx, device.id, spec.command, now);
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
  restart(caller: Caller, deviceId: string, ip: string): Promise<CommandReceipt<DeviceCommand>> {
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
  interval(caller: Caller, deviceId: string, interval: number, ip: string): Promise<CommandReceipt<DeviceCommand>> {
    return this.queue(
      caller,
      deviceId,
      { command: 'interval', payload: { interval }, apply: { reportInterval: interval } },
      ip,
    );
  }

  /** Algorithm mode of a sleep monitor or fall radar. */
  algMode(caller: Caller, deviceId: string, algMode: number, ip: string): Promise<CommandReceipt<DeviceCommand>> {
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
  forceInit(caller: Caller, deviceId: string, emptyBed: boolean, ip: string): Promise<CommandReceipt<DeviceCommand>> {
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
  async openOf(deviceRowIds: readonly number[], tx: Executor = this.db): Promise<Map<number, AnyCommand[]>> {
    const out = new Map<number, AnyCommand[]>();
    for (const row of await this.repo.open(tx, deviceRowIds)) {
      if (row.deviceRowId === null) continue;
      const list = out.get(row.deviceRowId) ?? [];
      if (!list.includes(row.command as AnyCommand)) list.push(row.command as AnyCommand);
      out.set(row.deviceRowId, list);
    }
    return out;
  }

  /** Unanswered pairing commands of the hosts, by the sub-device they name (sub-device ID → commands). */
  async openPairingsOf(hostRowIds: readonly number[], tx: Executor = this.db): Promise<Map<string, PairingCommand[]>> {
    const out = new Map<string, PairingCommand[]>();
    for (const row of await this.repo.open(tx, hostRowIds)) {
      const sub = pairingSubject(row);
      if (!sub || !isPairingCommand(row.command)) continue;
      const list = out.get(sub) ?? [];
      if (!list.includes(row.command)) list.push(row.command);
      out.set(sub, list);
    }
    return out;
  }

  /** Whether the device is online now: the gateway's live view, else the stored state. */
  isOnline(device: Pick<DeviceRecord, 'deviceId' | 'online'>): boolean {
    return this.liveOnline(device.deviceId) ?? device.online;
  }

  /** Cancels the unanswered pairing commands of a host naming sub-devices that leave it (deleted, replaced). */
  cancelPairings(hostRowId: number, subDeviceIds: readonly string[], tx: Executor): Promise<void> {
    return this.repo.cancelPairings(tx, hostRowId, subDeviceIds, this.clock.now());
  }

  /** The latest pairing command of a host for a sub-device, as the console shows it. */
  async pairingState(hostRowId: number, subDeviceId: string, tx: Executor = this.db) {
    const row = await this.repo.latestPairing(tx, hostRowId, subDeviceId);
    if (!row || !isPairingCommand(row.command)) return null;
    return {
      commandId: row.id,
      command: row.command,
      state: row.state as DeviceCommandState,
      error: row.error,
      attempts: row.attempts,
      queuedTime: row.createdAt.toISOString(),
      sentTime: row.sentAt?.toISOString() ?? null,
      ackTime: row.ackedAt?.toISOString() ?? null,
      updateTime: row.updatedAt.toISOString(),
    };
  }

  /**
   * A device's commands with their states, newest first (/device/commandList): the caller must see
   * the device; a sub-device's include the pairing commands its host was sent for it.
   */
  async history(caller: Caller, q: { deviceId: string; pageNum: number; pageSize: number }) {
    const device = await visibleDevice(this.devices, caller, q.deviceId, this.db);
    const { rows, total } = await this.repo.history(this.db, {
      deviceRowId: device.id,
      pairing: device.gatewayId === null ? null : { hostRowId: device.gatewayId, subDeviceId: device.deviceId },
      offset: (q.pageNum - 1) * q.pageSize,
      limit: q.pageSize,
    });
    return {
      rows: rows.map((row) => ({
        id: row.id,
        deviceId: row.deviceId,
        command: row.command as AnyCommand,
        params: row.payload,
        state: row.state as DeviceCommandState,
        attempts: row.attempts,
        error: row.error,
        createTime: row.createdAt.toISOString(),
        sentTime: row.sentAt?.toISOString() ?? null,
        ackTime: row.ackedAt?.toISOString() ?? null,
        updateTime: row.updatedAt.toISOString(),
      })),
      total,
    };
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
    const reason = error?.trim() || 'refused by the device';
    const changed = ok ? await this.markAcked(id) : await this.markFailed(id, reason);
    if (changed) {
      const answer: CommandAnswer = { commandId: id, command: row.command, deviceId: row.deviceId, ok };
      // The device's own words only: a listener says "refused" in the reader's language itself.
      if (!ok && error?.trim()) answer.error = error.trim();
      for (const listener of this.answeredListeners) listener(answer);
    }
    return changed;
  }

  /** Unanswered commands older than COMMAND_EXPIRY_MS expire; returns how many. */
  async expireOld(): Promise<number> {
    const now = this.clock.now();
    const expired = await this.repo.expire(this.db, new Date(now.getTime() - COMMAND_EXPIRY_MS), now);
    return expired.length;
  }

  /**
   * pending/sent → acked. An acknowledged initialisation marks the sensor initialised; a host's
   * acknowledged `pair` or `pair_scan` marks the sub-device it names paired, `unpair` unpaired
   * (while it is still under that host).
   */
  markAcked(id: number): Promise<boolean> {
    return this.transition(
      id,
      ['pending', 'sent'],
      (now) => ({ state: 'acked', ackedAt: now }),
      async (tx, row, now) => {
        if (row.deviceRowId === null) return;
        if (row.command === 'force_init') {
          await this.devices.update(tx, row.deviceRowId, { sensorInitialised: true, updatedAt: now });
        }
        const sub = pairingSubject(row);
        if (sub && row.command !== 'pair_status') {
          await this.pairing.setPaired(tx, row.deviceRowId, sub, row.command !== 'unpair', now);
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
