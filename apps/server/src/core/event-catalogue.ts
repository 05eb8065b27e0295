/**
 * Every domain event by name, with the payload it carries (decision 0045). Producers emit and
 * consumers subscribe through these names, so a payload is checked where it is made and where it
 * is read, and no module imports another's service to learn an event's name. Events here are
 * stored (outbox) and relayed to other instances as JSON: payloads hold JSON values only.
 */
import type { AlarmNote } from '@vigil/contract';
import type { alarms } from '../db/schema.ts';

type AlarmRow = typeof alarms.$inferSelect;

/** An alarm as the events carry it: the stored row, times as ISO strings. */
export type AlarmPayload = Omit<
  AlarmRow,
  'startedAt' | 'raisedAt' | 'lastAt' | 'releasedAt' | 'clearedAt' | 'handledAt'
> & {
  startedAt: string;
  raisedAt: string;
  lastAt: string;
  releasedAt: string | null;
  clearedAt: string | null;
  handledAt: string | null;
};

export interface AlarmChanged {
  alarm: AlarmPayload;
  /** Released because its device left the provider (decision 0040): decided afresh where it serves now. */
  deviceLeft?: true;
}

export interface AlarmNoted {
  /** As the /alarmNoteNotify frame carries it. */
  note: AlarmNote;
}

/** Alarm levels, voice ways or a resident's sleep settings changed: engines and consoles reload. */
export interface AlarmSettingsChanged {
  providerId: number;
  residentId?: number;
  residentIds?: number[];
  /** The sleep settings (limits of the bed's watch) changed, not only levels. */
  sleepSettings?: true;
}

export interface ResidentAbsenceChanged {
  residentId: number;
  /** The resident's absences not ended when the change committed (under way or planned), ISO times. */
  absences: { startsAt: string; endsAt: string | null }[];
}

export interface DeviceContextChanged {
  /** Device IDs (upper-case), sorted. */
  deviceIds: string[];
}

export interface DeviceSecretChanged {
  /** Device IDs (upper-case) whose registry entry's secret was set, rotated or removed. */
  deviceIds: string[];
}

export interface BrandingChanged {
  platformName: string;
  logoUrl?: string | null;
}

export interface EventCatalogue {
  'alarm.raised': AlarmChanged;
  'alarm.repeated': AlarmChanged;
  'alarm.released': AlarmChanged;
  'alarm.handled': AlarmChanged;
  /** A person added a note to an alarm's timeline. */
  'alarm.noted': AlarmNoted;
  'alarm.settingsChanged': AlarmSettingsChanged;
  /** A committed change of a resident's temporary absences (decision 0040). */
  'resident.absenceChanged': ResidentAbsenceChanged;
  /** Where devices serve changed: provider, bed, resident or registration (decision 0040). */
  'device.contextChanged': DeviceContextChanged;
  /** A device's secret changed or its registry entry went: every instance forgets the old hash. */
  'device.secretChanged': DeviceSecretChanged;
  'branding.changed': BrandingChanged;
}
export type EventName = keyof EventCatalogue;

export const ALARM_EVENT = {
  raised: 'alarm.raised',
  repeated: 'alarm.repeated',
  released: 'alarm.released',
  handled: 'alarm.handled',
  noted: 'alarm.noted',
} as const satisfies Record<string, EventName>;
export const ALARM_SETTINGS_CHANGED = 'alarm.settingsChanged' satisfies EventName;
export const RESIDENT_ABSENCE_CHANGED = 'resident.absenceChanged' satisfies EventName;
export const DEVICE_CONTEXT_CHANGED = 'device.contextChanged' satisfies EventName;
export const DEVICE_SECRET_CHANGED = 'device.secretChanged' satisfies EventName;
export const BRANDING_CHANGED = 'branding.changed' satisfies EventName;

const EVENT_NAMES: ReadonlySet<string> = new Set<EventName>([
  ...Object.values(ALARM_EVENT),
  ALARM_SETTINGS_CHANGED,
  RESIDENT_ABSENCE_CHANGED,
  DEVICE_CONTEXT_CHANGED,
  DEVICE_SECRET_CHANGED,
  BRANDING_CHANGED,
] satisfies EventName[]);

/** For names read back from storage or another instance: only catalogued events are published. */
export const isEventName = (name: string): name is EventName => EVENT_NAMES.has(name);

/**
 * What is told but never stored: no outbox row, nothing to publish again after a crash. The
 * relay carries it to the other instances while it is up (at most once, as every relayed event).
 */
export interface TransientCatalogue {
  /** POST /websocket/subscribe/: the session's sockets, on every instance, follow these residents. */
  'monitor.sessionFollows': { sessionId: number; userIds: number[] };
}
export type TransientName = keyof TransientCatalogue;
export const SESSION_FOLLOWS = 'monitor.sessionFollows' satisfies TransientName;
export const isTransientName = (name: string): name is TransientName => name === SESSION_FOLLOWS;
