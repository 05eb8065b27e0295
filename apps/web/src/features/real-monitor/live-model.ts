import type { AlarmRecord, AlarmType, CallName, LiveResident } from '@vigil/contract/browser';
import dayjs from 'dayjs';
import { residentLivePath } from '../../shared/live/alarm-links.ts';

/** What a resident is doing now, as the monitoring screens show it. */
export type LiveStatus = 'inBed' | 'outOfBed' | 'offline' | 'away' | 'noDevice' | 'unknown' | 'upgrading';

/**
 * Away first (the bed is empty on purpose), then no monitor, a firmware upgrade (monitoring
 * paused, the monitor may be restarting), offline, and what the monitor senses.
 */
export const liveStatusOf = (resident: Pick<LiveResident, 'away' | 'vitals'>): LiveStatus => {
  const { away, vitals } = resident;
  if (away) return 'away';
  if (!vitals) return 'noDevice';
  if (vitals.upgrading) return 'upgrading';
  if (!vitals.online) return 'offline';
  if (vitals.inBed === null) return 'unknown';
  return vitals.inBed ? 'inBed' : 'outOfBed';
};

export const STATUS_COLOURS: Readonly<Record<LiveStatus, string>> = {
  inBed: 'green',
  outOfBed: 'orange',
  offline: 'default',
  away: 'blue',
  noDevice: 'default',
  unknown: 'default',
  upgrading: 'purple',
};

/** A measured rate; a dash when not measured (null or 0). */
export const rateText = (value: number | null | undefined): string => (value ? String(Math.round(value)) : '—');

/** A rate worth showing live: only while the monitor is online and measuring. */
export const liveRate = (resident: LiveResident, rate: 'heartRate' | 'breathRate'): number | null =>
  resident.vitals?.online ? resident.vitals[rate] : null;

/** Room and bed ("101 / 2"), or null when the resident has no bed. */
export const bedOf = (resident: Pick<LiveResident, 'room' | 'bunk'>): string | null =>
  [resident.room, resident.bunk].filter(Boolean).join(' / ') || null;

/** Area, floor, room and bed. */
export const placeOf = (resident: Pick<LiveResident, 'floorArea' | 'room' | 'bunk'>): string | null =>
  [resident.floorArea, resident.room, resident.bunk].filter(Boolean).join(' / ') || null;

/** A sample's moment, to the second (samples come every few seconds). */
export const sampleTime = (seconds: number | null | undefined): string =>
  seconds ? dayjs.unix(seconds).format('HH:mm:ss') : '—';

export const RESIDENT_LIST_PATH = '/realMonitor/residentList';
export const residentPath = residentLivePath;

/** What a change of the focus residents makes stale. */
export const FOCUS_TOUCHES = ['focusUsers', 'monitorUserList', 'residentLive'] as const satisfies readonly CallName[];

/** Alarms about one rate, marked on its chart only; every other alarm is marked on both. */
const RATE_ALARMS: Readonly<Record<'heartRate' | 'breathRate', readonly AlarmType[]>> = {
  heartRate: ['HEART_ABNORMAL'],
  breathRate: ['BREATH_ABNORMAL', 'BREATH_STOP'],
};
const OTHER_RATE = { heartRate: 'breathRate', breathRate: 'heartRate' } as const;

/** The resident's alarms a rate's chart marks: its own, and those about neither rate. */
export const alarmMarks = (alarms: readonly AlarmRecord[], rate: 'heartRate' | 'breathRate') =>
  alarms
    .filter((a) => !RATE_ALARMS[OTHER_RATE[rate]].includes(a.alertType))
    .map((a) => ({ at: a.timeStamp * 1000, level: a.alertLevel, text: a.text }));
