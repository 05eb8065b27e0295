export interface BatchQueueOptions<T> {
  /** Writes one batch, all or nothing (one statement or one transaction). */
  write: (items: T[]) => Promise<void>;
  /** Items per write. */
  maxBatch?: number;
  /** How long an item may wait for companions before a write starts. */
  lingerMs?: number;
  /** Items held at most (waiting and retrying); `add` refuses beyond it. */
  maxPending?: number;
  /** First retry delay after a failed write; doubles up to 5 s. */
  retryMs?: number;
  onError?: (error: unknown) => void;
  onFlush?: (items: number, seconds: number) => void;
}

/** `add` refused: the queue holds its maximum (the database is slow or down). */
export class BacklogFull extends Error {
  constructor() {
    super('backlog is full');
  }
}

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Collects items and writes them in batches, flushed on size or after a short linger. Each
 * `add` resolves once its batch is committed, which is what lets the broker acknowledge a
 * QoS 1 event only after it is stored. A failed write keeps its items in order and retries
 * with backoff; the backlog is bounded, and `add` refuses beyond it instead of growing.
 */
export class BatchQueue<T> {
  private readonly waiting: Waiting<T>[] = [];
  private readonly maxBatch: number;
  private readonly lingerMs: number;
  private readonly maxPending: number;
  private readonly retryMs: number;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private retryDelay = 0;
  private closed = false;
  /** The last write failed and its items wait for a retry. */
  failing = false;

  constructor(private readonly options: BatchQueueOptions<T>) {
    this.maxBatch = options.maxBatch ?? 500;
    this.lingerMs = options.lingerMs ?? 20;
    this.maxPending = options.maxPending ?? 100_000;
    this.retryMs = options.retryMs ?? 250;
  }

  get pending(): number {
    return this.waiting.length;
  }

  add(item: T): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the queue is stopping'));
    if (this.waiting.length >= this.maxPending) return Promise.reject(new BacklogFull());
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule(this.waiting.length >= this.maxBatch ? 0 : this.lingerMs);
    });
  }

  /** Writes everything now; resolves when nothing waits (or rejects with the write's error). */
  async drain(): Promise<void> {
    this.cancelTimer();
    while (this.waiting.length || this.writing) {
      if (this.writing) await this.writing.catch(() => undefined);
      else if (!(await this.writeNext())) throw this.lastError;
    }
  }

  /** Stops taking items, tries once more to write what waits, and refuses the rest. */
  async close(): Promise<void> {
    this.closed = true;
    try {
      await this.drain();
    } catch {
      for (const w of this.waiting.splice(0)) w.reject(new Error('ingest stopped before the write succeeded'));
    }
  }

  private lastError: unknown;

  private schedule(delayMs: number): void {
    if (this.writing || this.closed) return;
    if (this.timer && delayMs > 0) return;
    this.cancelTimer();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.writeNext().then((ok) => {
        if (!this.waiting.length || this.closed) return;
        if (ok) this.schedule(this.waiting.length >= this.maxBatch ? 0 : this.lingerMs);
        else this.schedule(this.retryDelay);
      });
    }, delayMs);
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** One batch; true when it was written. Never throws. */
  private writeNext(): Promise<boolean> {
    const batch = this.waiting.slice(0, this.maxBatch);
    if (!batch.length) return Promise.resolve(true);
    const started = performance.now();
    const run = this.options.write(batch.map((w) => w.item));
    this.writing = run;
    return run.then(
      () => {
        this.writing = undefined;
        this.waiting.splice(0, batch.length);
        this.failing = false;
        this.retryDelay = 0;
        this.options.onFlush?.(batch.length, (performance.now() - started) / 1000);
        for (const w of batch) w.resolve();
        return true;
      },
      (error: unknown) => {
        this.writing = undefined;
        this.failing = true;
        this.lastError = error;
        this.retryDelay = Math.min(5_000, this.retryDelay ? this.retryDelay * 2 : this.retryMs);
        this.options.onError?.(error);
        return false;
      },
    );
  }
}
