import type { LiveVitals } from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import type { Log } from '../../core/log.ts';
import type { DeviceDirectory, DeviceFeed, FeedItem, LiveStateStore } from '../gateway/index.ts';
import { isSleepMonitor } from './sleep-monitors.ts';

/** A sleep monitor's latest sample. */
export interface VitalsSample {
  heartRate: number;
  breathRate: number;
  inBed: boolean;
  move: number;
  /** When the server received it, ms since the epoch. */
  receivedAt: number;
}

/** What the hub knows of one sleep monitor; also what instances exchange over Redis. */
export interface DeviceVitals {
  deviceId: string;
  online: boolean;
  /** null before the first sample. */
  sample: VitalsSample | null;
  /** When this became true, ms since the epoch: of two copies (two instances) the newer wins. */
  at: number;
  /** Its status says a firmware upgrade is under way (downloading, verifying, installing). */
  upgrading?: boolean;
}

/** A socket following residents' vitals. */
export interface VitalsFollower {
  send(rows: LiveVitals[]): void;
}

interface Entry extends DeviceVitals {
  /** The hub's change counter when this entry last changed. */
  version: number;
}

interface Following {
  residentIds: readonly number[];
  /** Per resident, what its last row was built from (device and version): unchanged rows are not sent again. */
  sent: Map<number, string>;
  /** The hub's counters when this follower was last looked at: nothing moved, nothing to look at. */
  checked: { version: number; index: number } | null;
}

export interface VitalsHubDeps {
  feed: Pick<DeviceFeed, 'subscribe'>;
  /** Which sleep monitor serves which resident (its bed), and which devices still exist. */
  directory: Pick<DeviceDirectory, 'get' | 'all' | 'version'>;
  /**
   * The gateway's live state: online as Presence decides it (a goodbye takes a monitor offline at
   * once, its offline event follows after the grace), and for devices not heard since start.
   */
  live: Pick<LiveStateStore, 'get' | 'onOnlineChange'>;
  clock: Clock;
  log: Log;
  /** How often followers get their frame; 0: no timer (tests call tick()). Default 1 s. */
  tickMs?: number;
}

const sameSample = (a: VitalsSample | null, b: VitalsSample | null): boolean =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.receivedAt === b.receivedAt &&
    a.heartRate === b.heartRate &&
    a.breathRate === b.breathRate &&
    a.inBed === b.inBed &&
    a.move === b.move);

/**
 * The live vitals of the sleep monitors, in memory: the latest sample and online state per
 * device, from the gateway's feed (and, with several instances, from the others over Redis).
 * Once a tick (a second) each following socket gets one frame with the rows of its residents
 * that changed since its previous frame, and none when nothing did. Memory is bounded by the
 * devices of the directory: entries of devices gone are dropped when it changes.
 */
export class VitalsHub {
  private readonly devices = new Map<string, Entry>();
  private version = 0;
  /** Devices this instance heard from since the last takeChangedHere (what it tells the others). */
  private readonly changedHere = new Set<string>();
  private readonly followers = new Map<VitalsFollower, Following>();
  private byResident = new Map<number, string>();
  private indexGeneration = 0;
  /** The directory's version the index was built from: a move or a reload changes it. */
  private indexedVersion: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private unlisten: (() => void) | undefined;

  constructor(private readonly deps: VitalsHubDeps) {}

  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.deps.feed.subscribe((item) => this.onFeed(item), ['vitals', 'status']);
    // Online is the live state's, as the lists read it (decision 0034), followed as it changes: a
    // goodbye takes the monitor offline at once. Not the online/offline events: those are the same
    // decisions announced later (an offline after the grace), and would only contradict it meanwhile.
    this.unlisten = this.deps.live.onOnlineChange((deviceId, state) => {
      const typeCode = this.deps.directory.get(deviceId)?.typeCode;
      if (typeCode !== undefined && isSleepMonitor(typeCode)) this.setOnline(deviceId, state.online, this.now());
    });
    const tickMs = this.deps.tickMs ?? 1_000;
    if (tickMs > 0) {
      this.timer = setInterval(() => this.tick(), tickMs);
      this.timer.unref();
    }
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.unlisten?.();
    this.unlisten = undefined;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.followers.clear();
  }

  /** Replaces what a follower follows; its next frame carries every row of the new list. [] stops. */
  follow(follower: VitalsFollower, residentIds: readonly number[]): void {
    if (!residentIds.length) {
      this.followers.delete(follower);
      return;
    }
    this.followers.set(follower, { residentIds: [...new Set(residentIds)], sent: new Map(), checked: null });
  }

  unfollow(follower: VitalsFollower): void {
    this.followers.delete(follower);
  }

  /** Residents a follower follows now (for tests and metrics). */
  followedBy(follower: VitalsFollower): readonly number[] {
    return this.followers.get(follower)?.residentIds ?? [];
  }

  /** Sends each follower one frame of its changed rows (the timer calls it once a second). */
  tick(): void {
    if (this.deps.directory.version !== this.indexedVersion) this.reindex();
    for (const [follower, following] of this.followers) {
      const { checked } = following;
      if (checked && checked.version === this.version && checked.index === this.indexGeneration) continue;
      following.checked = { version: this.version, index: this.indexGeneration };
      const rows: LiveVitals[] = [];
      for (const residentId of following.residentIds) {
        const deviceId = this.byResident.get(residentId);
        if (!deviceId) {
          following.sent.delete(residentId);
          continue;
        }
        const key = `${deviceId}:${this.devices.get(deviceId)?.version ?? 0}`;
        if (following.sent.get(residentId) === key) continue;
        following.sent.set(residentId, key);
        rows.push(this.vitalsOf(residentId, deviceId));
      }
      if (!rows.length) continue;
      try {
        follower.send(rows);
      } catch (error) {
        this.deps.log.warn({ err: String(error) }, 'vitals frame not sent');
      }
    }
  }

  /** A resident's row, from the sleep monitor of their bed. */
  vitalsOf(residentId: number, deviceId: string): LiveVitals {
    const entry = this.devices.get(deviceId);
    const online = entry?.online ?? this.deps.live.get(deviceId)?.online ?? false;
    const sample = entry?.sample ?? null;
    // Offline, the last sample says nothing of now: only its time is kept.
    const now = online ? sample : null;
    return {
      userId: residentId,
      deviceId,
      online,
      inBed: now ? now.inBed : null,
      heartRate: now ? now.heartRate : null,
      breathRate: now ? now.breathRate : null,
      move: now ? now.move : null,
      ts: sample ? Math.floor(sample.receivedAt / 1000) : null,
      upgrading: entry?.upgrading ?? false,
    };
  }

  /** What the hub knows of a device (online, latest sample), if anything. */
  device(deviceId: string): DeviceVitals | undefined {
    return this.devices.get(deviceId);
  }

  /** The devices this instance heard from since the last call, for the other instances. */
  takeChangedHere(): DeviceVitals[] {
    const out: DeviceVitals[] = [];
    for (const deviceId of this.changedHere) {
      const entry = this.devices.get(deviceId);
      if (entry) {
        out.push({
          deviceId,
          online: entry.online,
          sample: entry.sample,
          at: entry.at,
          upgrading: entry.upgrading ?? false,
        });
      }
    }
    this.changedHere.clear();
    return out;
  }

  /** What another instance heard: kept where newer, for devices this instance knows. */
  merge(rows: readonly DeviceVitals[]): void {
    for (const row of rows) {
      const context = this.deps.directory.get(row.deviceId);
      if (!context || !isSleepMonitor(context.typeCode)) continue;
      this.put(row, false);
    }
  }

  private onFeed(item: FeedItem): void {
    switch (item.kind) {
      case 'vitals': {
        const { context, telemetry: t } = item;
        if (!isSleepMonitor(context.typeCode)) return;
        const receivedAt = item.receivedAt.getTime();
        this.put(
          {
            deviceId: context.deviceId,
            online: true,
            sample: { heartRate: t.hr, breathRate: t.rr, inBed: t.inBed, move: t.move, receivedAt },
            at: receivedAt,
          },
          true,
        );
        // A bed's monitor speaks before the index is rebuilt from the directory's change.
        if (context.residentId !== null && this.byResident.get(context.residentId) !== context.deviceId) {
          this.byResident.set(context.residentId, context.deviceId);
          this.indexGeneration++;
        }
        return;
      }
      case 'status': {
        if (!isSleepMonitor(item.context.typeCode)) return;
        const { ota, online } = item.status;
        // While an upgrade runs every status carries `ota`; a status without it after one (the
        // restart's) ends it. Offline keeps what was known: the monitor restarting to install.
        const upgrading = ota ? ota.state !== 'failed' : online ? false : undefined;
        this.setOnline(item.context.deviceId, item.state.online, this.now(), upgrading);
        return;
      }
    }
  }

  private now(): number {
    return this.deps.clock.now().getTime();
  }

  private setOnline(deviceId: string, online: boolean, at: number, upgrading?: boolean): void {
    const entry = this.devices.get(deviceId);
    this.put(
      {
        deviceId,
        online,
        sample: entry?.sample ?? null,
        at: Math.max(at, entry?.at ?? at),
        upgrading: upgrading ?? entry?.upgrading ?? false,
      },
      true,
    );
  }

  private put(next: DeviceVitals, heardHere: boolean): void {
    const entry = this.devices.get(next.deviceId);
    if (entry && entry.at > next.at) return;
    // A sample says nothing of an upgrade: what was known stays.
    const upgrading = next.upgrading ?? entry?.upgrading ?? false;
    if (
      entry &&
      entry.online === next.online &&
      sameSample(entry.sample, next.sample) &&
      (entry.upgrading ?? false) === upgrading
    ) {
      entry.at = next.at;
      return;
    }
    // Once a second for every monitor: changed in place, no new object per sample.
    if (entry) {
      entry.online = next.online;
      entry.sample = next.sample;
      entry.at = next.at;
      entry.upgrading = upgrading;
      entry.version = ++this.version;
    } else this.devices.set(next.deviceId, { ...next, upgrading, version: ++this.version });
    if (heardHere) this.changedHere.add(next.deviceId);
  }

  /** Resident → sleep monitor from the directory (its bed's device), and drops devices gone. */
  private reindex(): void {
    this.indexedVersion = this.deps.directory.version;
    const byResident = new Map<number, string>();
    const known = new Set<string>();
    for (const context of this.deps.directory.all()) {
      if (!isSleepMonitor(context.typeCode)) continue;
      known.add(context.deviceId);
      if (context.residentId !== null) byResident.set(context.residentId, context.deviceId);
    }
    for (const deviceId of this.devices.keys()) {
      if (known.has(deviceId)) continue;
      this.devices.delete(deviceId);
      this.changedHere.delete(deviceId);
    }
    this.byResident = byResident;
    this.indexGeneration++;
  }
}
