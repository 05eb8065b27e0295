import type { Clock } from '../../../clock.ts';
import type { LiveState, LiveStatePatch, LiveStateStore } from '../live/live-state.ts';
import type { DeviceContext, DeviceDirectory } from './device-directory.ts';

/** A device silent for this many reporting intervals is offline. */
export const MISSED_INTERVALS = 3;
/** The reporting interval of a device that was never given one (`interval` command), seconds. */
export const DEFAULT_REPORT_INTERVAL_S = 60;
/**
 * A device that said goodbye or lost its connection is announced offline (a device event, a
 * CONNECTION alarm) only if it has not come back within this time: a broker restart, a Wi-Fi
 * roam or a device's restart is a blip, not an outage. Longer than the time another instance's
 * sighting takes to be written (LAST_SEEN_WRITE_MS and a flush), so a device back on another
 * instance is known here first.
 */
export const OFFLINE_GRACE_MS = 45_000;
/** With several instances, how often the devices announced offline here are looked up for a comeback elsewhere. */
const COMEBACK_CHECK_MS = 5_000;

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

interface Goodbye {
  context: DeviceContext;
  at: Date;
  reason: OfflineReason;
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
 *
 * A goodbye (last will, status, DISCONNECT, a lost connection) takes the device offline in its
 * live state at once, but is announced only after OFFLINE_GRACE_MS without the device coming
 * back, here or on another instance: then as it happened, with its time and reason.
 */
export class Presence {
  private timer: NodeJS.Timeout | undefined;
  private sweeping = false;
  /** Goodbyes not announced yet, by device. */
  private readonly goodbyes = new Map<string, Goodbye>();
  /**
   * With several instances: the devices this instance announced offline, and when. Another
   * instance may be the one hearing the device come back (it never knew it was gone), so these
   * are looked up in the shared last-seen times to announce the comeback here.
   */
  private readonly announcedOffline = new Map<string, { context: DeviceContext; at: Date }>();
  private comebacksCheckedAt = 0;

  constructor(
    private readonly live: LiveStateStore,
    private readonly directory: Pick<DeviceDirectory, 'get'>,
    private readonly clock: Clock,
    private readonly onChange: (change: PresenceChange) => void,
    private readonly shared?: SharedLastSeen,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly graceMs = OFFLINE_GRACE_MS,
  ) {}

  /**
   * The device spoke (or connected): updates its live state and reports it coming online. A
   * connection, or a status saying it is online (what a device sends on connecting), is written
   * at the next flush: the other instances judge goodbyes and silence on it.
   */
  seen(
    context: DeviceContext,
    at: Date,
    patch: LiveStatePatch = {},
    reason: 'connect' | 'message' = 'message',
    announced = false,
  ): LiveState {
    const before = this.live.get(context.deviceId);
    const state = this.live.apply(context.deviceId, { ...patch, online: true }, at, announced || reason === 'connect');
    // Back within the grace: its goodbye is forgotten, and there is no comeback to announce.
    if (!before?.online && !this.goodbyes.delete(context.deviceId))
      this.onChange({ context, online: true, at, reason });
    return state;
  }

  offline(context: DeviceContext, at: Date, reason: OfflineReason, patch: LiveStatePatch = {}): LiveState {
    const before = this.live.get(context.deviceId);
    const seenAt = before?.lastSeenAt ?? at;
    const state = this.live.apply(context.deviceId, { ...patch, online: false }, seenAt);
    if (before?.online === false) return state;
    // Silence was already waited for; a goodbye waits for the grace.
    if (reason === 'silent' || this.graceMs <= 0) this.announce({ context, online: false, at, reason });
    else this.goodbyes.set(context.deviceId, { context, at, reason });
    return state;
  }

  private announce(change: PresenceChange): void {
    const id = change.context.deviceId;
    if (!this.shared) this.announcedOffline.clear();
    else if (change.online) this.announcedOffline.delete(id);
    else this.announcedOffline.set(id, { context: change.context, at: change.at });
    this.onChange(change);
  }

  /** Devices announced offline here that another instance has heard since: their comeback, announced here. */
  private async announceComebacks(): Promise<number> {
    const now = this.clock.now().getTime();
    if (!this.shared || !this.announcedOffline.size || now - this.comebacksCheckedAt < COMEBACK_CHECK_MS) return 0;
    this.comebacksCheckedAt = now;
    const elsewhere = await this.shared.of([...this.announcedOffline.keys()]);
    let back = 0;
    for (const [deviceId, gone] of this.announcedOffline) {
      const other = elsewhere.get(deviceId);
      if (!other || other <= gone.at || this.live.get(deviceId)?.online) continue;
      this.seen(gone.context, other);
      back++;
    }
    return back;
  }

  /** Goodbyes whose grace ran out: announced, unless the device was seen on another instance since. */
  private async announceGoodbyes(): Promise<number> {
    const now = this.clock.now().getTime();
    const due = [...this.goodbyes.entries()].filter(([, goodbye]) => now - goodbye.at.getTime() >= this.graceMs);
    if (!due.length) return 0;
    let elsewhere = new Map<string, Date>();
    if (this.shared) {
      try {
        elsewhere = await this.shared.of(due.map(([deviceId]) => deviceId));
      } catch (error) {
        // Unknown: announced at a later sweep, once it can be told.
        this.onError(error);
        return 0;
      }
    }
    let announced = 0;
    for (const [deviceId, goodbye] of due) {
      if (this.goodbyes.get(deviceId) !== goodbye) continue;
      this.goodbyes.delete(deviceId);
      const other = elsewhere.get(deviceId);
      if (other && other > goodbye.at) {
        // Back on another instance: online here too, without an event (there was no outage to tell).
        this.live.apply(deviceId, { online: true }, other);
        continue;
      }
      this.announce({ context: goodbye.context, online: false, at: goodbye.at, reason: goodbye.reason });
      announced++;
    }
    return announced;
  }

  /** Marks offline every online device silent for MISSED_INTERVALS of its reporting interval; answers how many. */
  async sweep(): Promise<number> {
    if (this.sweeping) return 0;
    this.sweeping = true;
    try {
      return (await this.announceGoodbyes()) + (await this.sweepSilent()) + (await this.announceComebacks());
    } finally {
      this.sweeping = false;
    }
  }

  private async sweepSilent(): Promise<number> {
    const silent = this.silentHere();
    if (!silent.length) return 0;
    if (!this.shared) {
      const now = this.clock.now();
      for (const device of silent) this.offline(device.context, now, 'silent');
      return silent.length;
    }
    let elsewhere: Map<string, Date>;
    try {
      elsewhere = await this.shared.of(silent.map((d) => d.deviceId));
    } catch (error) {
      this.onError(error);
      return 0;
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
