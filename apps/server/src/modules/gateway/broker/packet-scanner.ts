import { MAX_PAYLOAD_BYTES } from '@vigil/contract';

/** Largest remaining length (the bytes after the fixed header) the embedded broker takes. */
export const PACKET_LIMITS = {
  /** Client id, user name and secret (64 + 64 + 128), a will of a status message: a few hundred bytes. */
  connect: 4 * 1024,
  /** A payload of the protocol's 64 KB, a topic of up to 256 bytes, its length and packet id. */
  publish: MAX_PAYLOAD_BYTES + 512,
  /** SUBSCRIBE, UNSUBSCRIBE, acknowledgements, pings. */
  other: 4 * 1024,
};
export type PacketLimits = typeof PACKET_LIMITS;

const CONNECT = 1;
const PUBLISH = 3;

export interface PacketRefusal {
  /** MQTT control packet type (1 CONNECT, 3 PUBLISH, …). */
  type: number;
  /** The remaining length its fixed header announced (-1: a malformed length). */
  announced: number;
}

/**
 * Follows the MQTT packets in a connection's bytes by their fixed headers alone (type, then the
 * remaining length in 1–4 bytes), without keeping any of them: so a packet announcing more than
 * its type's limit is refused as soon as its header is read, before its body is received.
 * aedes's parser (mqtt-packet) has no such limit and would buffer a 200 MB packet whole. The
 * first packet, which must be CONNECT, is held to the CONNECT limit whatever its type.
 */
export class PacketScanner {
  private type = -1;
  private length = 0;
  private lengthBytes = 0;
  private remaining = 0;
  private packets = 0;

  constructor(private readonly limits: PacketLimits = PACKET_LIMITS) {}

  /** Whether the first packet (the CONNECT) has been received whole. */
  get firstComplete(): boolean {
    return this.packets > 0;
  }

  /** Reads a chunk's headers; a refusal if one announces too much (the connection must close). */
  scan(chunk: Uint8Array): PacketRefusal | undefined {
    let at = 0;
    while (at < chunk.length) {
      if (this.remaining > 0) {
        const taken = Math.min(this.remaining, chunk.length - at);
        this.remaining -= taken;
        at += taken;
        if (this.remaining === 0) this.complete();
        continue;
      }
      const byte = chunk[at++] ?? 0;
      if (this.type < 0) {
        this.type = byte >> 4;
        continue;
      }
      this.length += (byte & 0x7f) * 128 ** this.lengthBytes++;
      if (byte & 0x80) {
        if (this.lengthBytes === 4) return { type: this.type, announced: -1 };
        continue;
      }
      if (this.length > this.limitOf(this.type)) return { type: this.type, announced: this.length };
      this.remaining = this.length;
      if (this.remaining === 0) this.complete();
    }
    return undefined;
  }

  private limitOf(type: number): number {
    if (this.packets === 0 || type === CONNECT) return this.limits.connect;
    return type === PUBLISH ? this.limits.publish : this.limits.other;
  }

  private complete(): void {
    this.packets++;
    this.type = -1;
    this.length = 0;
    this.lengthBytes = 0;
  }
}
