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
import { DrillConsole } from './drill-console.ts';
import { Presser } from './presser.ts';

export interface StageOptions {
  /** The simulated fleet, as `npm run simulate -- --devices`. */
  devices: string;
  /** Badges calling for help at a known pace (the drill's own ground truth). */
  pressers: number;
  /** Keep the drill's database afterwards, to look into it. */
  keep?: boolean;
  log: (line: string) => void;
}

const ADMIN_PASSWORD = 'Drill#Admin2026';

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
  readonly sent: SentMessage[] = [];
  broker!: PrivateMosquitto;
  database!: FaultProxy;
  redis!: FaultProxy;
  /** The drill's own database, reached directly (not through the proxy) to judge the outcome. */
  databaseUrl = '';
  home!: LiveCareHome;
  fleet: Fleet | undefined;
  presser: Presser | undefined;
  private dropDatabase: (() => Promise<void>) | undefined;
  private readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-drill-'));
  readonly run = Date.now().toString(36).toUpperCase();

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

    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      this.ports.push(port);
      this.instances.push(
        await spawnServer(
          {
            PORT: String(port),
            DATA_DIR: path.join(this.dataDir, String(i)),
            CONSOLE_DIR: this.dataDir,
            DATABASE_URL: FaultProxy.via(db.url, this.database),
            MQTT_URL: this.broker.url,
            MQTT_CLIENT_ID: `vigil-drill-${this.run}-${i}`,
            MQTT_SHARE_GROUP: `drill-${this.run}`,
            REDIS_URL: FaultProxy.via(redisUrl, this.redis),
            VIGIL_ADMIN_PASSWORD: ADMIN_PASSWORD,
            LOG_LEVEL: 'warn',
          },
          { readyWithinMs: 120_000 },
        ),
      );
    }
    log(`two instances on :${this.ports.join(' and :')}`);

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
      const console = new DrillConsole(
        `console on instance ${i}`,
        `ws://127.0.0.1:${port}/websocket`,
        this.home.key,
        this.home.client(this.base(i)),
      );
      await console.start();
      this.consoles.push(console);
    }
    this.fleet = await startFleet({ url: this.broker.url, plan, secrets, eventRate: 1, connectWaitMs: 30_000 });
    this.fleet.on('sent', (message) => {
      if (message.topic.endsWith('/event')) this.sent.push(message);
    });
    this.presser = new Presser(this.broker.url, badges);
    await this.presser.start();
  }

  base(instance: number): string {
    return `http://127.0.0.1:${this.ports[instance]}`;
  }

  /** Devices and badges stop; what they published settles. */
  async stopDevices(): Promise<void> {
    await this.presser?.stop();
    await this.fleet?.stop();
  }

  async close(): Promise<void> {
    for (const console of this.consoles) console.stop();
    await this.stopDevices().catch(() => undefined);
    for (const instance of this.instances) await instance.stop('SIGTERM').catch(() => undefined);
    await this.broker?.close();
    await this.database?.close();
    await this.redis?.close();
    if (this.options.keep) this.options.log(`database kept: ${this.databaseUrl}`);
    else await this.dropDatabase?.();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
