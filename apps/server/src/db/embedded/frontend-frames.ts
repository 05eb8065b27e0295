/**
 * Cuts what a PostgreSQL client writes into whole protocol messages (PGlite takes only whole
 * ones): first the untyped start-up packet (`int32 length, int32 code, …`), then typed messages
 * (`byte type, int32 length, …`). A chunk may end inside a message; its rest waits for the next.
 */
export type Frame =
  | { kind: 'messages'; bytes: Uint8Array }
  /** The client asked for TLS (or GSS) before starting: the answer is a plain 'N'. */
  | { kind: 'ssl-request' }
  /** A cancel request comes on a connection of its own and ends it. */
  | { kind: 'cancel' }
  /** The client's goodbye (Terminate): the connection ends here, the database never sees it. */
  | { kind: 'terminate' };

const SSL_REQUEST = 80_877_103;
const GSS_REQUEST = 80_877_104;
const CANCEL_REQUEST = 80_877_102;
const TERMINATE = 0x58; // 'X'
/** Larger than any statement Vigil sends (the biggest: a firmware package as base64 text, 64 MB). */
export const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export class FrontendFrames {
  private buffer: Uint8Array = new Uint8Array(0);
  private started = false;

  /** The complete frames that `chunk` finished, in order. Throws on a length no client sends. */
  push(chunk: Uint8Array): Frame[] {
    this.buffer = this.buffer.length ? concat(this.buffer, chunk) : chunk;
    const frames: Frame[] = [];
    let offset = 0;
    let runStart = 0;
    const view = () => new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
    while (true) {
      const typed = this.started ? 1 : 0;
      if (this.buffer.length < offset + typed + 4) break;
      const length = view().getUint32(offset + typed);
      if (length < 4 || length > MAX_MESSAGE_BYTES) throw new Error(`protocol message of ${length} bytes`);
      const end = offset + typed + length;
      if (this.buffer.length < end) break;
      if (!this.started) {
        const code = length >= 8 ? view().getUint32(offset + 4) : 0;
        if (code === SSL_REQUEST || code === GSS_REQUEST || code === CANCEL_REQUEST) {
          frames.push({ kind: code === CANCEL_REQUEST ? 'cancel' : 'ssl-request' });
          offset = runStart = end;
          continue;
        }
        // The start-up packet alone: the database answers it before any query.
        this.started = true;
        frames.push({ kind: 'messages', bytes: this.buffer.slice(offset, end) });
        offset = runStart = end;
        continue;
      }
      if (this.buffer[offset] === TERMINATE) {
        if (offset > runStart) frames.push({ kind: 'messages', bytes: this.buffer.slice(runStart, offset) });
        frames.push({ kind: 'terminate' });
        offset = runStart = end;
        continue;
      }
      // Whole messages go to the database together: one call for a query's Parse…Sync.
      offset = end;
    }
    if (offset > runStart) frames.push({ kind: 'messages', bytes: this.buffer.slice(runStart, offset) });
    this.buffer = this.buffer.slice(offset);
    return frames;
  }

  /** Bytes of a message not yet complete. */
  get pending(): number {
    return this.buffer.length;
  }
}

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
};
