import {
  BED_DEVICE_TYPES,
  DEVICE_TYPES,
  type DeviceInstallState,
  type DeviceKind,
  type DevicePairState,
  type DeviceSensorState,
  type SignalUnit,
} from '@vigil/contract/browser';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * A device's state as the server derives it once for every screen (decision 0034): the device
 * lists, the bed list and the monitoring screens show it with these tags and texts, so they can
 * only say the same thing.
 */
export interface DeviceStateView {
  online: boolean;
  installState: DeviceInstallState;
  pairState: DevicePairState | null;
  sensorState: DeviceSensorState | null;
}

/** Kinds a bed holds (sleep monitors, fall radars): "in use" without a bed is worth a warning. */
const BED_KINDS = new Set<DeviceKind>(
  DEVICE_TYPES.filter((type) => BED_DEVICE_TYPES.includes(type.code)).map((type) => type.kind),
);

const INSTALL_COLOURS: Readonly<Record<DeviceInstallState, string>> = {
  bed: 'blue',
  host: 'blue',
  reporting: 'gold',
  none: 'default',
};
const PAIR_COLOURS: Readonly<Record<DevicePairState, string>> = {
  paired: 'blue',
  pairing: 'processing',
  unpairing: 'processing',
  unpaired: 'gold',
};
const SENSOR_COLOURS: Readonly<Record<DeviceSensorState, string>> = {
  initialised: 'blue',
  initialising: 'processing',
  notInitialised: 'gold',
};

export const OnlineTag = ({ online }: { online: boolean }) => {
  const { t } = useTranslation();
  return (
    <Tag color={online ? 'green' : 'default'} data-testid="device-online">
      {t(online ? 'deviceState.online' : 'deviceState.offline')}
    </Tag>
  );
};

/** Installed where: at its bed, with its host, in use at no bed (a bed device: a warning), or not. */
export const InstallTag = ({ state, kind }: { state: DeviceInstallState; kind: DeviceKind }) => {
  const { t } = useTranslation();
  const key = state === 'reporting' && !BED_KINDS.has(kind) ? 'reportingElsewhere' : state;
  return (
    <Tag
      color={state === 'reporting' && !BED_KINDS.has(kind) ? 'blue' : INSTALL_COLOURS[state]}
      data-testid="device-install"
    >
      {t(`deviceState.install.${key}`)}
    </Tag>
  );
};

export const PairTag = ({ state }: { state: DevicePairState }) => {
  const { t } = useTranslation();
  return (
    <Tag color={PAIR_COLOURS[state]} data-testid="device-pair">
      {t(`deviceState.pair.${state}`)}
    </Tag>
  );
};

export const SensorTag = ({ state }: { state: DeviceSensorState }) => {
  const { t } = useTranslation();
  return (
    <Tag color={SENSOR_COLOURS[state]} data-testid="device-sensor">
      {t(`deviceState.sensor.${state}`)}
    </Tag>
  );
};

/**
 * Installed, paired (sub-devices) and sensor (sleep monitors), and online unless `withOnline` is
 * false (a column of its own shows it).
 */
export const DeviceStateTags = ({
  state,
  kind,
  withOnline = true,
  maxWidth,
}: {
  state: DeviceStateView;
  kind: DeviceKind;
  withOnline?: boolean;
  /** Wraps the tags within this width (a narrow column). */
  maxWidth?: number;
}) => (
  <Space size={4} wrap data-testid="device-state" style={maxWidth ? { maxWidth } : undefined}>
    {withOnline && <OnlineTag online={state.online} />}
    <InstallTag state={state.installState} kind={kind} />
    {state.pairState && <PairTag state={state.pairState} />}
    {state.sensorState && <SensorTag state={state.sensorState} />}
  </Space>
);

const dash = '—';

/** A reported signal's unit as a header or a cell writes it. */
const SIGNAL_UNIT_TEXT: Readonly<Record<SignalUnit, string>> = { dBm: 'dBm', percent: '%' };

/**
 * The one unit of the signals a list shows, for its header ("Signal (dBm)"); null when they differ
 * or none is reported, and each cell says its own.
 */
export const listSignalUnit = (rows: readonly { signalUnit: SignalUnit | null }[]): SignalUnit | null => {
  const units = new Set(rows.flatMap((r) => (r.signalUnit ? [r.signalUnit] : [])));
  return units.size === 1 ? ([...units][0] ?? null) : null;
};

/** The signal column's header: with the list's unit when it has one. */
export const signalHeader = (
  name: string,
  unit: SignalUnit | null,
  withUnit: (name: string, unit: string) => string,
) => (unit ? withUnit(name, SIGNAL_UNIT_TEXT[unit]) : name);

/**
 * A signal under its header: the bare number when the header names its unit, else with its own
 * ("-67 dBm", "74%"); a dash when not reported.
 */
export const signalFigure = (signal: number | null, unit: SignalUnit | null, headerUnit: SignalUnit | null): string => {
  if (signal === null) return dash;
  if (unit !== null && unit === headerUnit) return String(signal);
  return unit === 'dBm' ? `${signal} dBm` : `${signal}%`;
};

/** A battery level under a header that says "(%)": the bare number, or a dash. */
export const batteryFigure = (battery: number | null): string => (battery === null ? dash : String(battery));
