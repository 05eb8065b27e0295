import type { LiveVitals } from '@vigil/contract/browser';

/** A bed's vitals as `/vitalsNotify` pushed them, and when (browser milliseconds). */
export interface PushedVitals {
  vitals: LiveVitals;
  receivedAt: number;
}

type Listener = () => void;
type FrameListener = (rows: readonly LiveVitals[]) => void;

/**
 * The residents the screens watch and their latest pushed vitals. Each mounted screen part (a
 * consumer) says whom it watches; the socket follows their union, told once per tick whatever
 * the number of screens mounting and unmounting. Vitals of residents nobody watches any more
 * are forgotten, so a resident watched again starts from the list call's answer.
 */
export class VitalsStore {
  private readonly wanted = new Map<string, readonly number[]>();
  private latest: ReadonlyMap<number, PushedVitals> = new Map();
  private readonly listeners = new Set<Listener>();
  private readonly frameListeners = new Set<FrameListener>();
  private follow: ((userIds: number[]) => void) | undefined;
  private scheduled = false;

  constructor(private readonly now: () => number = Date.now) {}

  /** A consumer watches these residents (replacing what it watched). */
  want(consumer: string, userIds: readonly number[]): void {
    this.wanted.set(consumer, userIds);
    this.changed();
  }

  /** A consumer is gone. */
  drop(consumer: string): void {
    if (this.wanted.delete(consumer)) this.changed();
  }

  /** Every resident some consumer watches, ascending. */
  followed(): number[] {
    const all = new Set<number>();
    for (const ids of this.wanted.values()) for (const id of ids) all.add(id);
    return [...all].sort((a, b) => a - b);
  }

  /** The socket follows the watched residents: told now, then after every change, until disconnected. */
  connect(follow: (userIds: number[]) => void): () => void {
    this.follow = follow;
    follow(this.followed());
    return () => {
      if (this.follow === follow) this.follow = undefined;
    };
  }

  /** A `/vitalsNotify` frame's rows. */
  receive(rows: readonly LiveVitals[]): void {
    if (rows.length === 0) return;
    const next = new Map(this.latest);
    const receivedAt = this.now();
    for (const vitals of rows) next.set(vitals.userId, { vitals, receivedAt });
    this.latest = next;
    for (const listener of [...this.frameListeners]) listener(rows);
    this.notify();
  }

  /** The latest pushed vitals by resident (a new map after every change, for useSyncExternalStore). */
  readonly snapshot = (): ReadonlyMap<number, PushedVitals> => this.latest;

  readonly subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Every frame's rows as they arrive (for screens keeping a trail of points). */
  onFrame(listener: FrameListener): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private changed(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      const followed = this.followed();
      const kept = new Set(followed);
      if ([...this.latest.keys()].some((id) => !kept.has(id))) {
        this.latest = new Map([...this.latest].filter(([id]) => kept.has(id)));
        this.notify();
      }
      this.follow?.(followed);
    });
  }
}
