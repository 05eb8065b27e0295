import {
  signalUnitOf,
  type DeviceInstallState,
  type DeviceKind,
  type DevicePairState,
  type DeviceSensorState,
  type DeviceState as DeviceStateAnswer,
  type SignalUnit,
} from '@vigil/contract';
import type { PairingCommand } from './command.service.ts';

/**
 * One device's state as every screen shows it (decision 0034): online, installed, paired, sensor
 * initialised, battery and signal, derived here and nowhere else from what the server knows. Pure:
 * the facts are gathered by DeviceStates (device-state.service.ts).
 */

/** What the device reports, as Presence keeps it (docs/device-protocol.md "Online and offline"). */
export interface ReportedState {
  online: boolean;
  /** null: only the device row's own online flag is known (a device never heard by this gateway). */
  lastSeenAt: Date | null;
  battery: number | null;
  signal: number | null;
}

/** The latest command of a kind that says something about the state (a pairing, an initialisation). */
export interface CommandFact<C extends string = string> {
  command: C;
  /** Pending or sent: not answered yet. */
  open: boolean;
  queuedAt: Date;
  /** When the device answered `ok` (acked); null otherwise. */
  ackedAt: Date | null;
}

export interface DeviceFacts {
  kind: DeviceKind;
  /** What it reported; null: it never spoke to the gateway. */
  reported: ReportedState | null;
  /** Linked to a bed. */
  atBed: boolean;
  /** Registered under a gateway host (a sub-device). */
  underHost: boolean;
  /** The device row's pairing flag: the host acknowledged a pair (set false by an acknowledged unpair). */
  pairedFlag: boolean;
  /** The latest pairing command its host was sent for it, if any. */
  pairing: CommandFact<PairingCommand> | null;
  /** The device row's sensor flag: the device acknowledged an initialisation. */
  sensorFlag: boolean;
  /** The latest sensor initialisation (force_init) queued for it, if any. */
  sensorInit: CommandFact<'force_init'> | null;
  /** When it last measured someone (a heart or breathing rate, or someone in bed); null: not in the last day. */
  measuredAt: Date | null;
}

export interface DeviceState {
  online: boolean;
  lastSeenAt: Date | null;
  installed: boolean;
  installState: DeviceInstallState;
  paired: boolean;
  pairState: DevicePairState | null;
  sensorInitialised: boolean;
  sensorState: DeviceSensorState | null;
  battery: number | null;
  signal: number | null;
  signalUnit: SignalUnit | null;
}

/** Vitals measured this recently say the sensor works: initialised, whatever the flag. */
export const MEASURED_WITHIN_MS = 24 * 60 * 60 * 1000;

/** What a device reports in memory, or the stored copy when that is newer (another instance wrote it). */
export const newerReport = (
  memory: ReportedState | undefined,
  stored: ReportedState | undefined,
): ReportedState | undefined =>
  memory && (!stored?.lastSeenAt || (memory.lastSeenAt !== null && memory.lastSeenAt >= stored.lastSeenAt))
    ? memory
    : stored;

/** Heard since `at`, and online now. */
const heardSince = (reported: ReportedState | null, at: Date): boolean =>
  reported?.online === true && reported.lastSeenAt !== null && reported.lastSeenAt > at;

/**
 * A sub-device's pairing. An open command is `pairing` or `unpairing`, except that a sensor heard
 * through its host since a `pair` was queued is already paired. Otherwise the host's answer (the
 * flag) or the sensor being heard through its host now says paired: a host forwards only sensors it
 * knows. After an acknowledged `unpair`, only a message newer than that answer says paired again.
 */
export const pairStateOf = (f: DeviceFacts): DevicePairState | null => {
  if (!f.underHost) return null;
  const { pairing, reported } = f;
  if (pairing?.open) {
    if (pairing.command === 'unpair') return 'unpairing';
    return heardSince(reported, pairing.queuedAt) ? 'paired' : 'pairing';
  }
  if (f.pairedFlag) return 'paired';
  if (!reported?.online) return 'unpaired';
  const unpairedAt = pairing?.command === 'unpair' ? pairing.ackedAt : null;
  return unpairedAt && !heardSince(reported, unpairedAt) ? 'unpaired' : 'paired';
};

/**
 * A sleep monitor's sensor. While an initialisation is open it is `initialising`, unless the monitor
 * measured since it was queued; otherwise the device's acknowledgement or vitals measured within
 * MEASURED_WITHIN_MS say initialised: a monitor measuring a heart rate has a working sensor.
 */
export const sensorStateOf = (f: DeviceFacts, now: Date): DeviceSensorState | null => {
  if (f.kind !== 'sleep_monitor') return null;
  const measured = f.measuredAt !== null && now.getTime() - f.measuredAt.getTime() <= MEASURED_WITHIN_MS;
  if (f.sensorInit?.open) {
    return measured && f.measuredAt !== null && f.measuredAt > f.sensorInit.queuedAt ? 'initialised' : 'initialising';
  }
  return f.sensorFlag || measured ? 'initialised' : 'notInitialised';
};

/** Where it is installed: at its bed, with its host, reporting from a place nobody recorded, or not. */
export const installStateOf = (f: DeviceFacts, pairState: DevicePairState | null): DeviceInstallState => {
  if (f.atBed) return 'bed';
  if (pairState === 'paired') return 'host';
  return f.reported?.online ? 'reporting' : 'none';
};

export const deriveDeviceState = (f: DeviceFacts, now: Date): DeviceState => {
  const pairState = pairStateOf(f);
  const installState = installStateOf(f, pairState);
  const sensorState = sensorStateOf(f, now);
  const signal = f.reported?.signal ?? null;
  return {
    online: f.reported?.online ?? false,
    lastSeenAt: f.reported?.lastSeenAt ?? null,
    installed: installState !== 'none',
    installState,
    paired: pairState === 'paired',
    pairState,
    sensorInitialised: sensorState === 'initialised',
    sensorState,
    battery: f.reported?.battery ?? null,
    signal,
    signalUnit: signalUnitOf(signal),
  };
};

/** The state as the calls answer it (DeviceStateSchema). */
export const presentDeviceState = (s: DeviceState): DeviceStateAnswer => ({
  online: s.online,
  lastSeenTime: s.lastSeenAt?.toISOString() ?? null,
  installed: s.installed,
  installState: s.installState,
  paired: s.paired,
  pairState: s.pairState,
  sensorInitialised: s.sensorInitialised,
  sensorState: s.sensorState,
  battery: s.battery,
  signal: s.signal,
  signalUnit: s.signalUnit,
});
