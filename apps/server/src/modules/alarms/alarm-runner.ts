import { RELEASE_KIND, type AlarmType } from '@vigil/contract';
import { and, eq, gt, max } from 'drizzle-orm';
import type { Clock } from '../../clock.ts';
import { RateLimitedLog, type Log } from '../../core/log.ts';
import type { Db, Tx } from '../../db/database.ts';
import { deviceEvents } from '../../db/schema.ts';
import type { Emit, Transactions } from '../../db/transactions.ts';
import { kindOf } from '../devices/device.policy.ts';
import type {
  EventsStoredWork,
  DeviceContext,
  DeviceDirectory,
  DeviceFeed,
  FeedItem,
  StoredDeviceEvent,
} from '../gateway/index.ts';
import { BacklogFull } from '../../core/batch-queue.ts';
import type { AlarmRaise, AlarmRepository, AlarmRow, TimelineEntry } from './alarm.repository.ts';
import type { AlarmMetrics } from './alarm-metrics.ts';
import type { AlarmSpellStore } from './alarm-spell.store.ts';
import type { SharedSpells } from './shared-spells.ts';
import type { AlarmEngine } from './engine/alarm-engine.ts';
import type { Decision, EventDecision, Subject, WatchRelease } from './engine/engine-types.ts';
import { refusalOf, watchTarget } from './engine/watch-release.ts';
import { ALARM_EVENT, type AlarmPayload } from '../../core/event-catalogue.ts';
import { DeviceLanes } from './device-lanes.ts';
import type { WatchDirectory } from './watch-directory.ts';

export const alarmPayload = (row: AlarmRow): AlarmPayload => ({
  ...row,
  startedAt: row.startedAt.toISOString(),
  raisedAt: row.raisedAt.toISOString(),
  lastAt: row.lastAt.toISOString(),
  releasedAt: row.releasedAt?.toISOString() ?? null,
  clearedAt: row.clearedAt?.toISOString() ?? null,
  handledAt: row.handledAt?.toISOString() ?? null,
});

/** A device event as its batch stored it, with its row id. */
export type StoredEventRow = StoredDeviceEvent & { id: number };

/** How long the empty-room clock of an infrared sensor looks back for its last motion at start. */
const MOTION_LOOKBACK_MS = 25 * 3_600_000;

/**
 * Duration clocks are written this often, those that have run this long: a restart goes on from
 * them if they were written within the freshness window (a longer outage starts them over).
 */
export const SPELLS = { writeEveryMs: 10_000, minHeldMs: 30_000, freshMs: 60_000 } as const;

export interface AlarmRunnerDeps {
  db: Db;
  transactions: Transactions;
  clock: Clock;
  engine: AlarmEngine;
  watch: WatchDirectory;
  directory: DeviceDirectory;
  feed: DeviceFeed;
  repo: AlarmRepository;
  spells: AlarmSpellStore;
  /** Several instances (REDIS_URL): duration spells shared between them instead of counted here (decision 0039). */
  shared?: SharedSpells;
  metrics: AlarmMetrics;
  log: Log;
  tickMs?: number;
  spellWriteMs?: number;
}

/** The device whose alarm rows a decision writes (a watch's release: the device it names, else its own). */
const lockedDevice = (d: EventDecision): string =>
  d.op === 'watch-release' ? (d.target.deviceId ?? d.watch.deviceId) : d.key.deviceId;

/**
 * Decisions in the order their alarm rows are locked: by device, each device's own in the order
 * decided (a stable sort). Instances store the same devices' alarms (the broker shares a
 * device's messages out between them); each writing its batch in arrival order, two batches of
 * the same badges locked their alarm rows crosswise, and PostgreSQL failed one as a deadlock
 * after a second (issue 21, soak). In one shared order the second waits for the first.
 */
export const inLockOrder = <D extends EventDecision>(decisions: readonly D[]): D[] =>
  [...decisions].sort((a, b) => {
    const [x, y] = [lockedDevice(a), lockedDevice(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  });

/**
 * Runs the alarm engine on the device gateway's streams and stores what it decides. An event's
 * alarms are stored in the transaction that stores the event (the gateway's hook), so a device
 * whose event was acknowledged has its alarm too; alarms from vitals, battery and the passing
 * of time are stored by a writer that retries. Both go through one ordered lane per device
 * (decision 0038): an event's transaction first takes, and stores before its own, what that
 * device's lane still holds, so a release never commits before a raise decided earlier. Either
 * way an alarm is committed before anyone is told: the outbox publishes it after the commit.
 */
export class AlarmRunner {
  private readonly lanes: DeviceLanes<Decision>;
  /** A watch sending release after release for what it may not release is one line per period. */
  private readonly refusals: RateLimitedLog;
  /** Alarms of devices gone from the directory: one line per device and period. */
  private readonly departures: RateLimitedLog;
  private timer: NodeJS.Timeout | undefined;
  private spellTimer: NodeJS.Timeout | undefined;
  /** Devices whose spells this instance wrote last time: removed when theirs end. */
  private spellsWritten = new Set<string>();
  private spellWrite: Promise<void> | undefined;
  /** Empty rooms being checked against every instance's stored motion (several instances). */
  private readonly confirming = new Set<Promise<void>>();
  private unsubscribe: (() => void) | undefined;
  private started = false;
  private markReady: () => void = () => undefined;
  /** Resolves once the engine holds the open alarms: events wait for it, vitals before it are skipped. */
  readonly ready = new Promise<void>((resolve) => (this.markReady = resolve));

  constructor(private readonly deps: AlarmRunnerDeps) {
    this.refusals = new RateLimitedLog(deps.log);
    this.departures = new RateLimitedLog(deps.log);
    this.lanes = new DeviceLanes<Decision>({
      write: (decisions) => deps.transactions.run((tx, emit) => this.store(tx, emit, decisions)),
      deviceOf: (d) => d.key.deviceId,
      maxBatch: 200,
      maxPending: 100_000,
      onError: (error) => deps.log.warn({ err: String(error) }, 'alarms not stored; retrying'),
    });
  }

  /** Restores the engine from the open alarms and recent motion, then follows the streams. */
  async start(onError: (error: unknown) => void): Promise<void> {
    if (this.started) return;
    this.started = true;
    const { engine, watch, directory, repo, db, clock } = this.deps;
    await watch.load();
    watch.start(onError);
    const now = clock.now();
    const open: { key: { deviceId: string; type: AlarmType }; subject: Subject; since: Date }[] = [];
    for (const alarm of await repo.open(db)) {
      const context = directory.get(alarm.deviceId) ?? (await directory.lookup(alarm.deviceId));
      if (!context) continue;
      open.push({
        key: { deviceId: alarm.deviceId, type: alarm.alertType as AlarmType },
        subject: watch.subject(context, now),
        since: alarm.startedAt,
      });
    }
    engine.restore(open);
    // Shared spells outlive any one instance: alarm_spell is the one instance's restart.
    for (const stored of this.deps.shared ? [] : await this.deps.spells.load()) {
      // Every row is this instance's to replace or remove at its next write; only fresh ones go on.
      this.spellsWritten.add(stored.deviceId);
      if (now.getTime() - stored.updatedAt.getTime() > SPELLS.freshMs) continue;
      const context = directory.get(stored.deviceId) ?? (await directory.lookup(stored.deviceId));
      if (context) engine.resume(watch.subject(context, now), stored.spells, now);
    }
    const lastMotion = await db
      .select({ deviceId: deviceEvents.deviceId, at: max(deviceEvents.occurredAt) })
      .from(deviceEvents)
      .where(
        and(
          eq(deviceEvents.event, 'motion'),
          gt(deviceEvents.occurredAt, new Date(now.getTime() - MOTION_LOOKBACK_MS)),
        ),
      )
      .groupBy(deviceEvents.deviceId);
    const motionAt = new Map(lastMotion.map((m) => [m.deviceId, m.at]));
    for (const context of directory.all())
      if (kindOf(context.typeCode) === 'infrared_motion')
        engine.watchMotion(watch.subject(context, now), motionAt.get(context.deviceId) ?? now);

    this.unsubscribe = this.deps.feed.subscribe((item) => this.onFeed(item), ['vitals', 'status']);
    this.timer = setInterval(() => this.tick(), this.deps.tickMs ?? 1000);
    this.timer.unref();
    if (!this.deps.shared) {
      this.spellTimer = setInterval(() => void this.writeSpells(), this.deps.spellWriteMs ?? SPELLS.writeEveryMs);
      this.spellTimer.unref();
    }
    this.markReady();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    if (this.spellTimer) clearInterval(this.spellTimer);
    this.timer = this.spellTimer = undefined;
    this.deps.watch.stop();
    // Samples and raises the shared spells are still answering are written before the lanes close.
    await this.deps.shared?.idle();
    await Promise.all(this.confirming);
    await this.lanes.close();
    // A rolling restart goes on counting from here.
    if (this.started && !this.deps.shared) await this.writeSpells();
  }

  /** The passing of time: durations that ran out between samples, rooms empty too long. */
  tick(): void {
    this.enqueue(this.deps.engine.tick(this.deps.clock.now()));
  }

  /** Writes the duration clocks that have run a while; one write at a time, failures logged and retried next time. */
  writeSpells(): Promise<void> {
    this.spellWrite ??= (async () => {
      const now = this.deps.clock.now();
      const spells = this.deps.engine.spells(now, SPELLS.minHeldMs);
      const ended = [...this.spellsWritten].filter((id) => !spells.has(id));
      try {
        await this.deps.spells.save(spells, now);
        await this.deps.spells.remove(ended);
        this.spellsWritten = new Set(spells.keys());
      } catch (error) {
        this.deps.log.warn({ err: String(error) }, 'alarm duration clocks not written; retrying');
      }
    })().finally(() => (this.spellWrite = undefined));
    return this.spellWrite;
  }

  /**
   * An alarm raised or released by another instance (relayed): this engine sees part of the
   * same device's telemetry when the broker shares it out, so it holds the alarm open (and
   * releases it when the condition clears here) or takes its spell as done.
   */
  heardElsewhere(type: (typeof ALARM_EVENT)['raised' | 'released'], alarm: AlarmPayload): void {
    const key = { deviceId: alarm.deviceId, type: alarm.alertType as AlarmType };
    if (type === ALARM_EVENT.released) {
      this.deps.engine.closed(key, 'released elsewhere');
      return;
    }
    const context = this.deps.directory.get(alarm.deviceId);
    if (!context) return;
    const now = this.deps.clock.now();
    this.deps.engine.restore([
      { key, subject: this.deps.watch.subject(context, now), since: new Date(alarm.startedAt) },
    ]);
  }

  /** Decisions waiting for the writer (for /readyz and the tests). */
  get pending(): number {
    return this.lanes.pending;
  }

  /** Event batches waiting for an alarm write of their devices under way (for the tests). */
  get eventsWaitingForAlarmWrites(): number {
    return this.lanes.holdsWaiting;
  }

  /** Writes what waits, once the shared spells have answered; for tests and shutdown. */
  async flush(): Promise<void> {
    await this.deps.shared?.idle();
    await Promise.all(this.confirming);
    await this.lanes.drain();
  }

  /**
   * The gateway's hook, before the transaction that stores a batch of device events: holds the
   * lanes of the batch's devices (and of the devices its watches name), waiting for a write of
   * theirs under way. In each attempt of the transaction, what those lanes hold is stored first,
   * then the events' own alarms; at its end what was not committed goes back to its lanes.
   */
  async beginEvents(rows: readonly StoredDeviceEvent[]): Promise<EventsStoredWork> {
    const devices = new Set<string>();
    for (const row of rows) {
      devices.add(row.deviceId);
      const named = row.event === 'watch_release' ? watchTarget(row.detail)?.deviceId : null;
      if (named) devices.add(named);
    }
    const hold = await this.lanes.hold(devices);
    /** The latest attempt stored what it took (not taken back since). */
    let stored = false;
    return {
      run: async (tx, emit, storedRows) => {
        const undo = await this.onEventsStored(tx, emit, storedRows, hold.take());
        stored = true;
        return () => {
          stored = false;
          undo();
        };
      },
      end: (committed) => hold.end(committed && stored),
    };
  }

  /**
   * Inside the transaction that stores a batch of device events: stores `earlier` (decisions of
   * the batch's devices still waiting in their lanes), then decides and stores the events'
   * alarms. Answers the undo the gateway calls if that transaction does not commit, so a retried
   * batch is decided afresh.
   */
  async onEventsStored(
    tx: Tx,
    emit: Emit,
    rows: readonly StoredEventRow[],
    earlier: readonly Decision[] = [],
  ): Promise<() => void> {
    const { engine, clock } = this.deps;
    const now = clock.now();
    const decided: EventDecision[] = [];
    const eventIds = new Map<EventDecision, number>();
    for (const row of rows) {
      const subject = this.subjectOfEvent(row);
      if (!subject) continue;
      for (const d of engine.event(subject, { name: row.event, detail: row.detail, at: row.occurredAt }, now)) {
        decided.push(d);
        eventIds.set(d, row.id);
      }
    }
    try {
      if (earlier.length || decided.length) await this.store(tx, emit, [...earlier, ...decided], eventIds);
    } catch (error) {
      // The transaction fails with this: its retry decides these events afresh.
      engine.undo(decided);
      throw error;
    }
    return () => engine.undo(decided);
  }

  private onFeed(item: FeedItem): void {
    if (item.kind === 'vitals') {
      const { context, telemetry: t, receivedAt } = item;
      const subject = this.deps.watch.subject(context, receivedAt);
      const sample = { hr: t.hr, rr: t.rr, inBed: t.inBed, move: t.move, mat: t.mat };
      if (this.deps.shared)
        this.deps.shared.vitals(subject, { ...sample, seq: t.seq, ts: t.ts }, receivedAt, (d) => this.enqueue(d));
      else this.enqueue(this.deps.engine.vitals(subject, sample, receivedAt));
    } else if (item.kind === 'status' && item.status.battery !== undefined) {
      const now = this.deps.clock.now();
      this.enqueue(this.deps.engine.battery(this.deps.watch.subject(item.context, now), item.status.battery, now));
    }
  }

  private enqueue(decisions: readonly Decision[]): void {
    const { shared } = this.deps;
    for (const d of decisions) {
      // A raise on a spell shared by several instances is stored by the one the ledger grants it to.
      if (shared?.needsClaim(d))
        shared.claim(d, this.deps.clock.now(), (granted) => granted.forEach((g) => this.add(g)));
      else if (shared && d.op === 'raise' && d.key.type === 'NO_MOTION') this.confirmEmptyRoom(d);
      else this.add(d);
    }
  }

  /**
   * Several instances store a sensor's motion events between them, so this engine's empty-room
   * clock runs on part of them: the room is empty only if no instance stored a motion since the
   * clock's start. Otherwise the clock goes on from that motion. Not known (the database does not
   * answer): raised, as one instance would. Stored only if the engine still holds it: a motion
   * taken here meanwhile released it, and the release is in the device's lane already.
   */
  private confirmEmptyRoom(d: Extract<Decision, { op: 'raise' }>): void {
    const { db, engine, log } = this.deps;
    const raiseIfHeld = () => {
      if (engine.openTypes(d.key.deviceId).has(d.key.type)) this.add(d);
    };
    const confirming: Promise<void> = db
      .select({ at: max(deviceEvents.occurredAt) })
      .from(deviceEvents)
      .where(
        and(
          eq(deviceEvents.deviceId, d.key.deviceId),
          eq(deviceEvents.event, 'motion'),
          gt(deviceEvents.occurredAt, d.since),
        ),
      )
      .then(
        ([row]) => {
          if (!row?.at) return raiseIfHeld();
          engine.undo([d]);
          engine.watchMotion(d.subject, row.at);
        },
        (error: unknown) => {
          log.warn({ err: String(error), deviceId: d.key.deviceId }, 'last motion not read; room taken as empty');
          raiseIfHeld();
        },
      )
      .finally(() => this.confirming.delete(confirming));
    this.confirming.add(confirming);
  }

  private add(d: Decision): void {
    this.lanes.add(d).then(
      () => {
        if (this.deps.shared?.needsClaim(d)) this.deps.shared.confirm(d);
      },
      (error: unknown) => {
        // Refused (backlog full, or stopping): the engine must decide it again, not take it as stored.
        this.deps.engine.undo([d]);
        if (error instanceof BacklogFull) this.deps.log.error({ alarm: d.key }, 'alarm backlog full; decision dropped');
      },
    );
  }

  /** The device as it was when it sent the event (the stamp on the row), with today's rules. */
  private subjectOfEvent(row: StoredEventRow): Subject | undefined {
    const context = this.deps.directory.get(row.deviceId);
    if (!context) {
      // Gone since the ingest stamped it (the registry entry deleted): what it is is not known any more.
      this.deps.metrics.countDeparted('undecided');
      this.departures.warn(
        `undecided:${row.deviceId}`,
        { deviceId: row.deviceId, event: row.event, eventId: row.id },
        'event of a device no longer in the device directory: stored, no alarm decided',
      );
      return undefined;
    }
    const stamped: DeviceContext = {
      ...context,
      providerId: row.providerId,
      deviceRowId: row.deviceRowId,
      bedId: row.bedId,
      residentId: row.residentId,
    };
    return this.deps.watch.subject(stamped, row.occurredAt);
  }

  /** Stores decisions in the transaction and emits what changed; each device's in order, devices in lock order. */
  private async store(
    tx: Tx,
    emit: Emit,
    decided: readonly EventDecision[],
    eventIds?: ReadonlyMap<EventDecision, number>,
  ): Promise<void> {
    const { repo } = this.deps;
    const decisions = inLockOrder(decided);
    const timeline: TimelineEntry[] = [];
    for (let i = 0; i < decisions.length; i++) {
      const d = decisions[i] as EventDecision;
      if (d.op === 'raise') {
        await this.storeRaise(tx, emit, d, eventIds?.get(d) ?? null, timeline);
        continue;
      }
      if (d.op === 'watch-release') {
        await this.storeWatchRelease(tx, emit, d, timeline);
        continue;
      }
      // Releases of one device and kind in a row (a release button clears every type) are one statement.
      const types = [d.key.type];
      for (
        let next = decisions[i + 1];
        next?.op === 'release' &&
        next.key.deviceId === d.key.deviceId &&
        next.kind === d.kind &&
        next.cleared === d.cleared;
        next = decisions[i + 1]
      ) {
        types.push(next.key.type);
        i++;
      }
      // A watch releasing its own alarms is the watch that released them.
      const detail = d.kind === RELEASE_KIND.watch ? { kind: d.kind, watchId: d.key.deviceId } : { kind: d.kind };
      const latch = d.cleared ? d.subject.rules.latch : undefined;
      for (const alarm of await repo.release(tx, d.key.deviceId, types, d.kind, d.at, latch)) {
        timeline.push({ alarmId: alarm.id, at: d.at, step: 'released', detail });
        emit({ type: ALARM_EVENT.released, providerId: alarm.providerId, payload: { alarm: alarmPayload(alarm) } });
      }
    }
    await repo.addTimeline(tx, timeline);
  }

  /**
   * Releases what a watch named, within its provider (one conditional update: exactly once),
   * recording the watch on the timeline. Released nothing: refused quietly, logged and counted
   * (a batch retried after a deadlock counts again). The engine keeps holding the alarm open,
   * so a condition that still holds is not raised again until it clears, as after handling.
   */
  private async storeWatchRelease(tx: Tx, emit: Emit, d: WatchRelease, timeline: TimelineEntry[]): Promise<void> {
    const { repo, metrics } = this.deps;
    const watchId = d.watch.deviceId;
    const released =
      d.watch.providerId === null
        ? []
        : await repo.releaseAtWatch(tx, {
            providerId: d.watch.providerId,
            ...d.target,
            startedBy: d.startedBy,
            types: d.types,
            at: d.at,
          });
    for (const alarm of released) {
      timeline.push({ alarmId: alarm.id, at: d.at, step: 'released', detail: { kind: RELEASE_KIND.watch, watchId } });
      emit({ type: ALARM_EVENT.released, providerId: alarm.providerId, payload: { alarm: alarmPayload(alarm) } });
    }
    if (released.length) {
      metrics.countWatchRelease('released');
      return;
    }
    const refusal = refusalOf(d, await repo.namedAtWatch(tx, d.target));
    metrics.countWatchRelease(refusal);
    this.refusals.warn(
      `watch-release:${watchId}:${refusal}`,
      { watchId, providerId: d.watch.providerId, ...d.target, refusal },
      'watch release refused',
    );
  }

  private async storeRaise(
    tx: Tx,
    emit: Emit,
    d: Extract<Decision, { op: 'raise' }>,
    eventId: number | null,
    timeline: TimelineEntry[],
  ): Promise<void> {
    if (!this.deps.directory.get(d.key.deviceId)) {
      // Gone between the decision and this write (deleted, say): stored as decided, for a person to handle.
      this.deps.metrics.countDeparted('stored');
      this.departures.warn(
        `stored:${d.key.deviceId}`,
        { deviceId: d.key.deviceId, alertType: d.key.type, providerId: d.subject.providerId },
        'alarm of a device no longer in the device directory: stored as decided',
      );
    }
    const raise: AlarmRaise = {
      providerId: d.subject.providerId,
      deviceId: d.key.deviceId,
      deviceType: d.subject.typeCode,
      deviceRowId: d.subject.deviceRowId,
      bedId: d.subject.bedId,
      residentId: d.subject.residentId,
      roomId: d.subject.roomId,
      areaId: d.subject.areaId,
      caregiverId: d.subject.caregiverId,
      alertType: d.key.type,
      level: d.subject.rules.levels[d.key.type],
      startedAt: d.since,
      at: d.at,
      detail: d.detail,
      measure: d.measure,
      eventId,
      counts: d.counts,
    };
    for (const { alarm, outcome } of await this.deps.repo.raise(tx, [raise])) {
      // Raised by another instance already: nothing new to record or tell.
      if (outcome === 'open') continue;
      const repeat = outcome === 'repeated';
      timeline.push({
        alarmId: alarm.id,
        at: d.at,
        step: repeat ? 'repeated' : 'raised',
        detail: { count: alarm.count },
      });
      emit({
        type: repeat ? ALARM_EVENT.repeated : ALARM_EVENT.raised,
        providerId: alarm.providerId,
        payload: { alarm: alarmPayload(alarm) },
      });
    }
  }
}
