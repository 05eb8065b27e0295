import type { Clock } from '../../clock.ts';
import type { EventStream } from '../../core/events.ts';
import type { Log } from '../../core/log.ts';
import type { Module } from '../../module.ts';
import type { AlarmService } from '../alarms/alarm.service.ts';
import type { SessionService } from '../auth/session.service.ts';
import { ConsoleSockets } from './console-sockets.ts';

export interface MonitorDeps {
  clock: Clock;
  events: EventStream;
  log: Log;
  sessions: SessionService;
  alarms: AlarmService;
}

/** Real-time monitoring: the console's live socket (its sweep and alarm fan-out are a background part). */
export const buildMonitorModule = (deps: MonitorDeps): Module<{ sockets: ConsoleSockets }, object> => {
  const sockets = new ConsoleSockets({
    clock: deps.clock,
    events: deps.events,
    log: deps.log,
    authenticate: (key) => deps.sessions.authenticateSocketKey(key),
    alarmView: (id) => deps.alarms.view(id),
    present: (view, lang) => deps.alarms.record(view, lang),
    recordConsoleLog: (caller, entry) => deps.alarms.recordConsoleLog(caller, entry),
  });
  return {
    services: { sockets },
    handlers: {},
    parts: [{ name: 'console sockets', start: () => sockets.start(), stop: () => sockets.stop() }],
  };
};
