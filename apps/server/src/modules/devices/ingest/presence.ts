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
 * What the other instances saw: with an external broker a device's messages are shared out
 * between the instances, so one instance's silence is not the device's. The latest time any
 * instance saw each device, as written to the database (at most `lagMs` behind the truth).
 */
export interface SharedLastSeen {
  of(deviceIds: readonly string[]): Promise<Map<string, Date>>;
  lagMs: number;
}

interface Silent {
  deviceId: string;
  context: DeviceContext;
  thresholdMs: number;
}

/**
 * Online and offline. A device is online from its connection or any message; offline on its
 * last will, a clean disconnect, a status saying so, or MISSED_INTERVALS reporting intervals
 * of silence. Only a change is reported (and becomes a device event); repeats are not.
 *
 * With several instances (`shared`), silence is decided on what every instance saw: a device
 * silent here is first looked up in the shared last-seen times, and is offline only when it
 * was silent everywhere for its intervals plus the time a sighting may take to be written.
 * When that cannot be read (the database is down), nobody is marked offline on a guess.
 */
export class Presence {
  private timer: NodeJS.Timeout | undefined;
  private sweeping = false;

  constructor(
    private readonly live: LiveStateStore,
    private readonly directory: Pick<DeviceDirectory, 'get'>,
    private readonly clock: Clock,
    private readonly onChange: (change: PresenceChange) => void,
    private readonly shared?: SharedLastSeen,
    private readonly onError: (error: unknown) => void = () => undefined,
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

  /** Marks offline every online device silent for MISSED_INTERVALS of its reporting interval; answers how many. */
  async sweep(): Promise<number> {
    if (this.sweeping) return 0;
    const silent = this.silentHere();
    if (!silent.length) return 0;
    if (!this.shared) {
      const now = this.clock.now();
      for (const device of silent) this.offline(device.context, now, 'silent');
      return silent.length;
    }
    this.sweeping = true;
    let elsewhere: Map<string, Date>;
    try {
      elsewhere = await this.shared.of(silent.map((d) => d.deviceId));
    } catch (error) {
      this.onError(error);
      return 0;
    } finally {
      this.sweeping = false;
    }
    const now = this.clock.now().getTime();
    let changed = 0;
    for (const { deviceId, context, thresholdMs } of silent) {
      const state = this.live.get(deviceId);
      if (!state?.online) continue;
      const other = elsewhere.get(deviceId);
      // Seen by another instance since: known here too, so the next sweep starts from it.
      if (other && other > state.lastSeenAt) this.live.adopt(deviceId, other);
      const latest = Math.max(state.lastSeenAt.getTime(), other?.getTime() ?? 0);
      if (now - latest <= thresholdMs + this.shared.lagMs) continue;
      this.offline(context, new Date(now), 'silent');
      changed++;
    }
    return changed;
  }

  /** The online devices this instance has not heard from for MISSED_INTERVALS of their interval. */
  private silentHere(): Silent[] {
    const now = this.clock.now().getTime();
    const silent: Silent[] = [];
    for (const [deviceId, state] of this.live.entries()) {
      if (!state.online) continue;
      const context = this.directory.get(deviceId);
      const thresholdMs = MISSED_INTERVALS * (context?.reportInterval ?? DEFAULT_REPORT_INTERVAL_S) * 1000;
      if (!context || now - state.lastSeenAt.getTime() <= thresholdMs) continue;
      // Waiting for the shared times only after the extra lag, so most sweeps need no query.
      if (this.shared && now - state.lastSeenAt.getTime() <= thresholdMs + this.shared.lagMs) continue;
      silent.push({ deviceId, context, thresholdMs });
    }
    return silent;
  }

  start(everyMs = 1_000): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.sweep().catch(this.onError);
    }, everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
