import { dealResultsFor, type AlarmRecord } from '@vigil/contract/browser';

/**
 * A pending level 2 door alarm in room 102, as /alarmLog/unDeal and the live socket carry it; a
 * test overrides what it is about.
 */
export const alarmRecord = (id: number, over: Partial<AlarmRecord> = {}): AlarmRecord => ({
  id,
  alertRecordId: id,
  type: 'security',
  deviceId: `DEV-${id}`,
  deviceType: 20995,
  alertType: 'DOOR',
  status: 1,
  bunk: null,
  floorArea: 'East Wing / Floor 1',
  room: '102',
  userName: null,
  userId: null,
  alertLevel: 2,
  timeStamp: 1_780_000_000,
  lastTime: 1_780_000_000,
  count: 1,
  duration: 0,
  text: `Room 102 · Device ${id}: alarm`,
  voiceWay: 2,
  isRelieve: false,
  releaseKind: 0,
  relieveReason: null,
  dealResult: null,
  handlerName: null,
  dealTime: null,
  remark: null,
  speechCount: 0,
  speechStartTime: null,
  providerId: 7,
  awaitingAck: false,
  clearedTime: null,
  releaseText: null,
  measure: null,
  measureText: null,
  resultOptions: [],
  ...over,
});

/** Li Wei's pending level 1 fall in Building A / Floor 1 / 101, bed 2 (the alarm-log screens' case). */
export const fallAlarmRecord = (id: number, over: Partial<AlarmRecord> = {}): AlarmRecord =>
  alarmRecord(id, {
    type: 'fall',
    deviceId: 'ED-7001',
    deviceType: 21007,
    alertType: 'FALL',
    bunk: '2',
    floorArea: 'Building A / Floor 1',
    room: '101',
    userName: 'Li Wei',
    userId: 5,
    alertLevel: 1,
    text: 'Building A / Floor 1 / 101 / 2: Li Wei has fallen',
    resultOptions: [...dealResultsFor(over.alertType ?? 'FALL')],
    ...over,
  });
