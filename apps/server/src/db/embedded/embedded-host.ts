/**
 * The server's side of the embedded database's worker (decision 0047): starts it, carries each
 * `pg` connection's bytes to it, and watches it. When the worker ends unexpectedly its
 * connections fail (the pool opens new ones, as after a PostgreSQL restart) and it is started
 * again on the same data; a worker that keeps failing stops the server with one clear line.
 */
import { Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker, WorkerSetup } from './worker-protocol.ts';
import { WorkerSocket, type SocketLine } from './worker-socket.ts';

const WORKER_URL = new URL('./pglite-worker.mjs', import.meta.url);

export interface EmbeddedHostOptions extends WorkerSetup {
  /** Restarts allowed within `restartWindowMs` before the host gives up (default 3 in a minute). */
  maxRestarts?: number;
  restartWindowMs?: number;
  /** Told once when the worker cannot be kept running: the server logs it and exits. */
  onGiveUp?: (reason: string) => void;
  /** Told on every unexpected end of the worker (logged, counted). */
  onCrash?: (reason: string) => void;
  /**
   * PGlite cannot cancel a running statement (no timers inside WebAssembly): a worker that
   * does not answer for `hangMs` (default 2 min) is ended and started again, its statement
   * failed. Checked every `pingMs` (default 5 s).
   */
  hangMs?: number;
  pingMs?: number;
}

export type EmbeddedState = 'starting' | 'up' | 'restarting' | 'failed' | 'stopped';

export interface WorkerMemory {
  heapBytes: number;
  wasmBytes: number;
}

export class EmbeddedHost implements SocketLine {
  private worker: Worker | undefined;
  private readonly sockets = new Map<number, WorkerSocket>();
  private nextId = 1;
  private crashes: number[] = [];
  private stopping = false;
  private ready: Promise<void> = Promise.resolve();
  /** Questions to the worker by the answer awaited; failed when the worker ends. */
  private readonly waiters = new Map<
    string,
    { answered: (message: FromWorker) => void; failed: (error: Error) => void }[]
  >();
  private watchdog: NodeJS.Timeout | undefined;
  private lastPong = Date.now();
  state: EmbeddedState = 'starting';
  /** Unexpected ends of the worker so far. */
  restarts = 0;
  /** The last unexpected end, for /readyz and the log. */
  lastCrash: string | undefined;

  private constructor(private readonly options: EmbeddedHostOptions) {}

  /** Starts the worker and waits until its database is open; rejects if it cannot open it. */
  static async start(options: EmbeddedHostOptions): Promise<EmbeddedHost> {
    const host = new EmbeddedHost(options);
    host.spawn();
    try {
      await host.ready;
    } catch (error) {
      host.stopping = true;
      await host.worker?.terminate();
      throw error;
    }
    host.watchdog = setInterval(() => host.watch(), options.pingMs ?? 5_000);
    host.watchdog.unref();
    return host;
  }

  private spawn(): void {
    const setup: WorkerSetup = {
      ...(this.options.dataDir ? { dataDir: this.options.dataDir } : {}),
      ...(this.options.load ? { load: this.options.load } : {}),
    };
    const worker = new Worker(WORKER_URL, { workerData: setup });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: FromWorker) => {
        if (message.t === 'ready') {
          this.state = 'up';
          this.lastPong = Date.now();
          resolve();
        } else if (message.t === 'failed') reject(new Error(`embedded database: ${message.message}`));
      };
      worker.on('message', onMessage);
      worker.once('exit', (code) => reject(new Error(`embedded database worker ended (exit code ${code})`)));
    });
    // A start that fails is handled where `ready` is awaited; never an unhandled rejection.
    this.ready.catch(() => undefined);
    worker.on('message', (message: FromWorker) => this.received(message));
    worker.on('error', (error) => {
      this.lastCrash = error.message;
    });
    worker.on('exit', (code) => this.exited(worker, code));
  }

  private received(message: FromWorker): void {
    switch (message.t) {
      case 'opened':
        this.sockets.get(message.id)?.opened();
        return;
      case 'data':
        this.sockets.get(message.id)?.received(message.bytes);
        return;
      case 'closed': {
        const socket = this.sockets.get(message.id);
        this.sockets.delete(message.id);
        socket?.lost(message.reason);
        return;
      }
      case 'failed':
        this.lastCrash = message.message;
        return;
      case 'pong':
        this.lastPong = Date.now();
        return;
      default: {
        this.waiters.get(message.t)?.shift()?.answered(message);
      }
    }
  }

  private exited(worker: Worker, code: number): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    for (const socket of this.sockets.values()) socket.lost('the embedded database stopped');
    this.sockets.clear();
    for (const waiting of [...this.waiters.values()].flat()) waiting.failed(new Error('the embedded database stopped'));
    this.waiters.clear();
    if (this.stopping) {
      this.state = 'stopped';
      return;
    }
    const reason = this.lastCrash ?? `exit code ${code}`;
    this.restarts++;
    this.options.onCrash?.(reason);
    const now = Date.now();
    const window = this.options.restartWindowMs ?? 60_000;
    this.crashes = [...this.crashes.filter((at) => now - at < window), now];
    if (this.crashes.length > (this.options.maxRestarts ?? 3)) {
      this.state = 'failed';
      this.options.onGiveUp?.(
        `the embedded database failed ${this.crashes.length} times in ${Math.round(window / 1000)} s (${reason}); stopping`,
      );
      return;
    }
    this.state = 'restarting';
    this.lastCrash = undefined;
    this.spawn();
  }

  /** Migrations may hold the database for long on a large site: the watchdog waits them out. */
  async unwatched<T>(work: () => Promise<T>): Promise<T> {
    this.paused++;
    try {
      return await work();
    } finally {
      this.paused--;
      this.lastPong = Date.now();
    }
  }
  private paused = 0;

  private watch(): void {
    const worker = this.worker;
    if (!worker || this.state !== 'up') return;
    if (this.paused) {
      this.lastPong = Date.now();
      return;
    }
    const hangMs = this.options.hangMs ?? 120_000;
    if (Date.now() - this.lastPong > hangMs) {
      this.lastCrash = `a statement held the database for more than ${Math.round(hangMs / 1000)} s`;
      void worker.terminate();
      return;
    }
    this.post({ t: 'ping' });
  }

  /** A new `pg` connection (the pool's `stream` option). */
  socket(): WorkerSocket {
    return new WorkerSocket(this);
  }

  open(socket: WorkerSocket): number {
    const id = this.nextId++;
    if (!this.worker || this.state !== 'up') {
      // Not up (restarting, stopped): the connection fails as a refused TCP connect would.
      queueMicrotask(() => socket.lost(this.state === 'restarting' ? 'the embedded database is restarting' : 'closed'));
      return id;
    }
    this.sockets.set(id, socket);
    this.post({ t: 'open', id });
    return id;
  }

  send(id: number, bytes: Uint8Array): void {
    if (!this.sockets.has(id)) return;
    this.post({ t: 'data', id, bytes }, [bytes.buffer as ArrayBuffer]);
  }

  close(id: number): void {
    if (this.sockets.delete(id)) this.post({ t: 'close', id });
  }

  private post(message: ToWorker, transfer: ArrayBuffer[] = []): void {
    this.worker?.postMessage(message, transfer);
  }

  private ask<T extends FromWorker['t']>(message: ToWorker, answer: T): Promise<Extract<FromWorker, { t: T }>> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new Error('the embedded database is not running'));
    return new Promise((resolve, reject) => {
      // Failed in `exited`, not by a listener per question: /metrics asks on every scrape.
      const list = this.waiters.get(answer) ?? [];
      list.push({ answered: (m) => resolve(m as Extract<FromWorker, { t: T }>), failed: reject });
      this.waiters.set(answer, list);
      this.post(message);
    });
  }

  /** The worker's heap and the database's WebAssembly memory. */
  async memory(): Promise<WorkerMemory> {
    const { heapBytes, wasmBytes } = await this.ask({ t: 'memory' }, 'memory');
    return { heapBytes, wasmBytes };
  }

  /** The whole data directory as a tarball (after the connections' work so far). */
  async dump(): Promise<Blob> {
    return (await this.ask({ t: 'dump' }, 'dump')).data;
  }

  /** Closes the database (files flushed) and ends the worker; its connections should be closed first. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.watchdog);
    const worker = this.worker;
    if (!worker) return;
    const stopped = this.ask({ t: 'shutdown' }, 'stopped').catch(() => undefined);
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref());
    await Promise.race([stopped, timeout]);
    // The database is closed (or would not close in time): nothing in the thread is needed.
    await worker.terminate();
    this.state = 'stopped';
  }

  /** Ends the worker at once, as a crash would (tests). */
  async crash(): Promise<void> {
    this.lastCrash = 'ended on purpose';
    await this.worker?.terminate();
  }
}
