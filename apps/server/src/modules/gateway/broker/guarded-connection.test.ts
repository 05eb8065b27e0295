import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../../../test/until.ts';
import { GuardedConnection } from './guarded-connection.ts';
import { connectPacket, fixedHeader, publishPacket } from './mqtt-test-support.ts';
import { PendingConnections } from './pending-connections.ts';

const connect = connectPacket({ clientId: 'SLP-0001', username: 'SLP-0001', password: 'a-secret-of-twenty-chars' });

describe('a device connection behind the guard', () => {
  let server: Server | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  /** A socket pair over loopback: the server side wrapped in the guard, and what it reads. */
  const pair = async () => {
    const refusals: { type: number; authenticated: boolean }[] = [];
    const accepted = new Promise<{ guard: GuardedConnection; socket: Socket }>((resolve) => {
      server = createServer((socket) => {
        sockets.push(socket);
        const guard = new GuardedConnection(socket, {
          onRefused: ({ type }, authenticated) => refusals.push({ type, authenticated }),
        });
        resolve({ guard, socket });
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const address = server?.address();
    const client = createConnection({
      host: '127.0.0.1',
      port: typeof address === 'object' ? (address?.port ?? 0) : 0,
    });
    client.on('error', () => undefined);
    sockets.push(client);
    const { guard, socket } = await accepted;
    let read = 0;
    guard.on('data', (chunk: Buffer) => (read += chunk.length));
    guard.on('error', () => undefined);
    return { client, guard, socket, refusals, read: () => read };
  };

  it('reads nothing past the CONNECT until the client has authenticated, then everything', async () => {
    const { client, guard, socket, read } = await pair();
    client.write(connect);
    await until(() => read() >= connect.length);
    // Whatever the client sends now waits in the TCP buffers, not in the server's memory.
    expect(socket.isPaused()).toBe(true);
    const publishes = Array.from({ length: 40 }, (_, i) =>
      publishPacket('vigil/v1/SLP-0001/event', Buffer.alloc(10_000), i + 1),
    );
    const total = connect.length + publishes.reduce((n, p) => n + p.length, 0);
    for (const p of publishes) client.write(p);
    guard.authenticated();
    await until(() => read() === total, { what: 'every byte after authentication' });
  });

  it('closes the connection at a header announcing too much, before and after authentication', async () => {
    const first = await pair();
    const closed = new Promise((resolve) => first.client.once('close', resolve));
    first.client.write(fixedHeader(0x10, 200 * 1024 * 1024));
    await closed;
    expect(first.refusals).toEqual([{ type: 1, authenticated: false }]);
    expect(first.read()).toBe(0);
    await new Promise<void>((resolve) => server?.close(() => resolve()));

    const second = await pair();
    second.client.write(connect);
    await until(() => second.read() >= connect.length);
    second.guard.authenticated();
    const gone = new Promise((resolve) => second.client.once('close', resolve));
    second.client.write(fixedHeader(0x32, 100 * 1024 * 1024));
    await gone;
    expect(second.refusals).toEqual([{ type: 3, authenticated: true }]);
    expect(second.read()).toBe(connect.length);
  });
});

describe('connections not yet authenticated', () => {
  it('are capped per address (an IPv6 /64 as one) and overall, and leave with their last connection', () => {
    const pending = new PendingConnections({ perAddress: 2, overall: 3 });
    expect(pending.admit('203.0.113.9')).toBe(true);
    expect(pending.admit('::ffff:203.0.113.9')).toBe(true);
    expect(pending.admit('203.0.113.9')).toBe(false);
    expect(pending.admit('2001:db8:1:2::1')).toBe(true);
    expect(pending.admit('2001:db8:9::1')).toBe(false);
    pending.release('203.0.113.9');
    expect(pending.admit('2001:db8:1:2::7')).toBe(true);
    expect(pending.admit('2001:db8:1:2::8')).toBe(false);
    expect(pending.pending).toBe(3);
  });

  it('a connection without a known address (behind a trusted proxy) counts only overall', () => {
    const pending = new PendingConnections({ perAddress: 1, overall: 3 });
    expect([pending.admit(undefined), pending.admit(undefined), pending.admit(undefined)]).toEqual([true, true, true]);
    expect(pending.admit(undefined)).toBe(false);
    for (let i = 0; i < 3; i++) pending.release(undefined);
    expect(pending.pending).toBe(0);
  });
});
