import {
  MEDICAL_HISTORY,
  type MedicalCondition,
  type ResidentDetail,
  type ResidentRow,
  type ResidentState,
} from '@vigil/contract';
import type { AbsenceRecord } from './absence.repository.ts';
import type { ResidentJoinedRow } from './resident-query.repository.ts';
import type { ContactRecord } from './resident.repository.ts';
import { ageOn, isActive } from './resident.policy.ts';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const KNOWN = new Set<string>(MEDICAL_HISTORY);

/** The wire form of an absence. */
export const presentAbsence = (a: AbsenceRecord, now: Date) => ({
  id: a.id,
  startTime: a.startsAt.toISOString(),
  endTime: iso(a.endsAt),
  reason: a.reason,
  active: isActive(a, now),
});

/** A list row: the resident with bed, address path (area → floor → room), community, contacts count and carers. */
export const presentRow = (
  r: ResidentJoinedRow,
  carers: { id: number; name: string }[],
  today: string,
): ResidentRow => {
  const res = r.resident;
  // Rooms hang under floors; a floor without a parent is itself the area.
  const floorIsArea = r.floorId !== null && r.floorParentId === null;
  return {
    id: res.id,
    providerId: res.providerId,
    providerName: r.providerName,
    name: res.name,
    gender: res.gender === 1 ? 1 : 0,
    birthDate: res.birthDate,
    age: res.birthDate ? ageOn(res.birthDate, today) : null,
    height: res.height,
    weight: res.weight,
    medicalHistory: res.medicalHistory.filter((m): m is MedicalCondition => KNOWN.has(m)),
    priority: res.priority,
    remark: res.remark,
    state: res.state as ResidentState,
    admittedAt: iso(res.admittedAt),
    checkedOutAt: iso(res.checkedOutAt),
    bedId: r.bedId,
    bedName: r.bedName,
    roomId: r.roomId,
    roomName: r.roomName,
    floorId: floorIsArea ? null : r.floorId,
    floorName: floorIsArea ? null : r.floorName,
    areaId: floorIsArea ? r.floorId : r.areaId,
    areaName: floorIsArea ? r.floorName : r.areaName,
    communityId: res.communityId,
    communityName: r.communityName,
    contactsCount: r.contactsCount,
    carers,
    away: r.away === true,
    createTime: res.createdAt.toISOString(),
  };
};

export const presentDetail = (
  r: ResidentJoinedRow,
  carers: { id: number; name: string }[],
  contacts: ContactRecord[],
  absence: AbsenceRecord | undefined,
  today: string,
  now: Date,
): ResidentDetail => ({
  ...presentRow(r, carers, today),
  otherHistory: r.resident.otherHistory,
  loggedOffAt: iso(r.resident.loggedOffAt),
  contacts: contacts.map((c) => ({
    id: c.id,
    name: c.name,
    phone: c.phone,
    relation: c.relation as 'child' | 'friend' | 'relative',
  })),
  absence: absence ? presentAbsence(absence, now) : null,
  updateTime: r.resident.updatedAt.toISOString(),
});
