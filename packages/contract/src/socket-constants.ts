/** The live socket's constants, without zod, for the console (the frames' schemas are in socket.ts). */

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
} as const;

export const WS_LOG_TYPES = ['newAlarm', 'relieveAlarm', 'playAlarm'] as const;
export type WsLogType = (typeof WS_LOG_TYPES)[number];
