import type {
  EndpointResult,
  Role,
  deviceCommandList,
  deviceStockList,
  deviceTypes,
  getDeviceList,
  heGetDeviceList,
  heSubDevicePair,
  heSubDevicePairStatus,
} from '@vigil/contract/browser';

/** A device as the list shows it. */
export type DeviceRow = EndpointResult<typeof getDeviceList>['rows'][number];
/** The console's groups of device kinds: sleep, fall, security, gateway, wearable. */
export type DeviceGroup = DeviceRow['group'];
export type CommMode = NonNullable<DeviceRow['commMode']>;
export type DeviceCommand = DeviceRow['pendingCommands'][number];
/**
 * What the list is narrowed to, besides paging and the page's group. Written out because the
 * request's numbers are coerced, so their input type is `unknown`.
 */
export interface DeviceFilters {
  keyWord?: string;
  online?: boolean;
  deviceType?: number;
  providerId?: number;
  /** A room (or a bed of it), a floor or area (its rooms included), or only devices placed or not. */
  roomId?: number;
  areaId?: number;
  placed?: boolean;
}

export type DeviceTypeOption = EndpointResult<typeof deviceTypes>[number];
export type GatewayHostRow = EndpointResult<typeof heGetDeviceList>['rows'][number];
export type SubDeviceRow = GatewayHostRow['subDevices'][number];
export type StockRow = EndpointResult<typeof deviceStockList>['rows'][number];
/** One command of a device's history, with its state. */
export type CommandHistoryRow = EndpointResult<typeof deviceCommandList>['rows'][number];
export type CommandState = CommandHistoryRow['state'];
/** A pairing command queued for a gateway host (pair, pair_scan, unpair). */
export type PairingReceipt = EndpointResult<typeof heSubDevicePair>;
export type PairingStatus = EndpointResult<typeof heSubDevicePairStatus>;

/** The device screens refetch online state, last seen, battery, signal and firmware this often while visible. */
export const LIVE_REFRESH_MS = 10_000;
/** An open pairing dialog asks for the pairing's progress this often, until its state is final. */
export const PAIRING_POLL_MS = 1_500;
/** An open command history refreshes this often. */
export const COMMANDS_POLL_MS = 5_000;
/** States a command leaves no more: nothing further will happen to it. */
export const FINAL_COMMAND_STATES: readonly CommandState[] = ['acked', 'failed', 'expired', 'superseded', 'cancelled'];
export const isFinalCommandState = (state: CommandState): boolean => FINAL_COMMAND_STATES.includes(state);

/** Communication modes, kinds with an algorithm mode and kinds whose sensor is initialised (decision 0010). */
export { ALG_MODE_KINDS, DEVICE_COMM_MODES as COMM_MODES, SENSOR_INIT_KINDS } from '@vigil/contract/browser';

/** Platform device administrators: the registry, raw-data upload and moving gateways between providers. */
const DEVICE_ADMINS: readonly Role[] = ['SUPER_ROLE', 'SENIOR_ROLE'];
export const isDeviceAdmin = (role: Role | undefined): boolean => (role ? DEVICE_ADMINS.includes(role) : false);

/** The contract's device ID, name and algorithm-mode rules, checked in the forms. */
export {
  DEVICE_ALG_MODE_MAX as ALG_MODE_MAX,
  DEVICE_ID_MAX,
  DEVICE_ID_PATTERN,
  DEVICE_NAME_MAX,
} from '@vigil/contract/browser';
/** Trimmed text, or undefined for an empty field (so the server keeps its default). */
export const blankToUndefined = (value: string | undefined): string | undefined =>
  value?.trim() ? value.trim() : undefined;
/** The server trims what it is sent, so rules check the trimmed text. */
export const trimmed = (value: string | undefined): string | undefined => value?.trim();
