import { Duplex } from 'node:stream';

/** How a socket reaches the worker; the host gives each socket one. */
export interface SocketLine {
  open(socket: WorkerSocket): number;
  send(id: number, bytes: Uint8Array): void;
  close(id: number): void;
}

/**
 * What `pg` takes for a network socket (its `stream` option), carried to the embedded database's
 * worker instead: one PostgreSQL connection. Writes made in one turn of the event loop — a
 * query's Parse, Bind, Describe, Execute and Sync — go over as one message.
 */
export class WorkerSocket extends Duplex {
  private id: number | undefined;
  private outgoing: Buffer[] = [];
  private flushing = false;

  constructor(private readonly line: SocketLine) {
    super();
  }

  // The net.Socket surface pg calls.
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }

  connect(): this {
    this.id = this.line.open(this);
    return this;
  }

  /** The worker took the connection. */
  opened(): void {
    this.emit('connect');
    this.flush();
  }

  /** Bytes the database answered. */
  received(bytes: Uint8Array): void {
    this.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  /** The worker ended the connection, or the worker itself ended. */
  lost(reason: string): void {
    const error = Object.assign(new Error(`embedded database connection lost: ${reason}`), { code: 'ECONNRESET' });
    this.destroy(error);
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.outgoing.push(chunk);
    if (!this.flushing) {
      this.flushing = true;
      queueMicrotask(() => this.flush());
    }
    callback();
  }

  private flush(): void {
    this.flushing = false;
    if (this.id === undefined || this.outgoing.length === 0) return;
    const bytes = new Uint8Array(Buffer.concat(this.outgoing));
    this.outgoing = [];
    this.line.send(this.id, bytes);
  }

  /** pg ends a connection after its Terminate: the readable side ends too, so the socket closes. */
  override _final(callback: (error?: Error | null) => void): void {
    this.flush();
    callback();
    this.push(null);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.id !== undefined) {
      this.flush();
      this.line.close(this.id);
      this.id = undefined;
    }
    callback(error);
  }
}
