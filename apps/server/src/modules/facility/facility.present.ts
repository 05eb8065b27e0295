import { MATTRESSES, type Area, type Bunk, type Mattress, type Room } from '@vigil/contract';
import type { BedView, Counts } from './facility-query.repository.ts';
import type { AreaRow } from './place.repository.ts';

/** Rows of the read models → the wire shapes of the contract. */

const NO_COUNTS: Counts = { bedCount: 0, occupiedCount: 0, deviceCount: 0 };

export const mattressOf = (value: string): Mattress =>
  (MATTRESSES as readonly string[]).includes(value) ? (value as Mattress) : 'sponge';

/** Only the counts: the rows they come from carry their grouping key too, which no answer declares. */
export const countsOf = (c: Counts | undefined): Counts => ({
  bedCount: c?.bedCount ?? NO_COUNTS.bedCount,
  occupiedCount: c?.occupiedCount ?? NO_COUNTS.occupiedCount,
  deviceCount: c?.deviceCount ?? NO_COUNTS.deviceCount,
});

export const addCounts = (a: Counts, b: Counts | undefined): Counts => ({
  bedCount: a.bedCount + (b?.bedCount ?? 0),
  occupiedCount: a.occupiedCount + (b?.occupiedCount ?? 0),
  deviceCount: a.deviceCount + (b?.deviceCount ?? 0),
});

export const withFree = (c: Counts) => ({ ...c, freeCount: c.bedCount - c.occupiedCount });

/** A bed as the calls answer it, with its device's state (null: no device). */
export const toBunk = (v: BedView, deviceState: Bunk['deviceState']): Bunk => ({
  id: v.id,
  providerId: v.providerId,
  providerName: v.providerName,
  areaId: v.areaId,
  areaName: v.areaName,
  floorId: v.floorId,
  floorName: v.floorName,
  roomId: v.roomId,
  roomName: v.roomName,
  name: v.name,
  mattress: mattressOf(v.mattress),
  deviceId: v.deviceId,
  deviceType: v.deviceType,
  deviceOnline: deviceState?.online ?? null,
  deviceState,
  userId: v.userId,
  userName: v.userName,
  remark: v.remark,
  createTime: v.createdAt.toISOString(),
});

export const toRoom = (
  v: {
    id: number;
    providerId: number;
    providerName: string;
    areaId: number;
    areaName: string;
    floorId: number;
    floorName: string;
    name: string;
    remark: string | null;
    createdAt: Date;
  },
  counts: Counts | undefined,
): Room => ({
  id: v.id,
  providerId: v.providerId,
  providerName: v.providerName,
  areaId: v.areaId,
  areaName: v.areaName,
  floorId: v.floorId,
  floorName: v.floorName,
  name: v.name,
  remark: v.remark,
  ...countsOf(counts),
  createTime: v.createdAt.toISOString(),
});

export const toArea = (
  row: AreaRow,
  names: { providerName: string; parentName: string | null },
  totals: Counts & { floorCount: number; roomCount: number },
): Area => ({
  id: row.id,
  providerId: row.providerId,
  providerName: names.providerName,
  parentId: row.parentId,
  parentName: names.parentName,
  level: row.parentId === null ? 'area' : 'floor',
  name: row.name,
  sort: row.sort,
  remark: row.remark,
  floorCount: totals.floorCount,
  roomCount: totals.roomCount,
  bedCount: totals.bedCount,
  occupiedCount: totals.occupiedCount,
  deviceCount: totals.deviceCount,
  createTime: row.createdAt.toISOString(),
});
