import {
  ALARM_SOURCE,
  translate,
  type AlarmLevel,
  type AlarmRecord,
  type AlarmType,
  type DealResult,
  type Language,
  type RelieveReason,
  type VoiceWay,
} from '@vigil/contract';
import type { AlarmView } from './alarm-query.repository.ts';

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** Where an alarm was raised, as its text names it: room and bed, else the device. */
export const placeOf = (view: AlarmView, lang: Language): string => {
  const place = [view.roomName, view.bedName].filter((p): p is string => !!p).join(' ');
  return place || translate(lang, 'alarm.device', { deviceId: view.alarm.deviceId });
};

const textOf = (view: AlarmView, lang: Language, when: 'start' | 'end'): string =>
  translate(lang, `alarm.${when}.${view.alarm.alertType as AlarmType}`, {
    place: placeOf(view, lang),
    who: view.residentName ?? '',
  })
    .replace(/\s{2,}/g, ' ')
    .trim();

/**
 * The alarm's text in a language, as raised: handling or a release never rewrites what happened
 * ("breathing stopped" stays, even once breathing resumed). A recovery has its own text.
 */
export const alarmText = (view: AlarmView, lang: Language): string => textOf(view, lang, 'start');

/** What the condition clearing by itself said ("breathing back to normal"), if it did. */
export const releaseText = (view: AlarmView, lang: Language): string | null =>
  view.alarm.clearedAt ? textOf(view, lang, 'end') : null;

/** An alarm as the console reads it (the spec's record fields, times in 10-digit seconds). */
export const alarmRecord = (
  view: AlarmView,
  lang: Language,
  voiceWayOf: (level: AlarmLevel) => VoiceWay,
  now: Date,
): AlarmRecord => {
  const a = view.alarm;
  const type = a.alertType as AlarmType;
  const open = a.releaseKind === 0;
  const measured = typeof a.detail.duration === 'number' ? a.detail.duration : undefined;
  const level = (a.level === 1 ? 1 : 2) as AlarmLevel;
  return {
    id: a.id,
    alertRecordId: a.id,
    type: ALARM_SOURCE[type],
    deviceId: a.deviceId,
    deviceType: a.deviceType,
    alertType: type,
    status: type === 'CONNECTION' ? (open ? 0 : 1) : open ? 1 : 0,
    bunk: view.bedName,
    floorArea: [view.areaName, view.floorName].filter((p): p is string => !!p).join(' / ') || null,
    room: view.roomName,
    userName: view.residentName,
    userId: a.residentId,
    alertLevel: level,
    timeStamp: seconds(a.raisedAt),
    lastTime: seconds(a.lastAt),
    count: a.count,
    // Cleared by itself: how long the condition lasted ("lasted 45 s"); else as long as it held when raised.
    duration: a.clearedAt
      ? Math.max(0, seconds(a.clearedAt) - seconds(a.startedAt))
      : (measured ?? Math.max(0, seconds(a.releasedAt ?? now) - seconds(a.startedAt))),
    text: alarmText(view, lang),
    voiceWay: voiceWayOf(level),
    isRelieve: !open,
    releaseKind: a.releaseKind as AlarmRecord['releaseKind'],
    relieveReason: a.relieveReason as RelieveReason | null,
    dealResult: a.dealResult as DealResult | null,
    handlerName: a.handlerName,
    dealTime: a.handledAt ? seconds(a.handledAt) : a.releasedAt ? seconds(a.releasedAt) : null,
    remark: a.remark,
    speechCount: 0,
    speechStartTime: null,
    providerId: a.providerId,
    awaitingAck: a.awaitingAck,
    clearedTime: a.clearedAt ? seconds(a.clearedAt) : null,
    releaseText: releaseText(view, lang),
  };
};
