import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectAsync } from 'mqtt';
import { freePort } from './free-port.ts';

/** Where Debian installs the broker; tests that restart a broker of their own skip without it. */
export const MOSQUITTO = '/usr/sbin/mosquitto';
export const hasMosquitto = (): boolean => fs.existsSync(MOSQUITTO) && spawnSync(MOSQUITTO, ['-h']).status !== null;

/**
 * A Mosquitto of a test's or a drill's own, on a free port, with persistence on as Debian's
 * stock configuration has it, so it can be restarted (and its sessions restored from disk)
 * without touching the machine's broker.
 */
export class PrivateMosquitto {
  private child: ChildProcess | undefined;
  private readonly dir: string;

  private constructor(readonly port: number) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-mosquitto-'));
    // Run as root, Mosquitto drops to its own user: it must be able to write its store here.
    fs.chmodSync(this.dir, 0o777);
    fs.writeFileSync(
      path.join(this.dir, 'mosquitto.conf'),
      [
        'persistence true',
        `persistence_location ${this.dir}/`,
        `listener ${port} 127.0.0.1`,
        'allow_anonymous true',
        'max_queued_messages 100000',
        // As deploy/mosquitto/vigil.conf: an instance's event connection may take 100 at once (AckPipeline).
        'max_inflight_messages 100',
        '',
      ].join('\n'),
    );
  }

  static async start(): Promise<PrivateMosquitto> {
    const broker = new PrivateMosquitto(await freePort());
    await broker.run();
    return broker;
  }

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  /** Stops it as an operator's restart does (SIGTERM: the store is written), then starts it again. */
  async restart(downMs = 0): Promise<void> {
    await this.stop();
    if (downMs) await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.run();
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    // Ended already (a signal sets signalCode, not exitCode): its exit event will not come again.
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  async close(): Promise<void> {
    await this.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private async run(): Promise<void> {
    const child = spawn(MOSQUITTO, ['-c', path.join(this.dir, 'mosquitto.conf')], { stdio: 'ignore' });
    this.child = child;
    const end = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`mosquitto exited with ${child.exitCode}`);
      const client = await connectAsync(this.url, { reconnectPeriod: 0, connectTimeout: 500 }).catch(() => undefined);
      if (client) {
        await client.endAsync();
        return;
      }
      if (Date.now() > end) throw new Error('mosquitto did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
