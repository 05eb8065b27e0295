/** How many seq numbers below the highest one each device remembers. */
export const SEQ_WINDOW = 256;

interface Window {
  high: number;
  /** seq % SEQ_WINDOW → the seq last taken in that slot. */
  slots: Float64Array;
}

/**
 * The fast half of deduplication: per device, which `seq` numbers were taken recently. A QoS 1
 * redelivery or a device's resend comes within a few messages, so a window of the last
 * SEQ_WINDOW numbers catches it in memory; the durable half is device_event's unique index.
 * A seq far below the window is a device whose counter restarted (a reset or a new firmware):
 * the window starts again from it instead of refusing the device forever.
 */
export class SeqWindow {
  private readonly windows = new Map<string, Window>();

  /** True when `seq` is new for the device (and now taken); false for a duplicate. */
  take(deviceId: string, seq: number): boolean {
    let window = this.windows.get(deviceId);
    if (!window || seq <= window.high - SEQ_WINDOW) {
      window = { high: seq, slots: new Float64Array(SEQ_WINDOW).fill(-1) };
      this.windows.set(deviceId, window);
    } else if (window.slots[seq % SEQ_WINDOW] === seq) {
      return false;
    }
    window.slots[seq % SEQ_WINDOW] = seq;
    if (seq > window.high) window.high = seq;
    return true;
  }

  /** Gives a seq back (its message could not be kept), so a resend is accepted. */
  release(deviceId: string, seq: number): void {
    const window = this.windows.get(deviceId);
    if (window && window.slots[seq % SEQ_WINDOW] === seq) window.slots[seq % SEQ_WINDOW] = -1;
  }

  get size(): number {
    return this.windows.size;
  }
}
