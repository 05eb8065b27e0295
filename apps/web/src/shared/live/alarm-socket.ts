import {
  MONITOR_LIMITS,
  SOCKET_PATH,
  SOCKET_TIMING,
  type SocketClientFrame,
  type SocketServerFrame,
  type WsLogType,
} from '@vigil/contract/browser';

export type SocketState = 'closed' | 'connecting' | 'open';

/** What the socket needs of the browser, so tests give it fakes. */
export interface SocketEnvironment {
  open: (url: string) => WebSocket;
  setTimeout: (fn: () => void, ms: number) => number;
  clearTimeout: (id: number) => void;
  setInterval: (fn: () => void, ms: number) => number;
  clearInterval: (id: number) => void;
}

/** WebSocket.OPEN, written out: the client also runs where no WebSocket global exists (the server's tests). */
const OPEN = 1;

const browserEnvironment = (): SocketEnvironment => ({
  open: (url) => new WebSocket(url),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms) as unknown as number,
  clearTimeout: (id) => globalThis.clearTimeout(id),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms) as unknown as number,
  clearInterval: (id) => globalThis.clearInterval(id),
});

export interface AlarmSocketOptions {
  /** The socket's address: `/websocket` on this page's host, in the console's language. */
  url: string;
  /** The session's socket key (the login answer's `key`). */
  key: string;
  /** Every frame after a successful /login. */
  onFrame: (frame: Exclude<SocketServerFrame, { path: '/login' | '/hearBeat' }>) => void;
  /** Logged in: the console checks its pending alarms (after every reconnect too). */
  onOpen: () => void;
  onState?: (state: SocketState) => void;
  /** The key was refused: the session ended; the socket stops reconnecting. */
  onRefused?: () => void;
  environment?: SocketEnvironment;
}

/** The socket's address for a page: same host, ws or wss as the page, with the console's language. */
export const socketUrl = (location: { protocol: string; host: string }, lang: string): string =>
  `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${SOCKET_PATH}?lang=${encodeURIComponent(lang)}`;

/**
 * The console's live socket exactly as spec document 2 section 4: closed → connecting → open on
 * a /login answered 200; then a heartbeat every 10 s and a pending-alarm check; on a close,
 * connecting again after 4 s while auto-reconnect is on.
 */
export class AlarmSocket {
  private ws: WebSocket | undefined;
  private state: SocketState = 'closed';
  private heartbeat: number | undefined;
  private reconnect: number | undefined;
  private autoReconnect = false;
  /** The residents whose vitals this socket follows: sent again after every (re)login. */
  private followed: readonly number[] = [];
  private readonly env: SocketEnvironment;

  constructor(private readonly options: AlarmSocketOptions) {
    this.env = options.environment ?? browserEnvironment();
  }

  get current(): SocketState {
    return this.state;
  }

  start(): void {
    this.autoReconnect = true;
    if (this.state === 'closed') this.connect();
  }

  stop(): void {
    this.autoReconnect = false;
    if (this.reconnect !== undefined) this.env.clearTimeout(this.reconnect);
    this.reconnect = undefined;
    this.ws?.close(1000, 'signed out');
    this.closed();
  }

  /** Tells the server what the console did with an alarm (kept on its timeline). */
  log(type: WsLogType, alertRecordId: number): void {
    this.send({ path: '/wsLog', data: { key: this.options.key, msg: { type, alertRecordId } } });
  }

  /**
   * Follows these residents' vitals (`/vitalsNotify`), replacing the list; [] stops. Remembered,
   * so a new connection follows them again once logged in; an unchanged list is not sent again.
   */
  follow(userIds: readonly number[]): void {
    const next = [...new Set(userIds)].sort((a, b) => a - b).slice(0, MONITOR_LIMITS.maxSubscribed);
    if (next.length === this.followed.length && next.every((id, i) => id === this.followed[i])) return;
    this.followed = next;
    if (this.state === 'open') this.sendFollowed();
  }

  private sendFollowed(): void {
    this.send({ path: '/websocket/subscribe/', data: { key: this.options.key, userIds: [...this.followed] } });
  }

  private send(frame: SocketClientFrame): void {
    if (this.ws?.readyState === OPEN) this.ws.send(JSON.stringify(frame));
  }

  private setState(state: SocketState): void {
    if (this.state === state) return;
    this.state = state;
    this.options.onState?.(state);
  }

  private connect(): void {
    this.reconnect = undefined;
    this.setState('connecting');
    const ws = this.env.open(this.options.url);
    this.ws = ws;
    ws.onopen = () => this.send({ path: '/login', data: { key: this.options.key } });
    ws.onmessage = (event: MessageEvent) => this.receive(String(event.data));
    // A refused or failed connection closes next, and the close reconnects.
    ws.onerror = () => undefined;
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.closed();
      if (this.autoReconnect) this.reconnect = this.env.setTimeout(() => this.connect(), SOCKET_TIMING.reconnectMs);
    };
  }

  private closed(): void {
    if (this.heartbeat !== undefined) this.env.clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.setState('closed');
  }

  private receive(text: string): void {
    let frame: SocketServerFrame;
    try {
      frame = JSON.parse(text) as SocketServerFrame;
    } catch {
      return;
    }
    if (frame.path === '/login') {
      if (frame.code !== 200) {
        this.autoReconnect = false;
        this.options.onRefused?.();
        return;
      }
      this.setState('open');
      this.heartbeat = this.env.setInterval(
        () => this.send({ path: '/hearBeat', data: { key: this.options.key, msg: 'ping' } }),
        SOCKET_TIMING.heartbeatMs,
      );
      // A new connection follows nobody: follow again whoever the screens watch.
      if (this.followed.length > 0) this.sendFollowed();
      this.options.onOpen();
      return;
    }
    if (frame.path === '/hearBeat') return;
    this.options.onFrame(frame);
  }
}
