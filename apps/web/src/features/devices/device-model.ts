import type {
  EndpointResult,
  Role,
  deviceStockList,
  deviceTypes,
  getDeviceList,
  heGetDeviceList,
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
}

export type DeviceTypeOption = EndpointResult<typeof deviceTypes>[number];
export type GatewayHostRow = EndpointResult<typeof heGetDeviceList>['rows'][number];
export type SubDeviceRow = GatewayHostRow['subDevices'][number];
export type StockRow = EndpointResult<typeof deviceStockList>['rows'][number];

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
