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

/** A signal with its unit: "−67 dBm", or a 0–100 level "74%"; a dash when not reported. */
export const signalText = (signal: number | null, unit: SignalUnit | null): string => {
  if (signal === null) return dash;
  return unit === 'dBm' ? `${signal} dBm` : `${signal}%`;
};

/** A battery level in per cent, or a dash. */
export const batteryText = (battery: number | null): string => (battery === null ? dash : `${battery}%`);
