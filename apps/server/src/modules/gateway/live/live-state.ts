/**
 * The live state of each device, kept in memory by the ingest: every message updates it, and
 * only what changed since the last flush is written (see LiveStateWriter). The set of dirty
 * entries is bounded by the number of devices, whatever the message rate: the latest state of
 * a device replaces the unwritten one.
 */
export interface LiveState {
  online: boolean;
  lastSeenAt: Date;
  battery: number | null;
  signal: number | null;
  firmwareVersion: string | null;
  hardwareVersion: string | null;
  mat: 'connected' | 'dislodged' | null;
}

/** What one message tells about a device; absent fields keep their value. */
export type LiveStatePatch = Partial<Omit<LiveState, 'lastSeenAt'>>;

const EMPTY: Omit<LiveState, 'lastSeenAt'> = {
  online: false,
  battery: null,
  signal: null,
  firmwareVersion: null,
  hardwareVersion: null,
  mat: null,
};

/**
 * "Last seen" alone is written at most this often per device: a sleep monitor is seen every
 * second, and rewriting thousands of rows a second for it stalled the server (bench/ingest.ts).
 * Every other change (online, battery, signal, firmware, mat) is written at the next flush.
 */
export const LAST_SEEN_WRITE_MS = 30_000;

const FIELDS = ['online', 'battery', 'signal', 'firmwareVersion', 'hardwareVersion', 'mat'] as const;

export class LiveStateStore {
  private readonly states = new Map<string, LiveState>();
  private dirtyIds = new Set<string>();
  /** The last-seen time each device had when it was last marked for writing. */
  private readonly markedSeen = new Map<string, number>();

  /** Told of every change of a device's `online` (Presence's decisions, at once). */
  private readonly onlineListeners = new Set<(deviceId: string, state: LiveState) => void>();

  constructor(private readonly lastSeenWriteMs = LAST_SEEN_WRITE_MS) {}

  /**
   * Calls `listener` whenever a device's online state changes here (a goodbye takes it offline at
   * once; its offline event follows only after the grace). Returns the unsubscribe.
   */
  onOnlineChange(listener: (deviceId: string, state: LiveState) => void): () => void {
    this.onlineListeners.add(listener);
    return () => this.onlineListeners.delete(listener);
  }

  /**
   * Applies a message's news; `seenAt` only moves forward (a late message never rewinds it).
   * `urgent`: written at the next flush even if only last-seen moved (a device announcing
   * itself after a reconnect: other instances decide its presence on it).
   */
  apply(deviceId: string, patch: LiveStatePatch, seenAt: Date, urgent = false): LiveState {
    const current = this.states.get(deviceId);
    const base = current ?? EMPTY;
    // Field by field, not spread: this runs for every message of every device (bench/ingest.ts
    // profile), and an absent field keeps its value while null is news.
    const next: LiveState = {
      online: patch.online ?? base.online,
      lastSeenAt: current && current.lastSeenAt > seenAt ? current.lastSeenAt : seenAt,
      battery: patch.battery !== undefined ? patch.battery : base.battery,
      signal: patch.signal !== undefined ? patch.signal : base.signal,
      firmwareVersion: patch.firmwareVersion !== undefined ? patch.firmwareVersion : base.firmwareVersion,
      hardwareVersion: patch.hardwareVersion !== undefined ? patch.hardwareVersion : base.hardwareVersion,
      mat: patch.mat !== undefined ? patch.mat : base.mat,
    };
    this.states.set(deviceId, next);
    if (current?.online !== next.online) for (const listener of this.onlineListeners) listener(deviceId, next);
    const changed = !current || FIELDS.some((field) => current[field] !== next[field]);
    const marked = this.markedSeen.get(deviceId);
    if (urgent || changed || marked === undefined || next.lastSeenAt.getTime() - marked >= this.lastSeenWriteMs) {
      this.dirtyIds.add(deviceId);
      this.markedSeen.set(deviceId, next.lastSeenAt.getTime());
    }
    return next;
  }

  /**
   * Another instance saw the device at `seenAt`: moves last-seen forward here without marking it
   * for writing (that instance writes its own sighting).
   */
  adopt(deviceId: string, seenAt: Date): void {
    const current = this.states.get(deviceId);
    if (current && seenAt > current.lastSeenAt) this.states.set(deviceId, { ...current, lastSeenAt: seenAt });
  }

  get(deviceId: string): LiveState | undefined {
    return this.states.get(deviceId);
  }

  /** Loads what was persisted (at start), without marking it dirty. */
  load(rows: Iterable<[string, LiveState]>): void {
    for (const [deviceId, state] of rows) {
      this.states.set(deviceId, state);
      this.markedSeen.set(deviceId, state.lastSeenAt.getTime());
    }
  }

  entries(): IterableIterator<[string, LiveState]> {
    return this.states.entries();
  }

  get dirtyCount(): number {
    return this.dirtyIds.size;
  }

  /** Takes up to `max` dirty entries for writing; `putBack` returns them after a failed write. */
  takeDirty(max: number): { entries: [string, LiveState][]; putBack: () => void } {
    const entries: [string, LiveState][] = [];
    for (const deviceId of this.dirtyIds) {
      if (entries.length >= max) break;
      const state = this.states.get(deviceId);
      if (state) entries.push([deviceId, state]);
    }
    for (const [deviceId] of entries) this.dirtyIds.delete(deviceId);
    return {
      entries,
      putBack: () => {
        // A newer update may have marked it dirty again meanwhile: adding is idempotent.
        for (const [deviceId] of entries) this.dirtyIds.add(deviceId);
      },
    };
  }
}
