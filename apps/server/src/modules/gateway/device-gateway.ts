import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { EventStream } from '../../core/events.ts';
import type { Part } from '../../core/lifecycle.ts';
import { RateLimitedLog, type Log } from '../../core/log.ts';
import type { Db, Tx } from '../../db/database.ts';
import type { Emit, Transactions } from '../../db/transactions.ts';
import { CommandDispatcher, type CommandDelivery } from './broker/command-dispatcher.ts';
import { DeviceGate } from './broker/device-gate.ts';
import type { DeviceLink } from './broker/device-link.ts';
import { EmbeddedBroker } from './broker/embedded-broker.ts';
import { ExternalBroker } from './broker/external-broker.ts';
import { VerifiedSecrets } from './credentials/secret.ts';
import { BatchQueue } from '../../core/batch-queue.ts';
import { DeviceDirectory, type DeviceContext } from './ingest/device-directory.ts';
import { DeviceSecrets } from './credentials/device-secrets.ts';
import { DeviceMoves } from './ingest/device-moves.ts';
import { DeviceFeed, type StoredDeviceEvent } from './ingest/device-feed.ts';
import { Ingest } from './ingest/ingest.ts';
import { IngestMetrics } from './ingest/ingest-metrics.ts';
import { IngestRepository } from './ingest/ingest.repository.ts';
import { MinuteRollup } from './ingest/minute-rollup.ts';
import { Presence, type PresenceChange } from './ingest/presence.ts';
import { SeqWindow } from './ingest/seq-window.ts';
import { TelemetryWriter } from './ingest/telemetry-writer.ts';
import type { LiveStateStore } from './live/live-state.ts';
import { DatabaseLastSeen } from './live/shared-last-seen.ts';
import type { LiveStateWriter } from './live/live-state.writer.ts';

/**
 * Work done in the transaction that stores a batch of device events. The alarm engine stores an
 * event's alarms this way.
 */
export interface EventsStoredHook {
  /** Batches wait for it outside any transaction (the hook's owner is still starting). */
  ready: Promise<void>;
  /**
   * Before the batch's transaction, outside it (it may wait: for an earlier write of the same
   * devices, say): answers the work of that transaction's attempts, and is told how it ended.
   */
  begin: (rows: readonly StoredDeviceEvent[]) => Promise<EventsStoredWork>;
}

export interface EventsStoredWork {
  /**
   * In each attempt of the transaction, with the rows stored (redeliveries left out) and their
   * ids; answers what to take back if that attempt does not commit.
   */
  run: (tx: Tx, emit: Emit, rows: (StoredDeviceEvent & { id: number })[]) => Promise<() => void>;
  /** The transaction is over: committed, or given up (the batch is retried as a whole). */
  end: (committed: boolean) => void;
}

export interface GatewayDeps {
  db: Db;
  transactions: Transactions;
  /** The committed domain events: moves of devices reach the directory through them. */
  events: EventStream;
  clock: Clock;
  config: Config;
  log: Log;
  /**
   * The device commands to deliver (the devices module's), resolved when first used: that module
   * is built after the gateway, its commands reading the gateway's live state.
   */
  commands: () => CommandDelivery;
  live: { store: LiveStateStore; writer: LiveStateWriter };
}

/**
 * Events stamped with where their device was when the message came, but stored after a move
 * committed (its announcement still on the way to this instance): they take the context the
 * storing transaction reads, so neither the event nor its alarm lands at the old provider, bed or
 * resident.
 */
const restamp = (rows: StoredDeviceEvent[], fresh: ReadonlyMap<string, DeviceContext>): void => {
  for (const row of rows) {
    const now = fresh.get(row.deviceId);
    if (!now) continue;
    row.providerId = now.providerId;
    row.deviceRowId = now.deviceRowId;
    row.bedId = now.bedId;
    row.residentId = now.residentId;
  }
};

/**
 * The device gateway, assembled: the broker (embedded or external), the rules of who may
 * connect and publish, the ingest pipeline and its writers, online/offline, and command
 * delivery. `parts` start writers first and the broker last, and stop in reverse, so on
 * SIGTERM no message is taken that the writers will not store.
 */
export const buildDeviceGateway = (deps: GatewayDeps) => {
  const { db, clock, config, commands } = deps;
  const log = new RateLimitedLog(deps.log);
  const metrics = new IngestMetrics();
  const repo = new IngestRepository();
  const directory = new DeviceDirectory(db, clock);
  const moves = new DeviceMoves();
  // Moves committed here or (relayed) on another instance: the directory reads those devices again at once.
  directory.follow(deps.events, (error) =>
    log.warn('directory:moved', { err: String(error) }, 'moved devices not read again; the full reload will'),
  );
  const feed = new DeviceFeed((error) => deps.log.error({ err: String(error) }, 'device feed handler failed'));
  const rollup = new MinuteRollup();
  const telemetry = new TelemetryWriter(db, repo, rollup, clock, metrics);
  const hooks: EventsStoredHook[] = [];
  /** One transaction: the events, and what the hooks store with them (their alarms). */
  const storeEvents = async (rows: StoredDeviceEvent[]): Promise<void> => {
    const undo: (() => void)[] = [];
    const takeBack = () => undo.splice(0).forEach((u) => u());
    await Promise.all(hooks.map((h) => h.ready));
    const works: EventsStoredWork[] = [];
    let committed = false;
    try {
      for (const hook of hooks) works.push(await hook.begin(rows));
      await deps.transactions.run(async (tx, emit) => {
        takeBack(); // an attempt retried after a deadlock starts from scratch
        restamp(rows, await directory.confirm(tx, [...new Set(rows.map((r) => r.deviceId))]));
        const inserted = await repo.insertEvents(tx, rows);
        if (!works.length || !inserted.length) return;
        const byKey = new Map<string, StoredDeviceEvent[]>();
        const keyOf = (r: { deviceId: string; seq: number | null; occurredAt: Date }) =>
          `${r.deviceId}\u0000${r.seq}\u0000${r.occurredAt.getTime()}`;
        for (const row of rows) byKey.set(keyOf(row), [...(byKey.get(keyOf(row)) ?? []), row]);
        const stored = inserted.flatMap((r) => {
          const row = byKey.get(keyOf(r))?.shift();
          return row ? [{ ...row, id: r.id }] : [];
        });
        for (const work of works) undo.push(await work.run(tx, emit, stored));
      });
      committed = true;
    } catch (error) {
      takeBack();
      throw error;
    } finally {
      for (const work of works) work.end(committed);
    }
  };
  const events = new BatchQueue<StoredDeviceEvent>({
    write: storeEvents,
    maxBatch: 500,
    // Group commit: a write starts at once when none runs; what arrives meanwhile goes in the next.
    lingerMs: 0,
    maxPending: 50_000,
    onFlush: (n, seconds) => metrics.flush.observe({ queue: 'events' }, seconds),
    onError: (error) => log.warn('events:write', { err: String(error) }, 'device events not written; retrying'),
  });

  const recordPresence = (change: PresenceChange) => {
    const { context } = change;
    const stored: StoredDeviceEvent = {
      deviceId: context.deviceId,
      event: change.online ? 'online' : 'offline',
      seq: null,
      occurredAt: change.at,
      receivedAt: change.at,
      detail: { reason: change.reason },
      providerId: context.providerId,
      deviceRowId: context.deviceRowId,
      bedId: context.bedId,
      residentId: context.residentId,
    };
    events.add(stored).then(
      () => feed.publish({ kind: 'event', event: stored }),
      () => undefined,
    );
    // The embedded broker says when a device subscribed to its commands (onCommandsReady); sending
    // on "online" too would publish before the subscription and send every command twice.
    if (change.online && config.mqttUrl) void dispatcher.deliver(context.deviceId);
  };
  // With an external broker the instances share each device's messages: silence is decided on
  // what all of them saw. The embedded broker's instance hears all of its devices itself.
  const presence = new Presence(
    deps.live.store,
    directory,
    clock,
    recordPresence,
    config.mqttUrl ? new DatabaseLastSeen(db) : undefined,
    (error) =>
      log.warn('presence:shared', { err: String(error) }, 'shared last-seen times not read; nobody marked offline'),
  );

  let link: DeviceLink | undefined;
  const dispatcher = new CommandDispatcher(commands, () => link, log);
  let unlistenQueued: (() => void) | undefined;

  const ingest = new Ingest({
    clock,
    directory,
    seqs: new SeqWindow(),
    presence,
    rollup,
    events,
    feed,
    metrics,
    log,
    acknowledge: async (context, ack) => {
      await commands().acknowledge(context.deviceId, ack.id, ack.ok, ack.error);
    },
  });
  const storedSecrets = new DeviceSecrets(db);
  storedSecrets.follow(deps.events);
  const gate = new DeviceGate(storedSecrets, directory, new VerifiedSecrets(), clock, metrics, log);

  const broker: DeviceLink = config.mqttUrl
    ? new ExternalBroker({
        url: config.mqttUrl,
        clientId: config.mqttClientId,
        eventConnections: config.mqttEventConnections,
        group: config.mqttShareGroup,
        ingest,
        metrics,
        log,
      })
    : new EmbeddedBroker({
        port: config.mqttPort,
        host: config.host,
        trustedProxies: config.mqttTrustedProxies,
        gate,
        ingest,
        presence,
        directory,
        metrics,
        clock,
        log,
        onCommandsReady: (deviceId) => void dispatcher.deliver(deviceId),
      });

  metrics.countConnected = () =>
    broker instanceof EmbeddedBroker
      ? broker.connectedCount
      : [...deps.live.store.entries()].filter(([, state]) => state.online).length;
  metrics.countBacklog = () => events.pending;

  const backlog = () => events.pending + telemetry.pending;
  const parts: Part[] = [
    {
      name: 'device directory',
      start: async (report) => {
        await directory.load();
        directory.start(report);
      },
      stop: () => directory.stop(),
    },
    {
      name: 'device secrets',
      start: async (report) => {
        await storedSecrets.load();
        storedSecrets.start(report);
      },
      stop: () => storedSecrets.stop(),
    },
    {
      name: 'device events and rollups',
      start: (report) => telemetry.start(report),
      stop: async () => {
        await events.close();
        await telemetry.stop();
      },
    },
    {
      name: 'online and offline',
      start: () => presence.start(),
      stop: () => presence.stop(),
    },
    {
      name: 'command delivery',
      start: (report) => {
        // A command queued to a connected device goes out at once (before the broker starts, none is).
        unlistenQueued = commands().onQueued((deviceId) => {
          if (deps.live.store.get(deviceId)?.online) void dispatcher.deliver(deviceId);
        });
        dispatcher.start(report);
      },
      stop: () => {
        unlistenQueued?.();
        return dispatcher.stop();
      },
    },
    {
      name: config.mqttUrl ? 'external MQTT broker link' : 'embedded MQTT broker',
      start: async () => {
        await broker.start();
        link = broker;
      },
      stop: async () => {
        link = undefined;
        await broker.stop();
      },
    },
  ];

  return {
    /** Adds work to the transaction that stores each batch of device events (before start). */
    onEventsStored: (hook: EventsStoredHook) => void hooks.push(hook),
    ingest,
    feed,
    presence,
    directory,
    /** Every move of a device, a bed's occupant or a resident announces itself here, in its transaction. */
    moves,
    gate,
    metrics,
    broker,
    dispatcher,
    telemetry,
    events,
    parts,
    /** For /readyz: the writers cannot keep up or the database refuses them. */
    health: () => ({
      broker:
        broker instanceof ExternalBroker
          ? broker.flowing
            ? 'connected'
            : broker.up
              ? 'silent'
              : 'unreachable'
          : 'embedded',
      backlog: backlog(),
      failing: events.failing || telemetry.lastError !== undefined || deps.live.writer.lastError !== undefined,
    }),
  };
};
export type DeviceGateway = ReturnType<typeof buildDeviceGateway>;
