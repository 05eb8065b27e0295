import { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { PACKET_LIMITS, PacketScanner, type PacketLimits, type PacketRefusal } from './packet-scanner.ts';

export interface GuardEvents {
  /** A packet announced more than its limit: the connection is closed before its body is read. */
  onRefused: (refusal: PacketRefusal, authenticated: boolean) => void;
  /** The client authenticated (called once). */
  onAuthenticated?: () => void;
}

/**
 * A device's TCP connection as the embedded broker sees it: the bytes pass through unchanged,
 * but their packet headers are read on the way (`PacketScanner`), so a packet announcing more
 * than its limit closes the connection before aedes buffers any of it. Until the client has
 * authenticated nothing is read past its CONNECT: whatever it sends meanwhile waits in its own
 * TCP buffers, not in ours.
 */
export class GuardedConnection extends Duplex {
  readonly remoteAddress: string | undefined;
  private readonly scanner: PacketScanner;
  private wanted = true;
  private held = false;
  private isAuthenticated = false;

  constructor(
    private readonly socket: Socket,
    private readonly events: GuardEvents,
    limits: PacketLimits = PACKET_LIMITS,
  ) {
    super();
    this.remoteAddress = socket.remoteAddress;
    this.scanner = new PacketScanner(limits);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('end', () => this.push(null));
    socket.on('error', (error) => this.destroy(error));
    socket.on('close', () => this.destroy());
  }

  /** The broker accepted the client's CONNECT: read on. */
  authenticated(): void {
    if (this.isAuthenticated) return;
    this.isAuthenticated = true;
    this.held = false;
    this.events.onAuthenticated?.();
    if (this.wanted && !this.socket.destroyed) this.socket.resume();
  }

  private receive(chunk: Buffer): void {
    const refusal = this.scanner.scan(chunk);
    if (refusal) {
      this.events.onRefused(refusal, this.isAuthenticated);
      this.socket.destroy();
      return;
    }
    if (!this.push(chunk)) this.wanted = false;
    if (!this.isAuthenticated && this.scanner.firstComplete) this.held = true;
    if (!this.wanted || this.held) this.socket.pause();
  }

  override _read(): void {
    this.wanted = true;
    if (!this.held) this.socket.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.socket.write(chunk, encoding)) callback();
    else this.socket.once('drain', () => callback());
  }

  /** What aedes writes corked (a packet's header and body) goes out in one write. */
  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    this.socket.cork();
    let flowing = true;
    for (const { chunk } of chunks) flowing = this.socket.write(chunk);
    this.socket.uncork();
    if (flowing) callback();
    else this.socket.once('drain', () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.socket.end(() => callback());
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.socket.destroy();
    callback(error);
  }
}
