import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../apps/server/src/test/free-port.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The balancer's configuration as deployed (deploy/haproxy/vigil.cfg): three instances. */
export const HAPROXY_CONFIG = path.join(ROOT, 'deploy/haproxy/vigil.cfg');
export const HAPROXY = '/usr/sbin/haproxy';
export const BALANCED_INSTANCES = 3;

export const hasHaproxy = (): boolean => fs.existsSync(HAPROXY) && spawnSync(HAPROXY, ['-v']).status === 0;

/**
 * HAProxy from Debian's package, run with the repository's own configuration, in front of three
 * instances on loopback: what consoles reach in the multi-instance deployment.
 */
export class Balancer {
  private child: ChildProcess | undefined;
  private output = '';

  private constructor(
    readonly port: number,
    readonly statsPort: number,
    private readonly instancePorts: readonly number[],
  ) {}

  static async start(instancePorts: readonly number[], port?: number): Promise<Balancer> {
    if (instancePorts.length !== BALANCED_INSTANCES)
      throw new Error(`deploy/haproxy/vigil.cfg balances ${BALANCED_INSTANCES} instances`);
    const balancer = new Balancer(port ?? (await freePort()), await freePort(), instancePorts);
    await balancer.run();
    return balancer;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.port}/websocket`;
  }

  get statsUrl(): string {
    return `http://127.0.0.1:${this.statsPort}/`;
  }

  /** Which instances the balancer sends to now (its health checks of /readyz), by instance index. */
  async serving(): Promise<boolean[]> {
    const csv = await fetch(`${this.statsUrl};csv`).then((r) => r.text());
    const status = new Map<string, string>();
    for (const line of csv.split('\n')) {
      const [proxy, server, ...rest] = line.split(',');
      if (proxy === 'vigil' && server?.startsWith('vigil')) status.set(server, rest[15] ?? '');
    }
    return this.instancePorts.map((_, i) => (status.get(`vigil${i + 1}`) ?? '').startsWith('UP'));
  }

  private async run(): Promise<void> {
    const env = {
      ...process.env,
      VIGIL_BALANCER_BIND: `127.0.0.1:${this.port}`,
      VIGIL_BALANCER_STATS: `127.0.0.1:${this.statsPort}`,
      ...Object.fromEntries(this.instancePorts.map((p, i) => [`VIGIL_INSTANCE_${i + 1}`, `127.0.0.1:${p}`])),
    };
    // -db: in the foreground, no daemon; stopped with the process that started it.
    const child = spawn(HAPROXY, ['-db', '-f', HAPROXY_CONFIG], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    const end = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`haproxy exited: ${this.output}`);
      const up = await fetch(this.statsUrl).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return;
      if (Date.now() > end) throw new Error(`haproxy did not start: ${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    // Ended already (a signal sets signalCode, not exitCode): its exit event will not come again.
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}
