import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEVICE_TYPES } from '@vigil/contract';
import {
  newRunSalt,
  parseDeviceCounts,
  planFleet,
  provisionFleet,
  secretsFor,
  startFleet,
  type Fleet,
  type SentMessage,
} from '@vigil/simulator';
import { FaultProxy } from '../../apps/server/src/test/fault-proxy.ts';
import { freePort } from '../../apps/server/src/test/free-port.ts';
import { freshPostgres } from '../../apps/server/src/test/harness.ts';
import { setUpCareHome, type LiveCareHome } from '../../apps/server/src/test/live-care-home.ts';
import { PrivateMosquitto } from '../../apps/server/src/test/private-mosquitto.ts';
import { spawnServer, type SpawnedServer } from '../../apps/server/src/test/spawned-server.ts';
import { Balancer } from '../../scripts/cluster/balancer.ts';
import { DrillConsole } from './drill-console.ts';
import { Presser } from './presser.ts';
import { BrokerObserver } from './observer.ts';

export interface StageOptions {
  /** The simulated fleet, as `npm run simulate -- --devices`. */
  devices: string;
  /** Badges calling for help at a known pace (the drill's own ground truth). */
  pressers: number;
  /** Keep the drill's database afterwards, to look into it. */
  keep?: boolean;
  /** Vigil instances (2 by default); with `balanced`, three behind HAProxy (deploy/haproxy). */
  instances?: number;
  /** Consoles reach the instances through the balancer, one console per instance. */
  balanced?: boolean;
  /** The balancer's port (a free one by default). */
  balancerPort?: number;
  /** The built web console the instances serve (none by default: drills need only the API). */
  consoleDir?: string;
  /** Each instance's output is appended to `instance-<i>.log` here. */
  logDir?: string;
  /** The instances' log level (warn by default). */
  logLevel?: string;
  log: (line: string) => void;
}

export const ADMIN_PASSWORD = 'Drill#Admin2026';

/**
 * The deployment of docs/operations.md on one machine, with a way to break each part: two
 * instances on one PostgreSQL database, an MQTT broker (a Mosquitto of the drill's own, with
 * persistence on, as Debian's configuration has it) and Redis; PostgreSQL and Redis reached
 * through fault proxies. A care home with a simulated fleet and badges calling for help; a
 * console on each instance. The machine's own services stay untouched.
 */
export class Stage {
  readonly instances: SpawnedServer[] = [];
  readonly ports: number[] = [];
  readonly consoles: DrillConsole[] = [];
  /** Instances the drill killed on purpose: not counted as exits. */
  readonly killed = new Set<SpawnedServer>();
  balancer: Balancer | undefined;
  private readonly instanceEnv: Record<string, string>[] = [];
  readonly sent: SentMessage[] = [];
  broker!: PrivateMosquitto;
  database!: FaultProxy;
  redis!: FaultProxy;
  /** The drill's own database, reached directly (not through the proxy) to judge the outcome. */
  databaseUrl = '';
  home!: LiveCareHome;
  fleet: Fleet | undefined;
  presser: Presser | undefined;
  /** When the broker passed each event on (see BrokerObserver). */
  observer: BrokerObserver | undefined;
  /** When a simulated device lost its connection to the broker. */
  readonly disconnects: number[] = [];
  private dropDatabase: (() => Promise<void>) | undefined;
  private readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-drill-'));
  readonly run = Date.now().toString(36).toUpperCase();
  /** Each instance's /metrics answers to this bearer token. */
  readonly metricsToken = `drill-metrics-${this.run}-token`;

  constructor(private readonly options: StageOptions) {}

  async start(): Promise<void> {
    const { log } = this.options;
    const redisUrl = process.env.REDIS_URL;
    if (!process.env.DATABASE_URL || !redisUrl)
      throw new Error('set DATABASE_URL and REDIS_URL (the loopback services)');
    const db = await freshPostgres();
    this.dropDatabase = db.drop;
    this.databaseUrl = db.url;
    this.database = await FaultProxy.to(db.url);
    this.redis = await FaultProxy.to(redisUrl);
    this.broker = await PrivateMosquitto.start();
    log(`PostgreSQL (via :${this.database.port}), Redis (via :${this.redis.port}), Mosquitto :${this.broker.port}`);

    const count = this.options.balanced ? 3 : (this.options.instances ?? 2);
    for (let i = 0; i < count; i++) {
      const port = await freePort();
      this.ports.push(port);
      this.instanceEnv.push({
        PORT: String(port),
        DATA_DIR: path.join(this.dataDir, String(i)),
        CONSOLE_DIR: this.options.consoleDir ?? this.dataDir,
        DATABASE_URL: FaultProxy.via(db.url, this.database),
        MQTT_URL: this.broker.url,
        MQTT_CLIENT_ID: `vigil-drill-${this.run}-${i}`,
        MQTT_SHARE_GROUP: `drill-${this.run}`,
        REDIS_URL: FaultProxy.via(redisUrl, this.redis),
        VIGIL_ADMIN_PASSWORD: ADMIN_PASSWORD,
        TRUST_PROXY: this.options.balanced ? 'true' : 'false',
        METRICS_TOKEN: this.metricsToken,
        LOG_LEVEL: this.options.logLevel ?? 'warn',
      });
    }
    // One after another: the first migrates the database, the others find it done.
    for (const [i, env] of this.instanceEnv.entries())
      this.instances.push(await spawnServer(env, { readyWithinMs: 120_000, logFile: this.logFileOf(i) }));
    log(`${count} instances on :${this.ports.join(', :')}`);
    if (this.options.balanced) {
      this.balancer = await Balancer.start(this.ports, this.options.balancerPort);
      log(`HAProxy (deploy/haproxy/vigil.cfg) on :${this.balancer.port}, statistics on ${this.balancer.statsUrl}`);
    }

    const badgeType = DEVICE_TYPES.find((t) => t.kind === 'badge');
    if (!badgeType) throw new Error('no badge type in the catalogue');
    const badges = Array.from({ length: this.options.pressers }, (_, i) => ({
      deviceId: `DRILL-${this.run}-B${String(i).padStart(3, '0')}`,
      deviceType: badgeType.code,
      secret: `drill-badge-secret-${this.run}-${i}`,
    }));
    this.home = await setUpCareHome(this.base(0), {
      adminPassword: ADMIN_PASSWORD,
      name: `Drill ${this.run}`,
      devices: badges,
    });

    const plan = planFleet(parseDeviceCounts(this.options.devices), `D${this.run}`);
    const secrets = secretsFor(plan, 'drill', newRunSalt());
    await provisionFleet(plan, secrets, {
      api: this.base(0),
      adminUser: 'admin',
      adminPassword: ADMIN_PASSWORD,
      providerId: this.home.providerId,
      batch: 'drill',
    });
    log(`care home ${this.home.providerId}: ${plan.devices.length} simulated devices and ${badges.length} badges`);

    for (const [i, port] of this.ports.entries()) {
      const balancer = this.balancer;
      const console = balancer
        ? new DrillConsole(
            `console ${i} (through the balancer)`,
            balancer.wsUrl,
            this.home.key,
            this.home.client(balancer.url),
          )
        : new DrillConsole(
            `console on instance ${i}`,
            `ws://127.0.0.1:${port}/websocket`,
            this.home.key,
            this.home.client(this.base(i)),
          );
      await console.start();
      this.consoles.push(console);
    }
    this.observer = new BrokerObserver(this.broker.url);
    await this.observer.start();
    this.fleet = await startFleet({ url: this.broker.url, plan, secrets, eventRate: 1, connectWaitMs: 30_000 });
    this.fleet.on('sent', (message) => {
      if (message.topic.endsWith('/event')) this.sent.push(message);
    });
    this.fleet.on('disconnect', () => this.disconnects.push(Date.now()));
    this.presser = new Presser(this.broker.url, badges);
    await this.presser.start();
  }

  /** kill -9, as a crashed host or an OOM kill: nothing written, nothing said goodbye. */
  async kill(instance: number): Promise<void> {
    const server = this.instances[instance];
    if (!server) throw new Error(`no instance ${instance}`);
    this.killed.add(server);
    await server.stop('SIGKILL');
  }

  /** Started again as its supervisor would: the same port, client id and data. */
  async restart(instance: number): Promise<void> {
    const env = this.instanceEnv[instance];
    if (!env) throw new Error(`no instance ${instance}`);
    this.instances[instance] = await spawnServer(env, { readyWithinMs: 120_000, logFile: this.logFileOf(instance) });
  }

  private logFileOf(instance: number): string | undefined {
    return this.options.logDir ? path.join(this.options.logDir, `instance-${instance}.log`) : undefined;
  }

  base(instance: number): string {
    return `http://127.0.0.1:${this.ports[instance]}`;
  }

  /** Devices and badges stop; what they published settles. */
  async stopDevices(): Promise<void> {
    await this.presser?.stop();
    await this.fleet?.stop();
    await this.observer?.stop();
  }

  async close(): Promise<void> {
    for (const console of this.consoles) console.stop();
    await this.stopDevices().catch(() => undefined);
    for (const instance of this.instances) await instance.stop('SIGTERM').catch(() => undefined);
    await this.balancer?.close();
    await this.broker?.close();
    await this.database?.close();
    await this.redis?.close();
    if (this.options.keep) this.options.log(`database kept: ${this.databaseUrl}`);
    else await this.dropDatabase?.();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
