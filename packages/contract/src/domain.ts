import { CONSTANTS } from './constants.ts';
import { DEVICE_TYPES, type DeviceKind } from './device-types.ts';

/**
 * The domain's constants and pure rules, without zod: the call declarations validate with them
 * and the browser imports them from the browser entry (decision 0007), so the console checks
 * what the server checks without carrying the schemas.
 */

// --- Caregivers and communities ----------------------------------------------------------------

/** A caregiver looks after at most this many residents (a resident has at most CONSTANTS.maxCarersPerResident carers). */
export const MAX_RESIDENTS_PER_CAREGIVER = 100;

export const CAREGIVER_LEVELS = ['normal', 'lead'] as const;
export type CaregiverLevel = (typeof CAREGIVER_LEVELS)[number];

/**
 * Normalises a phone number, or answers null when it is not a valid one. Caregivers' phones and
 * residents' emergency-contact phones (relatives sign in with them) share this rule. Spaces,
 * hyphens and parentheses are ignored and a leading 00 reads as +. A mainland Chinese mobile
 * number (1[3-9] and 9 more digits, with or without +86) is kept as its 11 digits; any other
 * number must be E.164 (+, a country code not starting with 0, 7 to 15 digits in all) and is
 * kept as + and digits. +86 numbers that are not mobiles are refused.
 */
export const normalisePhone = (raw: string): string | null => {
  let s = raw.replace(/[\s\-()]/g, '');
  if (s.startsWith('00')) s = `+${s.slice(2)}`;
  const china = /^(?:\+86)?(1[3-9]\d{9})$/.exec(s);
  if (china?.[1]) return china[1];
  if (s.startsWith('+86')) return null;
  return /^\+[1-9]\d{6,14}$/.test(s) ? s : null;
};

/**
 * Every alarm's type: the `alertType` on the wire, the keys of the per-type level map and of
 * the community's level lists. Only ever added to (existing apps and stored settings speak them).
 * CONNECTION is a device gone offline: the spec's release rule names it.
 */
export const ALARM_TYPES = [
  'LEAVE_BED',
  'BREATH_STOP',
  'BODY_MOVE',
  'NO_BODY_MOVE',
  'NO_TURN_OVER',
  'BREATH_ABNORMAL',
  'HEART_ABNORMAL',
  'FALL',
  'SOS',
  'DOOR',
  'SMOKE',
  'GAS',
  'CO',
  'FLOOD',
  'NO_MOTION',
  'FENCE',
  'CONNECTION',
  'FALL_SUSPECTED',
  'SITTING_UP',
  'BADGE_SOS',
  'MAT_DISLODGED',
  'LOW_BATTERY',
] as const;
export type AlarmType = (typeof ALARM_TYPES)[number];
/** Alarm types a community assigns to level 1 (red) or level 2 (orange): all of them. */
export const COMMUNITY_ALARM_TYPES = ALARM_TYPES;
export type CommunityAlarmType = (typeof COMMUNITY_ALARM_TYPES)[number];

/** How receivers are told: SMS, chat-app message, in-page sound in the console. */
export const ALARM_NOTIFY_MODES = ['sms', 'chat', 'page'] as const;

export const LEAVE_BED_MODES = ['off', 'allDay', 'sleepTime'] as const;
export const SLEEP_SENSITIVITIES = ['low', 'medium', 'high'] as const;

// --- Facility ----------------------------------------------------------------------------------

/** Longest area, floor, room or bed name. */
export const PLACE_NAME_MAX = 32;
/** Most names one batch add accepts. */
export const PLACE_BATCH_MAX = 200;
/**
 * A room named by a number ("102", "102A", "2-05") is said "Room 102"; a room with a name of its
 * own ("Lounge") keeps it. One rule for alarm texts, speech and every screen.
 */
export const isNumberedRoom = (name: string): boolean => /^[0-9][0-9A-Za-z-]*$/.test(name);
/** Mattress materials of a bed. */
export const MATTRESSES = ['sponge', 'spring', 'latex'] as const;
export type Mattress = (typeof MATTRESSES)[number];
/** Device types that can be linked to a bed: the sleep monitors and the fall radars. */
export const BED_DEVICE_TYPES: readonly number[] = DEVICE_TYPES.filter(
  (t) => t.kind === 'sleep_monitor' || t.kind === 'fall_radar',
).map((t) => t.code);
/** Message key of the "confirm the move" failure of updateBunk and getUserCheckIn. */
export const CONFIRM_MOVE_KEY = 'bed.confirmMove';

// --- Residents ---------------------------------------------------------------------------------

/** Lifecycle (spec doc 1 §4): registered → checkedIn → checkedOut → loggedOff → checkedIn again. */
export const RESIDENT_STATES = ['registered', 'checkedIn', 'checkedOut', 'loggedOff'] as const;
export type ResidentState = (typeof RESIDENT_STATES)[number];

export const MEDICAL_HISTORY = [
  'hypertension',
  'hyperlipaemia',
  'hyperglycaemia',
  'alzheimer',
  'paralyze',
  'stroke',
  'others',
] as const;
export type MedicalCondition = (typeof MEDICAL_HISTORY)[number];

export const CONTACT_RELATIONS = ['child', 'friend', 'relative'] as const;
export type ContactRelation = (typeof CONTACT_RELATIONS)[number];

export const RESIDENT_LIMITS = {
  nameMaxLength: 32,
  heightMax: 255,
  weightMax: 255,
  maxAgeYears: 130,
  otherHistoryMaxLength: 200,
  contactNameMaxLength: 32,
  maxContacts: 5,
  maxCarers: CONSTANTS.maxCarersPerResident,
  /** A caregiver looks after at most this many residents (spec doc 1 §3). */
  maxResidentsPerCarer: MAX_RESIDENTS_PER_CAREGIVER,
  keywordMaxLength: 64,
  absenceReasonMaxLength: 200,
  /** An absence may be recorded as having started this long ago (the resident left before it was entered). */
  absencePastStartHours: 24,
  /** …or planned this far ahead. */
  absenceFutureStartDays: 30,
  /** A temporary absence longer than this is a check-out, not an absence. */
  absenceMaxDays: 366,
} as const;

// --- Devices -----------------------------------------------------------------------------------

/** Console groups of device kinds: the device screens and the summary counts. */
export const DEVICE_GROUPS = {
  sleep: ['sleep_monitor'],
  fall: ['fall_radar'],
  security: [
    'emergency_button',
    'flood_sensor',
    'door_magnet',
    'smoke_sensor',
    'gas_sensor',
    'co_sensor',
    'infrared_motion',
  ],
  gateway: ['gateway_host'],
  wearable: ['badge', 'nurse_watch'],
} as const satisfies Record<string, readonly DeviceKind[]>;
export type DeviceGroup = keyof typeof DEVICE_GROUPS;
export const DEVICE_GROUP_NAMES = Object.keys(DEVICE_GROUPS) as [DeviceGroup, ...DeviceGroup[]];
export const deviceGroupOf = (kind: DeviceKind): DeviceGroup =>
  DEVICE_GROUP_NAMES.find((g) => (DEVICE_GROUPS[g] as readonly DeviceKind[]).includes(kind)) ?? 'security';
/** Kinds a gateway host pairs as sub-devices: the security sensors. */
export const GATEWAY_SUB_DEVICE_KINDS: readonly DeviceKind[] = DEVICE_GROUPS.security;
/** Kinds whose sensor is initialised on an empty bed (forceInitSensor). */
export const SENSOR_INIT_KINDS: readonly DeviceKind[] = ['sleep_monitor'];
/** Kinds with an algorithm mode (updateAlgMode). */
export const ALG_MODE_KINDS: readonly DeviceKind[] = ['sleep_monitor', 'fall_radar'];

export const DEVICE_COMM_MODES = ['wifi', 'nb-iot', '4g', 'zigbee', 'lora', 'ble', 'ethernet'] as const;
export type DeviceCommMode = (typeof DEVICE_COMM_MODES)[number];
/** Commands queued for the device gateway. */
export const DEVICE_COMMANDS = ['restart', 'interval', 'alg_mode', 'force_init', 'ota'] as const;
export type DeviceCommand = (typeof DEVICE_COMMANDS)[number];
export const DEVICE_COMMAND_STATES = [
  'pending',
  'sent',
  'acked',
  'failed',
  'expired',
  'superseded',
  'cancelled',
] as const;
export type DeviceCommandState = (typeof DEVICE_COMMAND_STATES)[number];
/** Device IDs: digits, letters and '-', at most 64, compared case-insensitively (stored upper-case). */
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9-]+$/;
export const DEVICE_ID_MAX = 64;
/** What a device connects with (its MQTT password): 16–128 visible ASCII characters, no spaces. */
export const DEVICE_SECRET_PATTERN = /^[\x21-\x7e]{16,128}$/;
export const DEVICE_SECRET_MIN = 16;
export const DEVICE_SECRET_MAX = 128;
/** Longest device name. */
export const DEVICE_NAME_MAX = 64;
/** Most registry rows one import call takes. */
export const DEVICE_STOCK_IMPORT_MAX = 5000;
/** Highest algorithm mode code (one byte on the wire). */
export const DEVICE_ALG_MODE_MAX = 255;

/**
 * The device states every screen shows, derived in one place on the server (decision 0034).
 * Installed: `bed` linked to a bed; `host` paired with its gateway host; `reporting` online, but
 * at no bed and under no host (a sleep monitor streaming from a bed nobody linked); `none`.
 */
export const DEVICE_INSTALL_STATES = ['bed', 'host', 'reporting', 'none'] as const;
export type DeviceInstallState = (typeof DEVICE_INSTALL_STATES)[number];
/** A gateway sub-device's pairing with its host: `pairing` / `unpairing` while a command is open. */
export const DEVICE_PAIR_STATES = ['paired', 'pairing', 'unpairing', 'unpaired'] as const;
export type DevicePairState = (typeof DEVICE_PAIR_STATES)[number];
/** A sleep monitor's sensor: `initialising` while a sensor initialisation is open and nothing was measured since. */
export const DEVICE_SENSOR_STATES = ['initialised', 'initialising', 'notInitialised'] as const;
export type DeviceSensorState = (typeof DEVICE_SENSOR_STATES)[number];
/** How a device reports its signal (docs/device-protocol.md): negative values are dBm, 0–100 a level in per cent. */
export const SIGNAL_UNITS = ['dBm', 'percent'] as const;
export type SignalUnit = (typeof SIGNAL_UNITS)[number];
export const signalUnitOf = (signal: number | null): SignalUnit | null =>
  signal === null ? null : signal < 0 ? 'dBm' : 'percent';

/** Why a new temporary absence's times are refused (messages absence.<problem>). */
export type AbsenceProblem = 'beforeAdmission' | 'startRange' | 'endBeforeStart' | 'endPast' | 'tooLong';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The times of a new absence, or why they are refused: it starts within the last 24 hours (not
 * before the check-in) or the next 30 days; an expected return (null: until ended by hand) is
 * after the start, in the future and at most 366 days later. The form checks what the server does.
 */
export const absenceTimesProblem = (
  start: Date,
  end: Date | null,
  now: Date,
  admittedAt: Date | null,
): AbsenceProblem | null => {
  const t = now.getTime();
  if (admittedAt && start.getTime() < admittedAt.getTime()) return 'beforeAdmission';
  if (
    start.getTime() < t - RESIDENT_LIMITS.absencePastStartHours * HOUR ||
    start.getTime() > t + RESIDENT_LIMITS.absenceFutureStartDays * DAY
  ) {
    return 'startRange';
  }
  if (end === null) return null;
  if (end.getTime() <= start.getTime()) return 'endBeforeStart';
  if (end.getTime() <= t) return 'endPast';
  if (end.getTime() - start.getTime() > RESIDENT_LIMITS.absenceMaxDays * DAY) return 'tooLong';
  return null;
};

// Sleep reports (issue 11).
export const REPORT_STATES = ['ready', 'computing', 'failed'] as const;
export const INSUFFICIENT_REASONS = ['noData', 'notInBed', 'littleSignal'] as const;
export const AF_RISKS = ['low', 'possible', 'likely'] as const;
export const RISK_GRADES = ['low', 'medium', 'high'] as const;
export const RISK_REASONS = [
  'severeApnea',
  'moderateApnea',
  'afLikely',
  'afPossible',
  'lowHeartRate',
  'highHeartRate',
  'poorSleep',
] as const;
/** Hypnogram codes, one per 30 s: 0 wake, 1 REM, 2 light, 3 deep, 255 unknown (no valid signal or out of bed). */
export const HYPNOGRAM_EPOCH_SECONDS = 30;
export type RiskReasonCode = (typeof RISK_REASONS)[number];
/** Where a resident's sleep settings come from: saved for them, or the platform defaults. */
export const SLEEP_SETTING_SOURCES = ['resident', 'default'] as const;
/** The sleep settings of a resident none were saved for (decision 0027). Bed-leaving is watched
 * all day until someone narrows it: an unwatched night costs more than an extra alarm. */
export const DEFAULT_SLEEP_SETTING = {
  leaveBedMode: 'allDay',
  sleepTime: '21:00',
  wakeTime: '07:00',
  sensitivity: 'medium',
  mattress: 'sponge',
} as const;
