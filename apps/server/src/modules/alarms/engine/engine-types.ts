import type { AlarmMeasure, AlarmRules, AlarmType, DeviceKind, ReleaseKind } from '@vigil/contract';

/**
 * A device as the engine judges it at one moment: what it is, whom it watches, and the rules
 * of its bed. The caller (the alarm runner) builds it from the device directory, the bed's
 * occupancy and the settings; the engine never looks anything up.
 */
export interface Subject {
  deviceId: string;
  kind: DeviceKind;
  /** The catalogue's type code and the provider's device row: an alarm is stored with them as they were when decided. */
  typeCode: number;
  deviceRowId: number | null;
  providerId: number | null;
  bedId: number | null;
  residentId: number | null;
  /** Its place's room and floor or area, and the caregiver who wears it (decision 0046). */
  roomId: number | null;
  areaId: number | null;
  caregiverId: number | null;
  /** A resident is checked in to the device's bed (sleep-monitor alarms need one). */
  occupied: boolean;
  /** The resident is on a temporary absence: no bed-leaving alarms. */
  absent: boolean;
  rules: AlarmRules;
}

/** A raise asked of the shared spells: the spell's number and the raises claimed on it so far. */
export interface SpellClaim {
  n: number;
  gen: number;
}

/** An alarm's identity: one open alarm per device and type. */
export interface AlarmKey {
  deviceId: string;
  type: AlarmType;
}

export type Decision =
  | {
      op: 'raise';
      key: AlarmKey;
      subject: Subject;
      /** When the condition began (the event's time; for a duration alarm, when it started). */
      since: Date;
      at: Date;
      /** What the condition measured, for the alarm's text and record (duration in seconds, the value). */
      detail: Record<string, number | string | boolean>;
      /** The figure that raised it, as the consoles, texts and exports show it; null for an event. */
      measure: AlarmMeasure | null;
      /**
       * A new occurrence (a second SOS press, smoke reported again): counted on the open alarm.
       * false for a condition that holds (a spell, offline, low battery): raising it while it is
       * open, as another instance may, changes nothing.
       */
      counts: boolean;
      /**
       * A duration alarm on a spell shared by several instances: raised only once the shared
       * ledger grants this instance the spell's (gen + 1)-th raise (decision 0039).
       */
      claim?: SpellClaim;
    }
  | {
      op: 'release';
      key: AlarmKey;
      subject: Subject;
      at: Date;
      kind: Exclude<ReleaseKind, 0 | 1>;
      /** The condition cleared by itself (no person released it): a latching alarm stays pending until handled. */
      cleared: boolean;
    };

/** What a caregiver's release at her nurse watch names: the alarm she was shown, the device whose alarm it is, or both. */
export interface WatchTarget {
  alarmId: number | null;
  deviceId: string | null;
}

/**
 * A release at a nurse watch of the alarm it names (kind 4). The engine cannot tell which stored
 * alarm that is (an id it never saw; a device another instance follows): the store releases what
 * matches, within the watch's provider only, in one conditional update.
 */
export interface WatchRelease {
  op: 'watch-release';
  /** The watch: its provider is the only one whose alarms it may release. */
  watch: Subject;
  target: WatchTarget;
  /** A device's alarms that began after this were never shown to her: not released (the press, allowing for clocks). */
  startedBy: Date;
  /** What a watch may release: not a device's own faults. */
  types: readonly AlarmType[];
  at: Date;
}

/** What a device event decides: raises and releases, or a release a watch named. */
export type EventDecision = Decision | WatchRelease;

/** One vitals sample of a sleep monitor, as the engine reads it. */
export interface VitalsSample {
  hr: number;
  rr: number;
  inBed: boolean;
  move: number;
  mat?: 'connected' | 'dislodged';
}

/** A stored device event, as the engine reads it. */
export interface EngineEvent {
  /** The protocol's event name, or online | offline. */
  name: string;
  detail: Record<string, unknown>;
  at: Date;
}

/** Converts an instant to the minute of the day (0–1439) where the beds are: time ranges are local. */
export type MinuteOfDay = (at: Date) => number;
