import { MONITOR_LIMITS, SOCKET_TIMING } from '@vigil/contract/browser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AlarmSocket, socketUrl, type SocketEnvironment, type SocketState } from './alarm-socket.ts';

/** A WebSocket the test drives: what the console sent, and the server's side of it. */
class FakeSocket {
  readyState = 0;
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = 3;
  }
  serverOpens() {
    this.readyState = 1;
    this.onopen?.();
  }
  serverSays(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  serverCloses() {
    this.readyState = 3;
    this.onclose?.();
  }
}

const setup = () => {
  vi.useFakeTimers();
  const sockets: FakeSocket[] = [];
  const env: SocketEnvironment = {
    open: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s as unknown as WebSocket;
    },
    setTimeout: (fn, ms) => setTimeout(fn, ms) as unknown as number,
    clearTimeout: (id) => clearTimeout(id),
    setInterval: (fn, ms) => setInterval(fn, ms) as unknown as number,
    clearInterval: (id) => clearInterval(id),
  };
  const states: SocketState[] = [];
  const frames: unknown[] = [];
  const opened = vi.fn();
  const refused = vi.fn();
  const socket = new AlarmSocket({
    url: 'ws://x/websocket',
    key: 'KEY',
    onFrame: (f) => frames.push(f),
    onOpen: opened,
    onState: (s) => states.push(s),
    onRefused: refused,
    environment: env,
  });
  return { sockets, socket, states, frames, opened, refused };
};

afterEach(() => {
  vi.useRealTimers();
});

describe('AlarmSocket', () => {
  it('logs in with the key, opens on 200, beats every 10 s and checks the pending alarms', () => {
    const t = setup();
    t.socket.start();
    const [ws] = t.sockets;
    ws?.serverOpens();
    expect(ws?.sent).toEqual([{ path: '/login', data: { key: 'KEY' } }]);
    expect(t.socket.current).toBe('connecting');
    ws?.serverSays({ path: '/login', code: 200 });
    expect(t.states).toEqual(['connecting', 'open']);
    expect(t.opened).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(SOCKET_TIMING.heartbeatMs * 2);
    expect(ws?.sent.slice(1)).toEqual([
      { path: '/hearBeat', data: { key: 'KEY', msg: 'ping' } },
      { path: '/hearBeat', data: { key: 'KEY', msg: 'ping' } },
    ]);
    ws?.serverSays({ path: '/alertNotify', data: { id: 1 } });
    expect(t.frames).toEqual([{ path: '/alertNotify', data: { id: 1 } }]);
    t.socket.log('playAlarm', 1);
    expect(ws?.sent.at(-1)).toEqual({
      path: '/wsLog',
      data: { key: 'KEY', msg: { type: 'playAlarm', alertRecordId: 1 } },
    });
    t.socket.stop();
  });

  it('reconnects 4 s after a close, and checks the pending alarms again once logged in', () => {
    const t = setup();
    t.socket.start();
    t.sockets[0]?.serverOpens();
    t.sockets[0]?.serverSays({ path: '/login', code: 200 });
    t.sockets[0]?.serverCloses();
    expect(t.socket.current).toBe('closed');
    vi.advanceTimersByTime(SOCKET_TIMING.reconnectMs - 1);
    expect(t.sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(t.sockets).toHaveLength(2);
    t.sockets[1]?.serverOpens();
    t.sockets[1]?.serverSays({ path: '/login', code: 200 });
    expect(t.opened).toHaveBeenCalledTimes(2);
    // No heartbeat of the old socket is left running.
    vi.advanceTimersByTime(SOCKET_TIMING.heartbeatMs);
    expect(t.sockets[0]?.sent.filter((f) => (f as { path: string }).path === '/hearBeat')).toEqual([]);
    t.socket.stop();
  });

  it('stops reconnecting when the key is refused (the session ended) or when stopped', () => {
    const t = setup();
    t.socket.start();
    t.sockets[0]?.serverOpens();
    t.sockets[0]?.serverSays({ path: '/login', code: 401 });
    t.sockets[0]?.serverCloses();
    vi.advanceTimersByTime(SOCKET_TIMING.reconnectMs * 3);
    expect(t.sockets).toHaveLength(1);
    expect(t.refused).toHaveBeenCalled();
  });

  it('follows residents once logged in, again after every reconnect, and not twice for the same list', () => {
    const t = setup();
    const subscribes = (ws: FakeSocket | undefined) =>
      ws?.sent.filter((f) => (f as { path: string }).path === '/websocket/subscribe/');
    // Chosen before the socket is open: remembered, sent once logged in.
    t.socket.follow([7, 3, 7]);
    t.socket.start();
    t.sockets[0]?.serverOpens();
    expect(subscribes(t.sockets[0])).toEqual([]);
    t.sockets[0]?.serverSays({ path: '/login', code: 200 });
    expect(subscribes(t.sockets[0])).toEqual([
      { path: '/websocket/subscribe/', data: { key: 'KEY', userIds: [3, 7] } },
    ]);
    t.socket.follow([3, 7]);
    t.socket.follow([7, 3]);
    expect(subscribes(t.sockets[0])).toHaveLength(1);
    t.socket.follow([3, 7, 9]);
    expect(subscribes(t.sockets[0])?.at(-1)).toEqual({
      path: '/websocket/subscribe/',
      data: { key: 'KEY', userIds: [3, 7, 9] },
    });

    t.sockets[0]?.serverCloses();
    t.socket.follow([9]);
    vi.advanceTimersByTime(SOCKET_TIMING.reconnectMs);
    t.sockets[1]?.serverOpens();
    t.sockets[1]?.serverSays({ path: '/login', code: 200 });
    expect(subscribes(t.sockets[1])).toEqual([{ path: '/websocket/subscribe/', data: { key: 'KEY', userIds: [9] } }]);
    // [] stops following.
    t.socket.follow([]);
    expect(subscribes(t.sockets[1])?.at(-1)).toEqual({
      path: '/websocket/subscribe/',
      data: { key: 'KEY', userIds: [] },
    });
    t.socket.stop();
  });

  it('never follows more residents than a socket may', () => {
    const t = setup();
    t.socket.start();
    t.sockets[0]?.serverOpens();
    t.sockets[0]?.serverSays({ path: '/login', code: 200 });
    t.socket.follow(Array.from({ length: MONITOR_LIMITS.maxSubscribed + 5 }, (_, i) => i + 1));
    const frame = t.sockets[0]?.sent.at(-1) as { data: { userIds: number[] } };
    expect(frame.data.userIds).toHaveLength(MONITOR_LIMITS.maxSubscribed);
    t.socket.stop();
  });

  it('speaks to this page’s host, wss under https, in the console’s language', () => {
    expect(socketUrl({ protocol: 'https:', host: 'care.example:8443' }, 'zh-CN')).toBe(
      'wss://care.example:8443/websocket?lang=zh-CN',
    );
    expect(socketUrl({ protocol: 'http:', host: 'localhost:8080' }, 'en-US')).toBe(
      'ws://localhost:8080/websocket?lang=en-US',
    );
  });
});
