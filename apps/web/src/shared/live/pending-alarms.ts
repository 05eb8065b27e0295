import type { AlarmRecord } from '@vigil/contract/browser';
import { pendingAlarmsKey } from '../storage.ts';

/** At most this many pending alarms are kept (the pending check's page size). */
const MAX = 1_000;

type Listener = () => void;

/**
 * The console's pending alarms of one provider, newest first, kept in the spec's storage key
 * `pendingAlarms_<providerId>` so a reload shows them at once; the socket adds and releases,
 * the pending check (/checkAlarm, reconnect) replaces them with the server's list.
 */
export class PendingAlarms {
  private alarms: AlarmRecord[];
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly providerId: number | string,
    private readonly storage: Pick<Storage, 'getItem' | 'setItem'> = window.localStorage,
  ) {
    this.alarms = this.load();
  }

  list = (): AlarmRecord[] => this.alarms;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** A new alarm; true when it was not known yet. */
  add(record: AlarmRecord): boolean {
    const known = this.alarms.some((a) => a.id === record.id);
    this.set([record, ...this.alarms.filter((a) => a.id !== record.id)]);
    return !known;
  }

  /**
   * A pending alarm changed without leaving the list: its condition cleared by itself but it
   * latches until handled (decision 0035). Kept (or added, if this console missed it), updated.
   */
  settle(record: AlarmRecord): void {
    this.set([record, ...this.alarms.filter((a) => a.id !== record.id)]);
  }

  release(id: number): boolean {
    if (!this.alarms.some((a) => a.id === id)) return false;
    this.set(this.alarms.filter((a) => a.id !== id));
    return true;
  }

  replace(records: readonly AlarmRecord[]): void {
    this.set([...records]);
  }

  private set(alarms: AlarmRecord[]): void {
    this.alarms = alarms.sort((a, b) => b.timeStamp - a.timeStamp || b.id - a.id).slice(0, MAX);
    try {
      this.storage.setItem(pendingAlarmsKey(this.providerId), JSON.stringify(this.alarms));
    } catch {
      // Storage full or blocked: the list lives in memory until the next pending check.
    }
    for (const l of this.listeners) l();
  }

  private load(): AlarmRecord[] {
    try {
      const raw = this.storage.getItem(pendingAlarmsKey(this.providerId));
      const parsed = raw ? (JSON.parse(raw) as unknown) : [];
      return Array.isArray(parsed) ? (parsed as AlarmRecord[]) : [];
    } catch {
      return [];
    }
  }
}
