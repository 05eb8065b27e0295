import { ALARM_SOURCE, type AlarmRecord } from '@vigil/contract/browser';

/** A section's entry: one alarm on its own, or the alarms of one room shown together. */
export type AlarmEntry =
  | { kind: 'alarm'; alarm: AlarmRecord }
  | { kind: 'room'; key: string; room: string; floorArea: string | null; alarms: AlarmRecord[] };

/** Alarms of a place rather than of a person: security sensors and call buttons (decision 0046). */
const groupsByRoom = (alarm: AlarmRecord): boolean => {
  const source = ALARM_SOURCE[alarm.alertType];
  return source === 'security' || source === 'call';
};

/**
 * A section's alarms with the security and call alarms of one room gathered where the first of
 * them is (a fire spreads: three smoke alarms in one room are one incident to a caregiver). A room
 * with one such alarm keeps a plain card; every alarm is still handled on its own.
 */
export const groupByRoom = (alarms: readonly AlarmRecord[]): AlarmEntry[] => {
  const keyOf = (a: AlarmRecord) => (a.room && groupsByRoom(a) ? `${a.floorArea ?? ''}\u0000${a.room}` : null);
  const counts = new Map<string, number>();
  for (const alarm of alarms) {
    const key = keyOf(alarm);
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const entries: AlarmEntry[] = [];
  const groups = new Map<string, AlarmRecord[]>();
  for (const alarm of alarms) {
    const key = keyOf(alarm);
    if (!key || (counts.get(key) ?? 0) < 2) {
      entries.push({ kind: 'alarm', alarm });
      continue;
    }
    const group = groups.get(key);
    if (group) group.push(alarm);
    else {
      const members = [alarm];
      groups.set(key, members);
      entries.push({ kind: 'room', key, room: alarm.room ?? '', floorArea: alarm.floorArea, alarms: members });
    }
  }
  return entries;
};
