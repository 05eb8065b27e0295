import { BlockList, createServer, isIP, type Server, type Socket } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { topicOf, type DeviceCommandMessage } from '@vigil/contract';
import { StartupError } from '../../../core/startup-error.ts';
import type { Clock } from '../../../clock.ts';
import type { RateLimitedLog } from '../../../core/log.ts';
import type { DeviceDirectory } from '../ingest/device-directory.ts';
import type { Ingest } from '../ingest/ingest.ts';
import type { IngestMetrics } from '../ingest/ingest-metrics.ts';
import type { Presence } from '../ingest/presence.ts';
import type { DeviceGate } from './device-gate.ts';
import { GuardedConnection } from './guarded-connection.ts';
import { PendingConnections } from './pending-connections.ts';
import type { DeviceLink } from './device-link.ts';

export interface EmbeddedBrokerDeps {
  port: number;
  host: string;
  /** TCP proxies in front (TLS): their address stands for every device, so it is never locked out. */
  trustedProxies?: readonly string[];
  gate: DeviceGate;
  ingest: Ingest;
  presence: Presence;
  directory: DeviceDirectory;
  metrics: IngestMetrics;
  clock: Clock;
  log: RateLimitedLog;
  /** A device subscribed to its command topic: commands waiting for it go out now. */
  onCommandsReady: (deviceId: string) => void;
}

const NOT_AUTHORISED = 5;

/**
 * The in-process MQTT broker (aedes, MQTT 3.1/3.1.1) of a single-instance install. Its hooks
 * are the gateway: CONNECT is checked against the registry's secret, every PUBLISH is taken
 * by the ingest before its PUBACK goes out (aedes acknowledges after `authorizePublish`), so
 * an acknowledged event is a stored event. Nothing is retained or forwarded between devices.
 */
export class EmbeddedBroker implements DeviceLink {
  private aedes: Aedes | undefined;
  private server: Server | undefined;
  private readonly pending = new PendingConnections();
  private readonly proxies = new BlockList();
  port = 0;

  constructor(private readonly deps: EmbeddedBrokerDeps) {
    for (const address of deps.trustedProxies ?? []) {
      this.proxies.addAddress(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
    }
  }

  /**
   * The address failures and waiting connections are counted by: the connection's remote
   * address, or none behind a trusted proxy, whose address stands for every device.
   */
  private sourceOf(conn: Client['conn']): string | undefined {
    const address = 'remoteAddress' in conn ? conn.remoteAddress : undefined;
    const family = isIP(address ?? '');
    if (!address || !family) return undefined;
    return this.proxies.check(address, family === 6 ? 'ipv6' : 'ipv4') ? undefined : address;
  }

  async start(): Promise<void> {
    const { gate, ingest, metrics, log } = this.deps;
    const aedes = await Aedes.createBroker({ connectTimeout: 10_000, drainTimeout: 10_000, queueLimit: 42 });
    this.aedes = aedes;

    aedes.authenticate = (client, username, password, done) => {
      gate
        .authenticate(client.id, username, password?.toString('utf8'), this.sourceOf(client.conn))
        .then((verdict) => {
          if (verdict.ok) {
            if (client.conn instanceof GuardedConnection) client.conn.authenticated();
            return done(null, true);
          }
          const error = new Error('not authorised') as AuthenticateError;
          error.returnCode = NOT_AUTHORISED;
          done(error, false);
        })
        .catch((error: unknown) => {
          log.warn('connect:error', { err: String(error) }, 'device authentication failed');
          const refusal = new Error('server unavailable') as AuthenticateError;
          refusal.returnCode = 3;
          done(refusal, false);
        });
    };

    aedes.authorizeSubscribe = (client, subscription, done) => {
      gate.maySubscribe(this.deviceOf(client), subscription.topic).then(
        (ok) => (ok ? done(null, subscription) : done(new Error('not authorised'))),
        (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
      );
    };

    aedes.authorizePublish = (client, packet, done) => {
      // The broker's own publishes (commands) and wills of clients already gone have no client.
      if (!client) return done(null);
      const deviceId = this.deviceOf(client);
      const take = () => {
        // State lives in Vigil, not in the broker's retained store.
        packet.retain = false;
        if (!gate.withinRate(deviceId)) {
          metrics.dropped.inc({ reason: 'rate_limited' });
          // Over its rate, a QoS 1 message is refused, not acknowledged: the connection closes and
          // the device sends it again later. Nothing acknowledged is ever dropped.
          return done(packet.qos > 0 ? new Error('rate limit') : null);
        }
        const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
        ingest.handle(packet.topic, payload).then(
          () => done(null),
          // Not stored: no PUBACK; the connection closes and the device sends it again.
          (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
        );
      };
      if (gate.mayPublishNow(deviceId, packet.topic)) return take();
      gate.mayPublish(deviceId, packet.topic).then(
        (ok) => (ok ? take() : done(new Error('not authorised'))),
        (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
      );
    };

    aedes.authorizeForward = (client, packet) => packet;

    aedes.on('clientReady', (client) => {
      const context = this.deps.directory.get(this.deviceOf(client));
      if (context) this.deps.presence.seen(context, this.deps.clock.now(), {}, 'connect');
    });
    aedes.on('clientDisconnect', (client) => {
      const context = this.deps.directory.get(this.deviceOf(client));
      const clean = (client as Client & { _disconnected?: boolean })._disconnected === true;
      if (context) this.deps.presence.offline(context, this.deps.clock.now(), clean ? 'disconnect' : 'lost');
    });
    aedes.on('subscribe', (subscriptions, client) => {
      if (subscriptions.some((s) => s.topic.endsWith('/cmd'))) this.deps.onCommandsReady(this.deviceOf(client));
    });
    aedes.on('clientError', (client, error) => {
      log.warn('client:error', { deviceId: client?.id?.slice(0, 64), err: error.message }, 'device connection error');
    });
    aedes.on('connectionError', (client, error) => {
      log.warn('connection:error', { err: error.message }, 'device connection refused');
    });

    const server = createServer((socket) => this.accept(aedes, socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => {
        reject(
          error.code === 'EADDRINUSE'
            ? new StartupError(
                `MQTT_PORT ${this.deps.port} is already in use (another MQTT broker?): free it, set MQTT_PORT to a free port, or set MQTT_URL to use that broker`,
              )
            : error,
        );
      });
      server.listen(this.deps.port, this.deps.host, () => resolve());
    });
    const address = server.address();
    this.port = typeof address === 'object' && address ? address.port : this.deps.port;
  }

  /** Sends a command to a device (QoS 1); resolves once the broker has taken it. */
  sendCommand(deviceId: string, message: DeviceCommandMessage): Promise<void> {
    const aedes = this.aedes;
    if (!aedes) return Promise.reject(new Error('broker not started'));
    return new Promise((resolve, reject) =>
      aedes.publish(
        {
          cmd: 'publish',
          topic: topicOf(deviceId, 'cmd'),
          payload: Buffer.from(JSON.stringify(message)),
          qos: 1,
          retain: false,
          dup: false,
        },
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  }

  get connectedCount(): number {
    return this.aedes?.connectedClients ?? 0;
  }

  async stop(): Promise<void> {
    const { aedes, server } = this;
    this.aedes = undefined;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    if (aedes) await new Promise<void>((resolve) => aedes.close(() => resolve()));
  }

  /**
   * A new TCP connection: closed at once over the caps of connections not yet authenticated
   * (per address and overall), else handed to aedes behind the packet-size guard.
   */
  private accept(aedes: Aedes, socket: Socket): void {
    const { metrics, log } = this.deps;
    const address = this.sourceOf(socket);
    if (!this.pending.admit(address)) {
      metrics.refusedConnects.inc({ reason: 'too_many_pending' });
      log.warn('connect:too_many_pending', { source: address }, 'device connection closed: too many not authenticated');
      socket.destroy();
      return;
    }
    let waiting = true;
    const release = () => {
      if (waiting) this.pending.release(address);
      waiting = false;
    };
    socket.once('close', release);
    const conn = new GuardedConnection(socket, {
      onAuthenticated: release,
      onRefused: ({ type, announced }, authenticated) => {
        (authenticated ? metrics.refusedPublishes : metrics.refusedConnects).inc({ reason: 'packet_too_large' });
        log.warn(
          'connect:packet_too_large',
          { source: address, type, announced },
          'device connection closed: packet over its size limit',
        );
      },
    });
    aedes.handle(conn);
  }

  private deviceOf(client: Client): string {
    return client.id.toUpperCase();
  }
}
