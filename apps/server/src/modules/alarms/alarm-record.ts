import {
  ALARM_SOURCE,
  dealResultsFor,
  deviceTypeByCode,
  isNumberedRoom,
  translate,
  type AlarmLevel,
  type AlarmMeasure,
  type AlarmRecord,
  type AlarmType,
  type DealResult,
  type Language,
  type RelieveReason,
  type VoiceWay,
} from '@vigil/contract';
import type { AlarmView } from './alarm-query.repository.ts';

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** A room named by a number ("102") reads "Room 102"; a room with a name of its own keeps it. */
const roomText = (room: string, lang: Language): string =>
  isNumberedRoom(room) ? translate(lang, 'alarm.place.room', { room }) : room;

/** Who the alarm is about: the resident at its place, or the caregiver who wears the watch. */
const personOf = (view: AlarmView): string | null => view.residentName ?? view.caregiverName;

/**
 * Where an alarm was raised, as its text leads with it (decision 0046): the room and bed ("102 A",
 * digits Chinese speech reads as today), the room alone ("Room 102"), else the floor or area,
 * else the person who wears the device; then the device's own name ("Bathroom door"). A device
 * without a place is named by its ID.
 */
export const placeOf = (view: AlarmView, lang: Language): string => {
  const where =
    view.roomName && view.bedName
      ? `${view.roomName} ${view.bedName}`
      : view.roomName
        ? roomText(view.roomName, lang)
        : (view.floorName ?? view.areaName ?? personOf(view));
  // A bed's own monitor or radar is the bed: its name would say nothing more.
  const kind = deviceTypeByCode(view.alarm.deviceType)?.kind;
  const named = kind === 'sleep_monitor' || kind === 'fall_radar' ? null : view.deviceName;
  const parts = [where, named].filter((p): p is string => !!p);
  return parts.length ? parts.join(' · ') : translate(lang, 'alarm.device', { deviceId: view.alarm.deviceId });
};

const textOf = (view: AlarmView, lang: Language, when: 'start' | 'end'): string => {
  const place = placeOf(view, lang);
  const person = personOf(view);
  // A place that is already the person (a badge of a resident without a bed) does not name them twice.
  const who = person && !place.startsWith(person) ? person : '';
  return translate(lang, `alarm.${when}.${view.alarm.alertType as AlarmType}`, { place, who })
    .replace(/\s{2,}/g, ' ')
    .trim();
};

/**
 * The alarm's text in a language, as raised: handling or a release never rewrites what happened
 * ("breathing stopped" stays, even once breathing resumed). A recovery has its own text.
 */
export const alarmText = (view: AlarmView, lang: Language): string => textOf(view, lang, 'start');

/** What the condition clearing by itself said ("breathing back to normal"), if it did. */
export const releaseText = (view: AlarmView, lang: Language): string | null =>
  view.alarm.clearedAt ? textOf(view, lang, 'end') : null;

/** "45 s", "2 min 5 s" (under 10 min), "12 min", "1 h 30 min": how long a condition had held. */
export const durationText = (seconds: number, lang: Language): string => {
  if (seconds < 60) return translate(lang, 'alarm.measure.seconds', { s: seconds });
  if (seconds < 600 && seconds % 60)
    return translate(lang, 'alarm.measure.minutesSeconds', { min: Math.floor(seconds / 60), s: seconds % 60 });
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return translate(lang, 'alarm.measure.minutes', { min: minutes });
  const h = Math.floor(minutes / 60);
  const min = minutes % 60;
  return min
    ? translate(lang, 'alarm.measure.hoursMinutes', { h, min })
    : translate(lang, 'alarm.measure.hours', { h });
};

/**
 * The figure in words: "heart rate 58 /min · below the limit 75 · for 2 min", what the consoles,
 * the SMS and the export show (decision 0036). Null for an alarm without one (a fall, a button).
 */
export const measureText = (measure: AlarmMeasure | null, lang: Language): string | null => {
  if (!measure) return null;
  const parts: string[] = [];
  if (measure.quantity && measure.value !== null)
    parts.push(translate(lang, `alarm.measure.${measure.quantity}`, { value: Math.round(measure.value) }));
  if (measure.side && measure.limit !== null)
    parts.push(translate(lang, `alarm.measure.${measure.side}`, { limit: measure.limit }));
  if (measure.seconds)
    parts.push(translate(lang, 'alarm.measure.for', { duration: durationText(measure.seconds, lang) }));
  return parts.length ? parts.join(' · ') : null;
};

/** The alarm's text with its figure, for a message read away from the console (SMS, chat). */
export const alarmMessage = (view: AlarmView, lang: Language): string => {
  const text = alarmText(view, lang);
  const measure = measureText(view.alarm.measure, lang);
  return measure ? translate(lang, 'alarm.withMeasure', { text, measure }) : text;
};

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
    userName: personOf(view),
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
    measure: a.measure,
    measureText: measureText(a.measure, lang),
    resultOptions: [...dealResultsFor(type)],
  };
};
