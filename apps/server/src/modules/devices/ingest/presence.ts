import type { Clock } from '../../../clock.ts';
import type { LiveState, LiveStatePatch, LiveStateStore } from '../live/live-state.ts';
import type { DeviceContext, DeviceDirectory } from './device-directory.ts';

/** A device silent for this many reporting intervals is offline. */
export const MISSED_INTERVALS = 3;
/** The reporting interval of a device that was never given one (`interval` command), seconds. */
export const DEFAULT_REPORT_INTERVAL_S = 60;

/** will/status: the device (or its last will) said so; disconnect: a clean DISCONNECT; lost: the connection broke. */
export type OfflineReason = 'status' | 'disconnect' | 'lost' | 'silent';

export interface PresenceChange {
  context: DeviceContext;
  online: boolean;
  at: Date;
  reason: OfflineReason | 'connect' | 'message';
}

/**
 * Online and offline. A device is online from its connection or any message; offline on its
 * last will, a clean disconnect, a status saying so, or MISSED_INTERVALS reporting intervals
 * of silence. Only a change is reported (and becomes a device event); repeats are not.
 */
export class Presence {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly live: LiveStateStore,
    private readonly directory: DeviceDirectory,
    private readonly clock: Clock,
    private readonly onChange: (change: PresenceChange) => void,
  ) {}

  /** The device spoke (or connected): updates its live state and reports it coming online. */
  seen(
    context: DeviceContext,
    at: Date,
    patch: LiveStatePatch = {},
    reason: 'connect' | 'message' = 'message',
  ): LiveState {
    const before = this.live.get(context.deviceId);
    const state = this.live.apply(context.deviceId, { ...patch, online: true }, at);
    if (!before?.online) this.onChange({ context, online: true, at, reason });
    return state;
  }

  offline(context: DeviceContext, at: Date, reason: OfflineReason, patch: LiveStatePatch = {}): LiveState {
    const before = this.live.get(context.deviceId);
    const seenAt = before?.lastSeenAt ?? at;
    const state = this.live.apply(context.deviceId, { ...patch, online: false }, seenAt);
    if (before?.online !== false) this.onChange({ context, online: false, at, reason });
    return state;
  }

  /** Marks offline every online device silent for MISSED_INTERVALS of its reporting interval. */
  sweep(): number {
    const now = this.clock.now();
    let changed = 0;
    for (const [deviceId, state] of this.live.entries()) {
      if (!state.online) continue;
      const context = this.directory.get(deviceId);
      const interval = context?.reportInterval ?? DEFAULT_REPORT_INTERVAL_S;
      if (now.getTime() - state.lastSeenAt.getTime() <= MISSED_INTERVALS * interval * 1000) continue;
      if (!context) continue;
      this.offline(context, now, 'silent');
      changed++;
    }
    return changed;
  }

  start(everyMs = 1_000): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.sweep(), everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
