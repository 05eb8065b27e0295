import type { Clock } from '../../clock.ts';
import type { Part } from '../../core/lifecycle.ts';
import type { EventStream } from '../../core/events.ts';
import type { Log } from '../../core/log.ts';
import type { Db } from '../../db/database.ts';
import type { Module } from '../../module.ts';
import type { AlarmService } from '../alarms/alarm.service.ts';
import { minuteOfDayIn } from '../alarms/local-time.ts';
import type { SessionService } from '../auth/session.service.ts';
import type { DeviceGateway, LiveStateStore } from '../gateway/index.ts';
import type { DeviceStateReader } from '../devices/device-state.service.ts';
import { ConsoleSockets } from './console-sockets.ts';
import { monitorHandlers } from './monitor.routes.ts';
import { MonitorService, type MonitorServiceDeps } from './monitor.service.ts';
import { VitalsHub } from './vitals-hub.ts';
import { RedisVitalsRelay } from './vitals-relay.ts';

export interface MonitorDeps {
  db: Db;
  clock: Clock;
  events: EventStream;
  log: Log;
  sessions: SessionService;
  alarms: AlarmService;
  /** The heart and breathing rate limits the alarm engine applies to a resident's bed (the charts' bands). */
  vitalLimits: MonitorServiceDeps['vitalLimits'];
  gateway: Pick<DeviceGateway, 'feed' | 'directory'>;
  live: LiveStateStore;
  /** The devices module's front door to device state (decision 0034). */
  deviceStates: DeviceStateReader;
  timeZone: string;
  /** Set with several instances: vitals are exchanged over Redis. */
  redisUrl?: string | undefined;
}

/**
 * Real-time monitoring: the monitoring calls, the vitals hub on the gateway's feed (and the
 * Redis vitals channel with several instances), and the console's live socket. Background
 * parts: the hub first, then the relay, then the sockets (stopped in reverse).
 */
export const buildMonitorModule = (
  deps: MonitorDeps,
): Module<
  { sockets: ConsoleSockets; monitor: MonitorService; vitals: VitalsHub; relay: RedisVitalsRelay | undefined },
  ReturnType<typeof monitorHandlers>
> => {
  const vitals = new VitalsHub({
    feed: deps.gateway.feed,
    directory: deps.gateway.directory,
    live: deps.live,
    clock: deps.clock,
    log: deps.log,
  });
  const monitor = new MonitorService({
    db: deps.db,
    clock: deps.clock,
    events: deps.events,
    hub: vitals,
    deviceStates: deps.deviceStates,
    alarms: deps.alarms,
    vitalLimits: deps.vitalLimits,
    minuteOfDay: minuteOfDayIn(deps.timeZone),
  });
  const sockets = new ConsoleSockets({
    clock: deps.clock,
    events: deps.events,
    log: deps.log,
    authenticate: (key) => deps.sessions.authenticateSocketKey(key),
    alarmView: (id) => deps.alarms.view(id),
    present: (view, lang) => deps.alarms.record(view, lang),
    recordConsoleLog: (caller, entry) => deps.alarms.recordConsoleLog(caller, entry),
    vitals,
    visibleResidents: (caller, ids) => monitor.visibleResidents(caller, ids),
  });
  const relay = deps.redisUrl ? new RedisVitalsRelay(deps.redisUrl, vitals, deps.log) : undefined;
  const parts: Part[] = [
    { name: 'vitals hub', start: () => vitals.start(), stop: () => vitals.stop() },
    ...(relay ? [{ name: 'redis vitals relay', start: () => relay.start(), stop: () => relay.stop() }] : []),
    { name: 'console sockets', start: () => sockets.start(), stop: () => sockets.stop() },
  ];
  return { services: { sockets, monitor, vitals, relay }, handlers: monitorHandlers(monitor), parts };
};
