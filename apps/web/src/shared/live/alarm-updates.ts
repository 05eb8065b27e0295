import type { AlarmRecord } from '@vigil/contract/browser';

type Listener = () => void;

/** How many alarms' latest states are kept: a night's worth of releases, far more than dialogs open. */
const MAX = 500;

/**
 * The latest state the live socket pushed of each alarm (`/userStatusNotify`): released by another
 * console, a nurse watch or the device, or cleared by itself. A dialog open on an alarm reads it
 * to follow what happens to that alarm elsewhere while it is open (issue 29, point 6).
 */
export class AlarmUpdates {
  private readonly latest = new Map<number, AlarmRecord>();
  private readonly listeners = new Set<Listener>();

  get = (id: number): AlarmRecord | undefined => this.latest.get(id);

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  push(record: AlarmRecord): void {
    this.latest.delete(record.id);
    this.latest.set(record.id, record);
    // The oldest first out: a Map iterates in insertion order.
    for (const id of this.latest.keys()) {
      if (this.latest.size <= MAX) break;
      this.latest.delete(id);
    }
    for (const l of this.listeners) l();
  }
}

/**
 * The alarm as someone else left it, if it no longer waits for a handling: released by a person
 * elsewhere, at the device or the watch, or cleared by itself without latching. An alarm that
 * cleared but latches (decision 0035) still waits, and is not "done".
 */
export const doneElsewhere = (alarm: AlarmRecord | null | undefined): AlarmRecord | null =>
  alarm && alarm.isRelieve && !alarm.awaitingAck ? alarm : null;
