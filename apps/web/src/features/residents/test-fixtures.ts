import type { ResidentDetail, ResidentRow } from './resident-model.ts';

/** Rows and envelopes for the screen tests (never imported by the screens). */
export const residentRow = (over: Partial<ResidentRow> = {}): ResidentRow => ({
  id: 1,
  providerId: 2,
  providerName: 'Sunrise East',
  name: 'Chen Jianguo',
  gender: 0,
  birthDate: '1941-05-12',
  age: 84,
  height: 170,
  weight: 62,
  medicalHistory: [],
  priority: false,
  remark: null,
  state: 'registered',
  admittedAt: null,
  checkedOutAt: null,
  bedId: null,
  bedName: null,
  roomId: null,
  roomName: null,
  floorId: null,
  floorName: null,
  areaId: null,
  areaName: null,
  communityId: null,
  communityName: null,
  contactsCount: 0,
  carers: [],
  away: false,
  createTime: '2026-01-01T02:00:00.000Z',
  ...over,
});

export const residentDetail = (over: Partial<ResidentDetail> = {}): ResidentDetail => ({
  ...residentRow(),
  otherHistory: null,
  loggedOffAt: null,
  contacts: [],
  absence: null,
  updateTime: '2026-01-02T02:00:00.000Z',
  ...over,
});

export interface Envelope {
  status: number;
  msg: string;
  msgKey?: string;
  data: unknown;
}
export const ok = (data: unknown): Envelope => ({ status: 200, msg: 'ok', data });
export const refused = (status: number, msg: string, msgKey: string, data: unknown = null): Envelope => ({
  status,
  msg,
  msgKey,
  data,
});
export const page = (rows: unknown[], total = rows.length) => ({ rows, total, pageNum: 1, pageSize: 10 });
