import {
  CONSTANTS,
  deviceGroupOf,
  deviceTypeByCode,
  GATEWAY_SUB_DEVICE_KINDS,
  type DeviceCommMode,
  type DeviceGroup,
  type DeviceKind,
  type DeviceType,
} from '@vigil/contract';

/** Pure rules of the devices module: catalogue lookups, communication mode, gateway capacity. */

/** The catalogue entry of a stored type code (every stored code came through the catalogue check). */
export const typeOf = (code: number): DeviceType => {
  const type = deviceTypeByCode(code);
  if (!type) throw new Error(`device type ${code} is not in the catalogue`);
  return type;
};

export const kindOf = (code: number): DeviceKind => typeOf(code).kind;
export const groupOfCode = (code: number): DeviceGroup => deviceGroupOf(kindOf(code));
export const isGatewayHost = (code: number): boolean => kindOf(code) === 'gateway_host';
export const canPairUnderGateway = (code: number): boolean => GATEWAY_SUB_DEVICE_KINDS.includes(kindOf(code));

/** Type codes of a console group (sleep, fall, security, gateway, wearable). */
export const codesOfGroup = (group: DeviceGroup, catalogue: readonly DeviceType[]): number[] =>
  catalogue.filter((t) => deviceGroupOf(t.kind) === group).map((t) => t.code);

/**
 * Communication mode of a newly added device when the request names none: a 4G module IMEI in the
 * registry means 4G, an IMEI alone NB-IoT; otherwise unknown (Wi-Fi, Zigbee … are set by hand).
 */
export const defaultCommMode = (stock: { imei: string | null; imei4g: string | null }): DeviceCommMode | null => {
  if (stock.imei4g) return '4g';
  if (stock.imei) return 'nb-iot';
  return null;
};

/** The IMEI an operator platform knows a cellular device by, or null when it is not registered there. */
export const telecomImei = (
  commMode: string | null,
  stock: { imei: string | null; imei4g: string | null },
): string | null => {
  if (commMode === '4g') return stock.imei4g ?? stock.imei;
  if (commMode === 'nb-iot') return stock.imei ?? stock.imei4g;
  return null;
};

/** A gateway host holds fewer than 50 sub-devices ("under 50 sub-devices per gateway"). */
export const gatewayHasRoom = (subDeviceCount: number): boolean =>
  subDeviceCount + 1 < CONSTANTS.maxSubDevicesPerGateway;

/** The firmware type given on adding matches the registry's when both are known (case-insensitive). */
export const firmwareMatches = (requested: string | undefined, registered: string | null): boolean =>
  !requested || !registered || requested.toLowerCase() === registered.toLowerCase();

/** Escapes LIKE wildcards and wraps the text for a contains-match. */
export const containsPattern = (s: string): string => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
