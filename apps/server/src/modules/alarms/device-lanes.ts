import { BacklogFull } from '../../core/batch-queue.ts';

export interface DeviceLanesOptions<T> {
  /** Writes one batch, all or nothing (one transaction). */
  write: (items: T[]) => Promise<void>;
  /** The device whose lane an item is in. */
  deviceOf: (item: T) => string;
  /** Items per write. */
  maxBatch?: number;
  /** Items held at most; `add` refuses beyond it. */
  maxPending?: number;
  /** First retry delay after a failed write; doubles up to 5 s. */
  retryMs?: number;
  onError?: (error: unknown) => void;
}

interface Entry<T> {
  item: T;
  device: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The devices of a transaction that writes items of those devices itself (a batch of device
 * events with their alarms): while it holds them, the writer leaves their lanes alone.
 */
export interface LaneHold<T> {
  /**
   * What waits in the held lanes, oldest first: the holder writes these before its own, in its
   * transaction. Called again in a retried attempt, it answers the same and any added since.
   */
  take(): T[];
  /** The holder's transaction is over: committed, what it took is written; otherwise it goes back to its lanes. */
  end(committed: boolean): void;
}

/**
 * A writer with one ordered lane per device: items of one device are written in the order they
 * were added, and never two writes of one device at once, whoever writes them. Items of many
 * devices go in one batch (group commit: a write starts as soon as none runs). A transaction
 * that writes a device's items itself `hold`s its lane first: it waits for a write of that
 * device under way, then takes what waits there, so nothing added before it lands after it.
 * A failed write keeps its items in order and retries with backoff.
 */
export class DeviceLanes<T> {
  /** Every waiting item, in the order added (so each device's in its order). */
  private queue: Entry<T>[] = [];
  private readonly holders = new Map<string, Promise<void>>();
  private writing: { devices: ReadonlySet<string>; done: Promise<void> } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private retryDelay = 0;
  private lastError: unknown;
  private closed = false;
  private waitingHolds = 0;
  /** Items holders took and have not yet ended (written or given back). */
  private taken = 0;
  /** The last write failed and its items wait for a retry. */
  failing = false;

  constructor(private readonly options: DeviceLanesOptions<T>) {}

  /** Items waiting to be written (not those a holder took). */
  get pending(): number {
    return this.queue.length;
  }

  /** Holds waiting for a write of their devices to finish (for the tests). */
  get holdsWaiting(): number {
    return this.waitingHolds;
  }

  /** Resolves once the item is written, by the writer or in a holder's transaction. */
  add(item: T): Promise<void> {
    if (this.closed) return Promise.reject(new Error('alarm writer is stopping'));
    if (this.queue.length >= (this.options.maxPending ?? 100_000)) return Promise.reject(new BacklogFull());
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, device: this.options.deviceOf(item), resolve, reject });
      this.schedule(0);
    });
  }

  /**
   * Holds the lanes of these devices for a transaction that writes their items itself: waits for
   * another holder of any of them and for a write of any of them under way (outside the caller's
   * transaction: never wait for one transaction inside another).
   */
  async hold(deviceIds: Iterable<string>): Promise<LaneHold<T>> {
    const devices = new Set(deviceIds);
    for (;;) {
      const held = [...devices].flatMap((d) => this.holders.get(d) ?? []);
      if (!held.length) break;
      await Promise.all(held);
    }
    let ended!: () => void;
    const over = new Promise<void>((resolve) => (ended = resolve));
    for (const d of devices) this.holders.set(d, over);
    // From here the writer starts nothing of these devices; one it started already is waited for.
    const writing = this.writing;
    if (writing && [...devices].some((d) => writing.devices.has(d))) {
      this.waitingHolds++;
      await writing.done;
      this.waitingHolds--;
    }
    const taken: Entry<T>[] = [];
    let done = false;
    return {
      take: () => {
        const left: Entry<T>[] = [];
        for (const e of this.queue) (devices.has(e.device) ? taken : left).push(e);
        this.taken += this.queue.length - left.length;
        this.queue = left;
        return taken.map((e) => e.item);
      },
      end: (committed) => {
        if (done) return;
        done = true;
        this.taken -= taken.length;
        if (committed) for (const e of taken) e.resolve();
        else if (this.closed)
          for (const e of taken) e.reject(new Error('alarm writer stopped before the write succeeded'));
        // Not written: back to the front of their lanes, before anything added since.
        else this.queue = [...taken, ...this.queue];
        for (const d of devices) if (this.holders.get(d) === over) this.holders.delete(d);
        ended();
        if (this.queue.length) this.schedule(this.failing ? this.retryDelay : 0);
      },
    };
  }

  /** Writes everything now; resolves when nothing waits, nor is held by a holder (or rejects with the write's error). */
  async drain(): Promise<void> {
    this.cancelTimer();
    while (this.queue.length || this.writing || this.taken) {
      if (this.writing) await this.writing.done;
      else if (!this.nextBatch().length) await Promise.all(this.holders.values());
      else if ((await this.writeNext()) === 'failed') {
        this.schedule(this.retryDelay);
        throw this.lastError;
      }
    }
  }

  /** Stops taking items, tries once more to write what waits, and refuses the rest. */
  async close(): Promise<void> {
    this.closed = true;
    try {
      await this.drain();
    } catch {
      for (const e of this.queue.splice(0)) e.reject(new Error('alarm writer stopped before the write succeeded'));
    }
  }

  private schedule(delayMs: number): void {
    if (this.writing || this.closed) return;
    if (this.timer && delayMs > 0) return;
    this.cancelTimer();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.writeNext().then((outcome) => {
        // What waits in held lanes is the holders' (or the writer's again when they end them).
        if (outcome === 'idle' || !this.queue.length || this.closed) return;
        this.schedule(outcome === 'written' ? 0 : this.retryDelay);
      });
    }, delayMs);
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The oldest waiting items of lanes no one holds. */
  private nextBatch(): Entry<T>[] {
    const max = this.options.maxBatch ?? 200;
    const batch: Entry<T>[] = [];
    for (const e of this.queue) {
      if (batch.length >= max) break;
      if (!this.holders.has(e.device)) batch.push(e);
    }
    return batch;
  }

  /** One batch: written, failed, or none to write (one under way, or every lane with items held). Never throws. */
  private async writeNext(): Promise<'written' | 'failed' | 'idle'> {
    if (this.writing) return 'idle';
    const batch = this.nextBatch();
    if (!batch.length) return 'idle';
    let settle!: () => void;
    this.writing = { devices: new Set(batch.map((e) => e.device)), done: new Promise((r) => (settle = r)) };
    try {
      await this.options.write(batch.map((e) => e.item));
      const written = new Set(batch);
      this.queue = this.queue.filter((e) => !written.has(e));
      this.failing = false;
      this.retryDelay = 0;
      for (const e of batch) e.resolve();
      return 'written';
    } catch (error) {
      this.failing = true;
      this.lastError = error;
      this.retryDelay = Math.min(5_000, this.retryDelay ? this.retryDelay * 2 : (this.options.retryMs ?? 250));
      this.options.onError?.(error);
      return 'failed';
    } finally {
      this.writing = undefined;
      settle();
    }
  }
}
