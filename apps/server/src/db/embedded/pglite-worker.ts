/**
 * The embedded database's thread (decision 0047): PGlite runs here and speaks the PostgreSQL
 * wire protocol to the server's thread, so a query's CPU never holds back devices, alarms or
 * sockets. PGlite is one session: connections take turns, each whole, and a connection that
 * ends mid-transaction is rolled back before the next one starts, as a server would.
 */
import { PGlite } from '@electric-sql/pglite';
import fs from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { FrontendFrames } from './frontend-frames.ts';
import type { FromWorker, ToWorker, WorkerSetup } from './worker-protocol.ts';

const port = parentPort;
if (!port) throw new Error('pglite-worker runs as a worker thread');
const setup = workerData as WorkerSetup;
const say = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/** Sync, then ROLLBACK: the session left as a fresh connection expects it. */
const SYNC = Uint8Array.of(0x53, 0, 0, 0, 4);
const simpleQuery = (text: string): Uint8Array => {
  const body = Buffer.from(`${text}\0`, 'utf8');
  const message = Buffer.alloc(5 + body.length);
  message.writeUInt8(0x51, 0);
  message.writeUInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return message;
};
/** The transaction status of the last ReadyForQuery ('I' idle, 'T' in a transaction, 'E' failed). */
const transactionStatus = (reply: Uint8Array): string | undefined => {
  for (let i = reply.length - 6; i >= 0; i--)
    if (reply[i] === 0x5a && reply[i + 1] === 0 && reply[i + 2] === 0 && reply[i + 3] === 0 && reply[i + 4] === 5)
      return String.fromCharCode(reply[i + 5] ?? 0);
  return undefined;
};

interface Connection {
  id: number;
  frames: FrontendFrames;
  /** Bytes that arrived before its turn. */
  waiting: Uint8Array[];
}

const start = async (): Promise<PGlite> => {
  if (setup.dataDir) fs.mkdirSync(setup.dataDir, { recursive: true });
  return setup.load ? PGlite.create({ loadDataDir: setup.load }) : PGlite.create(setup.dataDir);
};

const db = await start().catch((error: unknown) => {
  say({ t: 'failed', message: error instanceof Error ? error.message : String(error) });
  throw error;
});

/** Connections in the order they opened; the first has the session. */
const queue: Connection[] = [];
/** Everything the database does, one step after another. */
let work: Promise<void> = Promise.resolve();
const then = (step: () => Promise<void>) => {
  work = work.then(step).catch((error: unknown) => {
    // PGlite itself failed (not a query error, which is an ErrorResponse): nothing is safe now.
    say({ t: 'failed', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  });
};

const run = async (connection: Connection, chunk: Uint8Array) => {
  let frames;
  try {
    frames = connection.frames.push(chunk);
  } catch (error) {
    return end(connection, (error as Error).message);
  }
  for (const frame of frames) {
    if (frame.kind === 'ssl-request') {
      const answer = Uint8Array.of(0x4e);
      say({ t: 'data', id: connection.id, bytes: answer }, [answer.buffer]);
    } else if (frame.kind === 'cancel') {
      return end(connection, 'cancel requests are not served');
    } else if (frame.kind === 'terminate') {
      // PGlite is the one session of every connection: a goodbye ends the connection, not it.
      return release(connection);
    } else {
      const reply = await db.execProtocolRaw(frame.bytes, { syncToFs: true });
      if (reply.length) {
        const bytes = reply.slice();
        say({ t: 'data', id: connection.id, bytes }, [bytes.buffer]);
      }
    }
  }
};

/** Takes a connection off the session: a transaction it left open is rolled back. */
const release = async (connection: Connection) => {
  const index = queue.indexOf(connection);
  if (index < 0) return;
  queue.splice(index, 1);
  if (index !== 0) return;
  const status = transactionStatus(await db.execProtocolRaw(SYNC));
  if (status && status !== 'I') await db.execProtocolRaw(simpleQuery('ROLLBACK'));
  await db.execProtocolRaw(simpleQuery('DEALLOCATE ALL'));
  const next = queue[0];
  if (next) {
    for (const chunk of next.waiting.splice(0)) await run(next, chunk);
  }
};

const end = async (connection: Connection, reason: string) => {
  say({ t: 'closed', id: connection.id, reason });
  await release(connection);
};

port.on('message', (message: ToWorker) => {
  switch (message.t) {
    case 'open': {
      const connection: Connection = { id: message.id, frames: new FrontendFrames(), waiting: [] };
      queue.push(connection);
      say({ t: 'opened', id: message.id });
      return;
    }
    case 'data': {
      const connection = queue.find((c) => c.id === message.id);
      if (!connection) return;
      if (connection !== queue[0]) connection.waiting.push(message.bytes);
      else then(() => run(connection, message.bytes));
      return;
    }
    case 'close': {
      const connection = queue.find((c) => c.id === message.id);
      if (connection) then(() => release(connection));
      return;
    }
    case 'ping':
      say({ t: 'pong' });
      return;
    case 'memory':
      say({ t: 'memory', heapBytes: getHeapStatistics().used_heap_size, wasmBytes: wasmBytes() });
      return;
    case 'dump':
      then(async () => {
        const data = await db.dumpDataDir('none');
        say({ t: 'dump', data });
      });
      return;
    case 'shutdown':
      then(async () => {
        await db.close();
        say({ t: 'stopped' });
        port.close();
      });
      return;
  }
});

/** The database's WebAssembly memory (PGlite keeps it on its module). */
const wasmBytes = (): number => {
  const module = (db as unknown as { mod?: { HEAPU8?: Uint8Array } }).mod;
  return module?.HEAPU8?.byteLength ?? 0;
};

say({ t: 'ready' });
