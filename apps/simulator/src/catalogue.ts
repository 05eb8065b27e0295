import {
  CONSTANTS,
  DEVICE_ID_MAX,
  DEVICE_ID_PATTERN,
  DEVICE_TYPES,
  GATEWAY_SUB_DEVICE_KINDS,
  type DeviceKind,
  type DeviceType,
} from '@vigil/contract';

/**
 * What the simulator knows of each device kind: the short name used by `--devices`, the device
 * ID abbreviation, what it reports, and how it is powered and connected. Every type of the
 * contract's catalogue (DEVICE_TYPES) belongs to one kind here.
 */
export interface KindInfo {
  kind: DeviceKind;
  /** `--devices` name. */
  short: string;
  /** Middle part of generated device IDs. */
  abbr: string;
  /** What the simulated device sends on `event` (telemetry is the sleep monitors' alone). */
  events: readonly string[];
  telemetry: boolean;
  /** Runs on batteries: reports `battery` and sometimes `low_battery`. */
  battery: boolean;
  /** Speaks through a gateway host (the security sensors), never connecting itself. */
  viaHost: boolean;
  /** `signal` as dBm (Wi-Fi, cellular) or as 0–100 bars (Zigbee/LoRa sub-devices, NB-IoT wearables). */
  signal: 'dbm' | 'bars';
  /** One line for --help. */
  what: string;
}

export const KINDS: readonly KindInfo[] = [
  {
    kind: 'sleep_monitor',
    short: 'sleep',
    abbr: 'SLP',
    events: ['mat'],
    telemetry: true,
    battery: false,
    viaHost: false,
    signal: 'dbm',
    what: 'telemetry ~1/s: hr, rr, inBed, asleep, move, rri, mat; mat event',
  },
  {
    kind: 'fall_radar',
    short: 'radar',
    abbr: 'RDR',
    events: ['presence', 'fall_suspected', 'fall', 'fall_cancelled', 'sitting_up_suspected'],
    telemetry: false,
    battery: false,
    viaHost: false,
    signal: 'dbm',
    what: 'presence, fall_suspected, fall, fall_cancelled, sitting_up_suspected',
  },
  {
    kind: 'gateway_host',
    short: 'host',
    abbr: 'GW',
    events: [],
    telemetry: false,
    battery: false,
    viaHost: false,
    signal: 'dbm',
    what: "publishes its sub-devices' events on their topics; pairing commands",
  },
  {
    kind: 'emergency_button',
    short: 'button',
    abbr: 'BTN',
    events: ['sos', 'device_release', 'low_battery'],
    telemetry: false,
    battery: true,
    viaHost: true,
    signal: 'bars',
    what: 'sos, device_release (cancelled at the button), low_battery',
  },
  {
    kind: 'door_magnet',
    short: 'door',
    abbr: 'DOR',
    events: ['door', 'low_battery'],
    telemetry: false,
    battery: true,
    viaHost: true,
    signal: 'bars',
    what: 'door open/closed, low_battery',
  },
  {
    kind: 'smoke_sensor',
    short: 'smoke',
    abbr: 'SMK',
    events: ['smoke', 'low_battery'],
    telemetry: false,
    battery: true,
    viaHost: true,
    signal: 'bars',
    what: 'smoke active/cleared, low_battery',
  },
  {
    kind: 'gas_sensor',
    short: 'gas',
    abbr: 'GAS',
    events: ['gas', 'low_battery'],
    telemetry: false,
    battery: true,
    viaHost: true,
    signal: 'bars',
    what: 'gas active/cleared, low_battery',
  },
  {
    kind: 'co_sensor',
    short: 'co',
    abbr: 'CO',
    events: ['co', 'low_battery'],
    telemetry: false,
    battery: true,
    viaHost: true,
    signal: 'bars',
    what: 'co active/cleared, low_battery',
  },
  {
    kind: 'flood_sensor',
    short: 'flood',
    abbr: 'FLD',
    events: ['flood', 'low_battery'],
    telemetry: false,
    battery: true,
    viaHost: true,
    signal: 'bars',
    what: 'flood active/cleared, low_battery',
  },
  {
    kind: 'infrared_motion',
    short: 'motion',
    abbr: 'PIR',
    events: ['motion', 'low_battery'],
    telemetry: false,
    battery: true,
    viaHost: true,
    signal: 'bars',
    what: 'motion, low_battery',
  },
  {
    kind: 'badge',
    short: 'badge',
    abbr: 'BDG',
    events: ['position', 'badge_sos', 'low_battery'],
    telemetry: false,
    battery: true,
    viaHost: false,
    signal: 'bars',
    what: 'position (leaves the fence now and then), badge_sos, low_battery',
  },
  {
    kind: 'nurse_watch',
    short: 'watch',
    abbr: 'WCH',
    events: ['position', 'watch_release', 'low_battery'],
    telemetry: false,
    battery: true,
    viaHost: false,
    signal: 'bars',
    what: 'position, watch_release (a nurse releases an alarm it showed, naming its device), low_battery',
  },
];

const byKind = new Map(KINDS.map((k) => [k.kind, k]));
const byShort = new Map(KINDS.map((k) => [k.short, k]));

export const kindInfo = (kind: DeviceKind): KindInfo => {
  const info = byKind.get(kind);
  if (!info) throw new Error(`no simulator for device kind ${kind}`);
  return info;
};

/** Security sensors pair with a gateway host: the contract's list, checked against ours. */
export const isSubDeviceKind = (kind: DeviceKind): boolean => GATEWAY_SUB_DEVICE_KINDS.includes(kind);

/** Sub-devices per host: the server accepts a pairing while the host has fewer than the maximum. */
export const SUB_DEVICES_PER_HOST = CONSTANTS.maxSubDevicesPerGateway - 1;

/** Firmware and hardware versions a model reports. */
export const versionsOf = (type: DeviceType): { fw: string; hw: string } => ({
  fw: `${(type.code % 3) + 1}.${type.code % 10}.${(type.code >> 3) % 10}`,
  hw: `${type.model}-R${(type.code % 4) + 1}`,
});

export interface DevicePlan {
  id: string;
  type: DeviceType;
  kind: DeviceKind;
  short: string;
  /** The resident (room) the device belongs to; null for a nurse's watch or a gateway host. */
  room: number | null;
  /** The gateway host a security sensor speaks through. */
  hostId?: string;
  /** The sub-devices of a gateway host. */
  subIds?: string[];
}

export interface FleetPlan {
  devices: DevicePlan[];
  /** How many residents (rooms) the fleet watches. */
  rooms: number;
  /** Notes on what was added or changed (e.g. gateway hosts added for sub-devices). */
  notes: string[];
}

/** One `--devices` entry: a kind, optionally one model of it (name or type code), and a count. */
export interface DeviceCount {
  short: string;
  type?: number;
  count: number;
}

/** Short names accepted by --devices, with their models. */
export const deviceNamesHelp = (): string =>
  KINDS.map((k) => {
    const models = DEVICE_TYPES.filter((t) => t.kind === k.kind)
      .map((t) => `${t.model} (${t.code})`)
      .join(', ');
    return `  ${k.short.padEnd(7)} ${k.kind.padEnd(17)} ${models}${k.viaHost ? ' [via host]' : ''}\n          ${k.what}`;
  }).join('\n');

/**
 * `sleep=20,radar=5,host=1,door=3` (a kind's first model), `radar:ED719N=2` or `sleep:59=3` (one
 * model, by name or type code), `all=N` (N of every type of the catalogue).
 */
export const parseDeviceCounts = (spec: string): DeviceCount[] => {
  const counts: DeviceCount[] = [];
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([a-z]+)(?::([A-Za-z0-9-]+))?=(\d+)$/i.exec(part);
    if (!m?.[1] || m[3] === undefined) throw new Error(`--devices: "${part}" is not name=count (e.g. sleep=20)`);
    const name = m[1].toLowerCase();
    const count = Number(m[3]);
    if (name === 'all') {
      if (m[2]) throw new Error(`--devices: all takes no model`);
      for (const t of DEVICE_TYPES) counts.push({ short: kindInfo(t.kind).short, type: t.code, count });
      continue;
    }
    const info = byShort.get(name);
    if (!info) throw new Error(`--devices: unknown device name "${name}" (see --help)`);
    let type: number | undefined;
    if (m[2]) {
      const want = m[2].toLowerCase();
      const found = DEVICE_TYPES.find(
        (t) => t.kind === info.kind && (t.model.toLowerCase() === want || String(t.code) === want),
      );
      if (!found) throw new Error(`--devices: ${m[2]} is not a model of ${name}`);
      type = found.code;
    }
    counts.push({ short: name, ...(type !== undefined ? { type } : {}), count });
  }
  return counts;
};

/** The default fleet: one device of every type of the catalogue. */
export const oneOfEach = (): DeviceCount[] => parseDeviceCounts('all=1');

const KIND_ORDER = KINDS.map((k) => k.kind);

/**
 * The fleet's devices, IDs and rooms. IDs are `{PREFIX}-{ABBR}-{NNNN}` (upper case: the server
 * stores IDs upper-case). Security sensors are spread over the gateway hosts, at most
 * SUB_DEVICES_PER_HOST each; hosts are added when there are too few.
 */
export const planFleet = (counts: readonly DeviceCount[], prefix = 'SIM'): FleetPlan => {
  const p = prefix.toUpperCase();
  if (p && !DEVICE_ID_PATTERN.test(p)) throw new Error(`--prefix: letters, digits and '-' only`);
  const notes: string[] = [];
  const wanted: DeviceType[] = [];
  for (const c of counts) {
    const info = byShort.get(c.short);
    if (!info) throw new Error(`unknown device name "${c.short}"`);
    const type = DEVICE_TYPES.find((t) => (c.type !== undefined ? t.code === c.type : t.kind === info.kind));
    if (!type || type.kind !== info.kind) throw new Error(`type ${c.type} is not a ${info.short}`);
    for (let i = 0; i < c.count; i++) wanted.push(type);
  }
  wanted.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));

  const subs = wanted.filter((t) => isSubDeviceKind(t.kind)).length;
  const hostType = DEVICE_TYPES.find((t) => t.kind === 'gateway_host') as DeviceType;
  const hostsWanted = wanted.filter((t) => t.kind === 'gateway_host').length;
  const hostsNeeded = Math.ceil(subs / SUB_DEVICES_PER_HOST);
  if (hostsNeeded > hostsWanted) {
    notes.push(
      `added ${hostsNeeded - hostsWanted} gateway host(s): ${subs} security sensors need ${hostsNeeded} ` +
        `(at most ${SUB_DEVICES_PER_HOST} per host)`,
    );
    const at = wanted.findIndex((t) => KIND_ORDER.indexOf(t.kind) > KIND_ORDER.indexOf('gateway_host'));
    const extra = Array.from({ length: hostsNeeded - hostsWanted }, () => hostType);
    wanted.splice(at < 0 ? wanted.length : at, 0, ...extra);
  }

  const serial = new Map<string, number>();
  const perKind = new Map<DeviceKind, number>();
  const devices: DevicePlan[] = wanted.map((type) => {
    const info = kindInfo(type.kind);
    const n = (serial.get(info.abbr) ?? 0) + 1;
    serial.set(info.abbr, n);
    const index = perKind.get(type.kind) ?? 0;
    perKind.set(type.kind, index + 1);
    const id = [p, info.abbr, String(n).padStart(4, '0')].filter(Boolean).join('-');
    if (id.length > DEVICE_ID_MAX) throw new Error(`--prefix too long: device ID ${id} is over ${DEVICE_ID_MAX}`);
    const roomless = type.kind === 'nurse_watch' || type.kind === 'gateway_host';
    return { id, type, kind: type.kind, short: info.short, room: roomless ? null : index };
  });

  // Rooms: one per resident; sleep monitors and radars define them, other devices are spread over them.
  const rooms = Math.max(
    1,
    ...[...perKind.entries()].filter(([k]) => k === 'sleep_monitor' || k === 'fall_radar').map(([, n]) => n),
  );
  for (const d of devices) if (d.room !== null) d.room %= rooms;

  const hosts = devices.filter((d) => d.kind === 'gateway_host');
  let next = 0;
  for (const d of devices) {
    if (!isSubDeviceKind(d.kind)) continue;
    // Round robin: there are enough hosts for each to stay under the limit.
    const host = hosts[next % hosts.length] as DevicePlan;
    next++;
    d.hostId = host.id;
    (host.subIds ??= []).push(d.id);
  }
  return { devices, rooms, notes };
};
