/** What the server's thread and the embedded database's worker say to each other (decision 0047). */

export interface WorkerSetup {
  /** The data directory; omitted: in memory. */
  dataDir?: string;
  /** A data directory as `PGlite.dumpDataDir` made it (tests start from a migrated template). */
  load?: Blob;
}

/** Server's thread → worker. A connection is one PostgreSQL session on the wire. */
export type ToWorker =
  | { t: 'open'; id: number }
  | { t: 'data'; id: number; bytes: Uint8Array }
  | { t: 'close'; id: number }
  /** Close the database (its files flushed) and end the thread. */
  | { t: 'shutdown' }
  /** The worker's memory: its heap and the database's WebAssembly memory. */
  | { t: 'memory' }
  /** The data directory as a tarball (tests make templates this way). */
  | { t: 'dump' }
  /** Answered at once unless a statement holds the thread (the host's watchdog). */
  | { t: 'ping' };

/** Worker → server's thread. */
export type FromWorker =
  | { t: 'ready' }
  | { t: 'failed'; message: string }
  | { t: 'opened'; id: number }
  | { t: 'data'; id: number; bytes: Uint8Array }
  /** The worker ended a connection (a protocol error); the session was reset. */
  | { t: 'closed'; id: number; reason: string }
  | { t: 'stopped' }
  | { t: 'memory'; heapBytes: number; wasmBytes: number }
  | { t: 'dump'; data: Blob }
  | { t: 'pong' };
