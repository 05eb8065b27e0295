import {
  MONITOR_LIMITS,
  type AlarmRecord,
  type CallParsed,
  type Calls,
  type DeviceState,
  type Language,
  type LiveDevice,
  type LiveResident,
  type LiveStateFilter,
  type LiveVitals,
  type VitalLimits,
  type VitalsMinute,
} from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import { fail } from '../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../core/caller.ts';
import { SESSION_FOLLOWS } from '../../core/event-catalogue.ts';
import type { EventStream } from '../../core/events.ts';
import { listScope, scopeIds } from '../../core/tenant.ts';
import type { Db } from '../../db/database.ts';
import { transact } from '../../db/transactions.ts';
import type { DeviceStateReader } from '../devices/device-state.service.ts';
import { localDate } from '../residents/resident.policy.ts';
import { visible } from '../residents/visible.ts';
import { FocusRepository } from './focus.repository.ts';
import { presentLiveResident } from './live-resident.ts';
import { MonitorQueryRepository, type LiveListQuery, type LiveResidentRow } from './monitor-query.repository.ts';

/** The monitoring lists' residents, as the reports module lists them too. */
export type { LiveListQuery, LiveResidentRow };
import { ResidentPageRepository, type PlacedDevice } from './resident-page.repository.ts';
import { isSleepMonitor } from './sleep-monitors.ts';
import type { VitalsHub } from './vitals-hub.ts';

type ListInput = CallParsed<Calls['monitorUserList']>;

/**
 * A session's new list of followed residents (POST /websocket/subscribe/), for its sockets on
 * every instance: published on the event stream only (not the outbox) and relayed like any event.
 */
/** Filters the database cannot apply: the state lives in memory. */
const LIVE_FILTERS = new Set<LiveStateFilter>(['inBed', 'outOfBed', 'offline']);
const HISTORY_MS = 60 * 60_000;

export interface MonitorServiceDeps {
  db: Db;
  clock: Clock;
  events: EventStream;
  hub: Pick<VitalsHub, 'vitalsOf'>;
  /** The devices module's device states: the resident page shows devices as the device list does. */
  deviceStates: DeviceStateReader;
  alarms: { ofResidentSince(caller: Caller, residentId: number, since: Date, lang: Language): Promise<AlarmRecord[]> };
  /** The heart and breathing rate limits the alarm engine applies to a resident's bed. */
  vitalLimits: (providerId: number, residentId: number) => VitalLimits;
  /** The minute of the day in the installation's time zone (today's alarms start at its midnight). */
  minuteOfDay: (at: Date) => number;
}

/**
 * Live monitoring: the residents of the chosen provider (or the scope) with their live state,
 * an account's focus residents, the resident page, and a session's followed residents.
 */
export class MonitorService {
  private readonly query = new MonitorQueryRepository();
  private readonly focus = new FocusRepository();
  private readonly page = new ResidentPageRepository();

  constructor(private readonly deps: MonitorServiceDeps) {}

  async list(caller: Caller, q: ListInput) {
    const { db } = this.deps;
    const now = this.deps.clock.now();
    const filter: LiveListQuery = {
      providerIds: scopeIds(listScope(caller)),
      keyWord: q.keyWord || undefined,
      areaId: q.areaId,
      communityId: q.communityId,
      openAlarm: q.state === 'alarm',
      sleepMonitor: q.state === 'noDevice' ? false : q.state && LIVE_FILTERS.has(q.state) ? true : undefined,
      now,
    };
    const offset = (q.pageNum - 1) * q.pageSize;
    let page: { rows: LiveResidentRow[]; total: number };
    if (q.state && LIVE_FILTERS.has(q.state)) {
      const state = q.state;
      const all = (await this.query.all(db, filter)).filter((r) => this.isIn(r, state));
      page = { rows: all.slice(offset, offset + q.pageSize), total: all.length };
    } else {
      page = await this.query.page(db, filter, offset, q.pageSize);
    }
    return {
      rows: await this.present(caller, page.rows, now),
      total: page.total,
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    };
  }

  /** Residents in a bed by the list's filters, in its order, unscoped: one page and the total (the report list's). */
  residentsPage(q: LiveListQuery, offset: number, limit: number) {
    return this.query.page(this.deps.db, q, offset, limit);
  }

  /** These residents with where they lie, whatever their state, unscoped (a report's header). */
  residentsByIds(ids: readonly number[], now: Date): Promise<LiveResidentRow[]> {
    return this.query.byIds(this.deps.db, ids, now);
  }

  /** The caller's focus residents the current scope shows, in the order they were added. */
  async focusList(caller: Caller): Promise<{ rows: LiveResident[] }> {
    const { db } = this.deps;
    const now = this.deps.clock.now();
    const ids = await this.focus.residentsOf(db, caller.accountId);
    const scope = listScope(caller);
    const byId = new Map(
      (await this.query.byIds(db, ids, now))
        .filter((r) => canSeeProvider(scope, r.providerId))
        .map((r) => [r.residentId, r]),
    );
    const rows = ids.flatMap((id) => byId.get(id) ?? []);
    return { rows: await this.present(caller, rows, now) };
  }

  /** Adds a focus resident the caller may see; once is enough, and at most MONITOR_LIMITS.maxFocus. */
  async addFocus(caller: Caller, residentId: number): Promise<null> {
    const { db } = this.deps;
    const [row] = await this.query.byIds(db, [residentId], this.deps.clock.now());
    const resident = visible(caller, row);
    await transact(db, async (tx) => {
      await this.focus.lockAccount(tx, caller.accountId);
      if (await this.focus.has(tx, caller.accountId, residentId)) return;
      if ((await this.focus.count(tx, caller.accountId)) >= MONITOR_LIMITS.maxFocus) {
        throw fail('monitor.focusLimit', { max: MONITOR_LIMITS.maxFocus });
      }
      await this.focus.add(tx, {
        accountId: caller.accountId,
        residentId,
        providerId: resident.providerId,
        at: this.deps.clock.now(),
      });
    });
    return null;
  }

  /** Removes a focus resident; one that is not there is no error. */
  async removeFocus(caller: Caller, residentId: number): Promise<null> {
    await this.focus.remove(this.deps.db, caller.accountId, residentId);
    return null;
  }

  /** The resident page: live state, devices around, the last hour minute by minute, today's alarms. */
  async resident(caller: Caller, residentId: number, lang: Language) {
    const { db } = this.deps;
    const now = this.deps.clock.now();
    const [found] = await this.query.byIds(db, [residentId], now);
    const row = visible(caller, found);
    const [resident] = await this.present(caller, [row], now);
    if (!resident) throw new Error('unreachable: one row presented');
    const monitor = resident.vitals?.deviceId;
    const [devices, minutes, alarmsToday] = await Promise.all([
      row.bedId !== null && row.roomId !== null
        ? this.page.devicesAround(db, { bedId: row.bedId, roomId: row.roomId })
        : Promise.resolve([]),
      monitor ? this.page.minutes(db, monitor, new Date(now.getTime() - HISTORY_MS)) : Promise.resolve([]),
      this.deps.alarms.ofResidentSince(caller, residentId, this.startOfToday(now), lang),
    ]);
    const history: VitalsMinute[] = minutes.map((m) => ({
      ts: Math.floor(m.minute.getTime() / 1000),
      heartRate: roundTenth(m.hrAvg),
      breathRate: roundTenth(m.rrAvg),
      inBedSeconds: m.inBedSeconds,
    }));
    const states = await this.deps.deviceStates.answers(devices.map((d) => d.deviceId));
    return {
      resident,
      limits: this.deps.vitalLimits(row.providerId, residentId),
      devices: devices.flatMap((d) => {
        const state = states.get(d.deviceId);
        return state ? [liveDevice(d, state)] : [];
      }),
      history,
      alarmsToday,
    };
  }

  /** Of these residents, those the caller's list scope shows, in the order given, each once. */
  async visibleResidents(caller: Caller, ids: readonly number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    const seen = new Set(await this.query.ofProviders(this.deps.db, unique, scopeIds(listScope(caller))));
    return unique.filter((id) => seen.has(id));
  }

  /** POST /websocket/subscribe/: the session's sockets, on every instance, follow these residents. */
  async followForSession(caller: Caller, ids: readonly number[]): Promise<{ subscribed: number }> {
    const userIds = await this.visibleResidents(caller, ids);
    // Not a stored change: told, not stored; the Redis relay carries it to the other instances.
    this.deps.events.announce({ type: SESSION_FOLLOWS, payload: { sessionId: caller.sessionId, userIds } });
    return { subscribed: userIds.length };
  }

  private vitalsOf(r: LiveResidentRow): LiveVitals | null {
    if (r.deviceId === null || r.deviceType === null || !isSleepMonitor(r.deviceType)) return null;
    return this.deps.hub.vitalsOf(r.residentId, r.deviceId);
  }

  private isIn(r: LiveResidentRow, state: LiveStateFilter): boolean {
    const v = this.vitalsOf(r);
    if (!v) return false;
    if (state === 'offline') return !v.online;
    return v.online && v.inBed === (state === 'inBed');
  }

  private async present(caller: Caller, rows: readonly LiveResidentRow[], now: Date): Promise<LiveResident[]> {
    const { db } = this.deps;
    const ids = rows.map((r) => r.residentId);
    const [alarms, focus] = await Promise.all([
      this.query.openAlarms(db, ids),
      this.focus.among(db, caller.accountId, ids),
    ]);
    const today = localDate(now);
    return rows.map((r) =>
      presentLiveResident(r, {
        vitals: this.vitalsOf(r),
        focus: focus.has(r.residentId),
        openAlarms: alarms.get(r.residentId),
        today,
      }),
    );
  }

  /** Midnight of today in the installation's time zone. */
  private startOfToday(now: Date): Date {
    const minute = Math.floor(now.getTime() / 60_000) * 60_000;
    return new Date(minute - this.deps.minuteOfDay(now) * 60_000);
  }
}

/** A device of the resident's bed or room with its state, as every list shows it (decision 0034). */
const liveDevice = (d: PlacedDevice, state: DeviceState): LiveDevice => ({
  deviceId: d.deviceId,
  deviceType: d.typeCode,
  online: state.online,
  battery: state.battery,
  lastSeen: state.lastSeenTime === null ? null : Math.floor(Date.parse(state.lastSeenTime) / 1000),
  installed: state.installed,
  installState: state.installState,
  paired: state.paired,
  pairState: state.pairState,
  sensorInitialised: state.sensorInitialised,
  sensorState: state.sensorState,
  signal: state.signal,
  signalUnit: state.signalUnit,
});

const roundTenth = (n: number | null): number | null => (n === null ? null : Math.round(n * 10) / 10);
