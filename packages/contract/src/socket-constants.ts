/** The live socket's constants, without zod, for the console (the frames' schemas are in socket.ts). */
import type { CallName } from './catalogue.ts';

/** Where the socket is served (HTTP upgrade on the API's port). */
export const SOCKET_PATH = '/websocket';

export const SOCKET_TIMING = {
  /** The console sends /hearBeat this often. */
  heartbeatMs: 10_000,
  /** The server closes a socket that sent nothing for this long. */
  silentCloseMs: 30_000,
  /** A socket must send /login within this time of opening. */
  loginWithinMs: 10_000,
  /** The console reconnects this long after a close. */
  reconnectMs: 4_000,
} as const;

/** WebSocket close codes the server uses. */
export const SOCKET_CLOSE = {
  /** The session behind the key ended (logout, expiry, password change, account or provider disabled). */
  sessionEnded: 4401,
  /** No /login in time, or silent too long. */
  timeout: 4408,
  /** The server is shutting down: reconnect (to another instance). */
  goingAway: 1001,
  /** The session could not be checked now (the database is unreachable): reconnect and log in again. */
  tryAgainLater: 1013,
} as const;

export const WS_LOG_TYPES = ['newAlarm', 'relieveAlarm', 'playAlarm'] as const;
export type WsLogType = (typeof WS_LOG_TYPES)[number];

/** What `/dataChange` names: a kind of setting that changed. */
export const DATA_CHANGES = ['alarmSettings'] as const;
export type DataChange = (typeof DATA_CHANGES)[number];

/** The calls whose answers an alarm's arrival or release changes. */
const ALARM_VIEWS = [
  'alarmLogUnDeal',
  'alertFlag',
  'alarmTimeline',
  'monitorUserList',
  'focusUsers',
  'residentLive',
] as const satisfies readonly CallName[];

/**
 * The calls whose answers a pushed frame makes stale: a console reloads exactly these (by the
 * calls' paths) instead of guessing. Kept beside the frames so a new call or frame is placed here.
 */
export const FRAME_TOUCHES = {
  '/alertNotify': ALARM_VIEWS,
  '/safeAlertNotify': ALARM_VIEWS,
  '/userStatusNotify': [...ALARM_VIEWS, 'alarmLog'],
  '/checkAlarm': ['alarmLogUnDeal', 'alertFlag'],
  '/alarmNoteNotify': ['alarmTimeline'],
} as const satisfies Record<string, readonly CallName[]>;

/** The calls whose answers a `/dataChange` of each kind makes stale. */
export const DATA_CHANGE_TOUCHES = {
  alarmSettings: ['queryAlertLevel', 'bedAlarmSetting', 'residentLive'],
} as const satisfies Record<DataChange, readonly CallName[]>;
