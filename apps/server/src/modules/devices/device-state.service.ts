import type { Clock } from '../../clock.ts';
import type { Db, Executor } from '../../db/database.ts';
import { CommandRepository, type CommandRecord } from './command.repository.ts';
import { isPairingCommand } from './command.service.ts';
import { kindOf } from './device.policy.ts';
import { DeviceRepository, type DeviceRecord } from './device.repository.ts';
import type { DeviceState as DeviceStateAnswer } from '@vigil/contract';
import {
  deriveDeviceState,
  presentDeviceState,
  MEASURED_WITHIN_MS,
  newerReport,
  type CommandFact,
  type DeviceState,
  type ReportedState,
} from './device-state.ts';
import type { LiveStateStore, MeasuredVitals } from '../gateway/index.ts';

/** A device row with what the database holds of its reports and whether a bed holds it. */
export interface DeviceStateRow {
  device: Pick<DeviceRecord, 'id' | 'deviceId' | 'typeCode' | 'gatewayId' | 'paired' | 'sensorInitialised'>;
  /** device_live_state, else the device row's own columns; null: nothing was ever reported. */
  stored: ReportedState | null;
  atBed: boolean;
}

const OPEN = new Set(['pending', 'sent']);
const factOf = <C extends string>(row: CommandRecord, command: C): CommandFact<C> => ({
  command,
  open: OPEN.has(row.state),
  queuedAt: row.createdAt,
  ackedAt: row.state === 'acked' ? row.ackedAt : null,
});

/** What the database holds of a device's reports, in the derivation's terms; null when nothing. */
export const storedReport = (s: {
  online: boolean;
  lastSeenAt: Date | null;
  battery: number | null;
  signal: number | null;
  heard: boolean;
}): ReportedState | null =>
  s.heard || s.online || s.lastSeenAt !== null || s.battery !== null || s.signal !== null
    ? { online: s.online, lastSeenAt: s.lastSeenAt, battery: s.battery, signal: s.signal }
    : null;

/**
 * The devices module's front door to device state (decision 0034): every list, the bed list and
 * the monitoring screens read a device's online, installed, paired and sensor state here, so no
 * two screens can disagree. Gathers the facts (the gateway's live state in memory or the stored
 * copy, whichever is newer; the bed link; the latest pairing and initialisation commands; vitals
 * measured in the last day) and derives with `deriveDeviceState`.
 */
export class DeviceStates {
  private readonly devices = new DeviceRepository();
  private readonly commands = new CommandRepository();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly live: Pick<LiveStateStore, 'get'>,
    private readonly measured: Pick<MeasuredVitals, 'since'>,
  ) {}

  /** The state of each of these devices (by device ID); IDs of no device are absent. */
  async of(deviceIds: readonly string[], tx: Executor = this.db): Promise<Map<string, DeviceState>> {
    const rows = await this.devices.stateFacts(tx, deviceIds);
    return this.ofRows(
      rows.map((r) => ({ device: r.device, stored: storedReport(r.stored), atBed: r.atBed })),
      tx,
    );
  }

  /** As `of`, in the calls' shape (DeviceStateSchema): what the bed list and the monitoring screens answer. */
  async answers(deviceIds: readonly string[], tx: Executor = this.db): Promise<Map<string, DeviceStateAnswer>> {
    const states = await this.of(deviceIds, tx);
    return new Map([...states].map(([deviceId, state]) => [deviceId, presentDeviceState(state)]));
  }

  /** The state of devices whose rows the caller read already (the device list). */
  async ofRows(rows: readonly DeviceStateRow[], tx: Executor = this.db): Promise<Map<string, DeviceState>> {
    const out = new Map<string, DeviceState>();
    if (!rows.length) return out;
    const now = this.clock.now();
    const monitors = rows.filter((r) => kindOf(r.device.typeCode) === 'sleep_monitor');
    const subs = rows.filter((r) => r.device.gatewayId !== null);
    const [inits, pairings, measured] = await Promise.all([
      this.commands.latestOf(
        tx,
        monitors.map((r) => r.device.id),
        'force_init',
      ),
      this.commands.latestPairings(
        tx,
        [...new Set(subs.map((r) => r.device.gatewayId ?? 0))],
        subs.map((r) => r.device.deviceId),
      ),
      this.measured.since(
        tx,
        monitors.map((r) => r.device.deviceId),
        new Date(now.getTime() - MEASURED_WITHIN_MS),
      ),
    ]);
    const initOf = new Map(inits.map((c) => [c.deviceRowId, factOf(c, 'force_init' as const)]));
    const pairingOf = new Map(
      pairings.flatMap((c) =>
        isPairingCommand(c.command) && c.command !== 'pair_status'
          ? [[`${c.deviceRowId}:${c.subDeviceId}`, factOf(c, c.command)] as const]
          : [],
      ),
    );
    for (const { device, stored, atBed } of rows) {
      const memory = this.live.get(device.deviceId);
      const reported = newerReport(memory, stored ?? undefined) ?? null;
      out.set(
        device.deviceId,
        deriveDeviceState(
          {
            kind: kindOf(device.typeCode),
            reported,
            atBed,
            underHost: device.gatewayId !== null,
            pairedFlag: device.paired,
            pairing: pairingOf.get(`${device.gatewayId}:${device.deviceId}`) ?? null,
            sensorFlag: device.sensorInitialised,
            sensorInit: initOf.get(device.id) ?? null,
            measuredAt: measured.get(device.deviceId) ?? null,
          },
          now,
        ),
      );
    }
    return out;
  }
}

/** What other modules need of device state: the answer of each device, by device ID. */
export type DeviceStateReader = Pick<DeviceStates, 'answers'>;
