import type { LiveResident, LiveVitals } from '@vigil/contract';
import { ageOn } from '../residents/resident.policy.ts';
import type { LiveResidentRow } from './monitor-query.repository.ts';

/** What a monitoring row adds to the stored resident: now, from memory and the open alarms. */
export interface LiveExtras {
  vitals: LiveVitals | null;
  focus: boolean;
  openAlarms: { n: number; level: number } | undefined;
  /** Today's date (YYYY-MM-DD), for the age. */
  today: string;
}

/** "Area / Floor"; a floor without a parent is itself the area. */
export const floorAreaOf = (r: LiveResidentRow): string | null => {
  if (r.floorName === null) return null;
  return r.areaName === null ? r.floorName : `${r.areaName} / ${r.floorName}`;
};

/** A row of the monitoring screens (LiveResidentSchema). */
export const presentLiveResident = (r: LiveResidentRow, extras: LiveExtras): LiveResident => ({
  userId: r.residentId,
  userName: r.name,
  gender: String(r.gender),
  age: r.birthDate ? ageOn(r.birthDate, extras.today) : null,
  bedId: r.bedId,
  bunk: r.bedName,
  room: r.roomName,
  floorArea: floorAreaOf(r),
  communityName: r.communityName,
  away: r.away === true,
  focus: extras.focus,
  vitals: extras.vitals,
  pendingAlarms: extras.openAlarms?.n ?? 0,
  alertLevel: extras.openAlarms ? (extras.openAlarms.level === 1 ? 1 : 2) : null,
});
