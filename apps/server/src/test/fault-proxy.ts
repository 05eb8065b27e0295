import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a service (PostgreSQL, Redis, an MQTT broker) that a test or a drill
 * can take down and bring back as the service itself would go: `down()` resets every open
 * connection and stops listening, so new ones are refused; `up()` listens again on the same
 * port. The real service stays up for everything else on the machine.
 */
export class FaultProxy {
  private server: Server | undefined;
  private readonly open = new Set<Socket>();
  /** Connections made through the proxy so far (to see that clients came back). */
  connections = 0;

  /** The port it listens on, the same after every `up()`. */
  port = 0;

  private constructor(private readonly target: { host: string; port: number }) {}

  /** Starts a proxy to `target` on a free port (or `port`). */
  static async start(target: { host: string; port: number }, port = 0): Promise<FaultProxy> {
    const proxy = new FaultProxy(target);
    proxy.port = await proxy.listen(port);
    return proxy;
  }

  /** A proxy to the host and port of a service's URL. */
  static async to(url: string): Promise<FaultProxy> {
    const parsed = new URL(url);
    const defaults: Record<string, number> = { 'postgres:': 5432, 'postgresql:': 5432, 'redis:': 6379, 'mqtt:': 1883 };
    return FaultProxy.start({ host: parsed.hostname, port: Number(parsed.port) || (defaults[parsed.protocol] ?? 0) });
  }

  /** A URL with its host and port replaced by the proxy's (postgres://, redis://, mqtt://). */
  static via(url: string, proxy: FaultProxy): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(proxy.port);
    return parsed.toString();
  }

  get isUp(): boolean {
    return this.server !== undefined;
  }

  /** The service goes away: open connections are reset, new ones refused. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.open) socket.resetAndDestroy();
    this.open.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The service is back on the same port. */
  async up(): Promise<void> {
    if (!this.server) await this.listen(this.port);
  }

  async close(): Promise<void> {
    await this.down();
  }

  private listen(port: number): Promise<number> {
    const server = createServer((client) => {
      this.connections++;
      const upstream = createConnection(this.target);
      for (const socket of [client, upstream]) {
        this.open.add(socket);
        socket.on('close', () => this.open.delete(socket));
        socket.on('error', () => undefined);
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as { port: number }).port);
      });
    });
  }
}
