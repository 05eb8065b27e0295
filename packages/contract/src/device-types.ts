/** The device-type catalogue (spec document 2, section 3): all 18 rows. */
export const DEVICE_KINDS = [
  'sleep_monitor',
  'emergency_button',
  'flood_sensor',
  'door_magnet',
  'smoke_sensor',
  'gas_sensor',
  'co_sensor',
  'infrared_motion',
  'badge',
  'fall_radar',
  'gateway_host',
  'nurse_watch',
] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

export interface DeviceType {
  code: number;
  model: string;
  kind: DeviceKind;
  /** Fall radars differ by market: ED719W abroad, ED719N otherwise. */
  market?: 'abroad' | 'domestic';
}

export const DEVICE_TYPES: readonly DeviceType[] = [
  { code: 49, model: 'BM8701-2', kind: 'sleep_monitor' },
  { code: 52, model: 'M8701W', kind: 'sleep_monitor' },
  { code: 59, model: 'M901L', kind: 'sleep_monitor' },
  { code: 20489, model: 'Z400TWP-3', kind: 'sleep_monitor' },
  { code: 20993, model: 'SOS-N03', kind: 'emergency_button' },
  { code: 20994, model: 'SR-N06', kind: 'flood_sensor' },
  { code: 20995, model: 'MC-N01', kind: 'door_magnet' },
  { code: 21009, model: 'HO-033FK', kind: 'door_magnet' },
  { code: 20996, model: 'YG-09N', kind: 'smoke_sensor' },
  { code: 20997, model: 'QG-N05', kind: 'gas_sensor' },
  { code: 20998, model: 'CO-N05', kind: 'co_sensor' },
  { code: 20999, model: 'HW-N05', kind: 'infrared_motion' },
  { code: 21010, model: 'LH-910FK', kind: 'infrared_motion' },
  { code: 21000, model: 'A26', kind: 'badge' },
  { code: 21007, model: 'ED719W', kind: 'fall_radar', market: 'abroad' },
  { code: 21011, model: 'ED719N', kind: 'fall_radar', market: 'domestic' },
  { code: 21008, model: 'LHD8100', kind: 'gateway_host' },
  { code: 21012, model: 'NB-R3', kind: 'nurse_watch' },
];

const byCode = new Map(DEVICE_TYPES.map((t) => [t.code, t]));
export const deviceTypeByCode = (code: number): DeviceType | undefined => byCode.get(code);
