import type { MessageKey, MessageParams } from '@vigil/contract';
import { and, asc, inArray, isNull, lte } from 'drizzle-orm';
import type { Clock } from '../clock.ts';
import { fail, type AppError } from '../core/app-error.ts';
import { isEventName, type EventName } from '../core/event-catalogue.ts';
import type { DomainEvent, EventStream, PublishedEvent } from '../core/events.ts';
import type { Log } from '../core/log.ts';
import type { Db, Executor, Tx } from './database.ts';
import { dbErrorOf, FOREIGN_KEY_VIOLATION, isRetryable, UNIQUE_VIOLATION } from './db-errors.ts';
import type { OutboxMetrics } from './outbox-metrics.ts';
import { eventOutbox } from './schema.ts';

/** Unique and foreign-key violations, by constraint name, that mean a concurrent change won. */
export type ConstraintMessages = Readonly<Record<string, MessageKey | [MessageKey, MessageParams]>>;

/** Thrown by work when what it read before taking its row locks changed meanwhile: run it again. */
export class Replan extends Error {
  override name = 'Replan';
}

export interface TransactOptions {
  /** Constraint violations turned into messages a user can act on. */
  constraints?: ConstraintMessages;
  /** The message when the attempts run out (default `busy`). */
  busy?: MessageKey;
  attempts?: number;
}

/** Records an event in the running transaction; it is published only if the transaction commits. */
export type Emit = (event: DomainEvent) => void;

/** A caller's running transaction and where the events of work done inside it go. */
export interface Within {
  tx: Executor;
  emit: Emit;
}

export const constraintError = (error: unknown, messages: ConstraintMessages): AppError | undefined => {
  const db = dbErrorOf(error);
  if (!db?.constraint || (db.code !== UNIQUE_VIOLATION && db.code !== FOREIGN_KEY_VIOLATION)) return undefined;
  const known = messages[db.constraint];
  if (!known) return undefined;
  return typeof known === 'string' ? fail(known) : fail(known[0], known[1]);
};

const DEFAULT_ATTEMPTS = 6;
/**
 * A running instance marks its events within milliseconds of the commit; older unmarked rows are
 * a dead instance's (or a mark that failed), and the sweep publishes them. The default of
 * OUTBOX_GRACE_SECONDS.
 */
export const RELAY_GRACE_MS = 30_000;
/** Ids whose mark failed, kept for the next sweep; past this the sweep's relay takes the rest. */
const MAX_UNMARKED = 10_000;

/**
 * Work that commits with the change whose events it reacts to: it runs in the same transaction,
 * after the work and before the events are stored, and its failure fails the change as any
 * failure of the work would (the alarm writers store it again). For what must never be missing
 * once the change is committed, such as the notification rows of a raised alarm (decision 0037);
 * everything else subscribes to the stream after the commit.
 */
export type Reaction<K extends EventName = EventName> = (tx: Tx, events: readonly DomainEvent<K>[]) => Promise<void>;

export interface TransactionsOptions {
  /** Where bookkeeping failures after a commit are logged. */
  log?: Log;
  metrics?: OutboxMetrics;
  /** Unmarked rows younger than this are left to the instance that committed them. */
  graceMs?: number;
}

/**
 * Runs `work` in a transaction (a savepoint when `executor` is one already), again after a
 * deadlock, a serialization failure or a Replan; maps the given constraint violations to messages.
 */
export const transact = async <T>(
  executor: Executor,
  work: (tx: Tx) => Promise<T>,
  options: TransactOptions = {},
): Promise<T> => {
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  const run = (executor as { transaction: (fn: (tx: Tx) => Promise<T>) => Promise<T> }).transaction.bind(executor);
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(work);
    } catch (error) {
      if (error instanceof Replan || isRetryable(error)) {
        if (attempt < attempts) continue;
        throw fail(options.busy ?? 'busy');
      }
      throw constraintError(error, options.constraints ?? {}) ?? error;
    }
  }
};

/**
 * Runs `work` in a savepoint of the caller's transaction (retried as `transact` does); what it
 * emits joins the caller's events only once the savepoint holds, so a refused or retried attempt
 * tells nobody of a change that did not happen.
 */
export const transactWithin = async <T>(
  within: Within,
  work: (tx: Tx, emit: Emit) => Promise<T>,
  options: TransactOptions = {},
): Promise<T> => {
  let emitted: DomainEvent[] = [];
  const value = await transact(
    within.tx,
    (tx) => {
      emitted = [];
      return work(tx, (event) => emitted.push(event));
    },
    options,
  );
  for (const event of emitted) within.emit(event);
  return value;
};

/**
 * The one way to change data and tell the rest of the system: `run` opens a transaction whose
 * work may `emit` domain events; the reactions registered for their types run in that
 * transaction, the events are written to the outbox in it, and they are published to the stream
 * after the commit, in order. A rolled-back attempt publishes nothing. Marking them published is
 * bookkeeping: when it fails the change still stands (logged, counted, marked again by the next
 * sweep). Events left unpublished (a crash between commit and mark) are published by
 * `relayPending`, at start and by the periodic sweep, once their grace period is over.
 */
export class Transactions {
  private readonly reactions = new Set<{ types: ReadonlySet<string>; react: Reaction }>();
  /** Published here, not yet marked: the sweep marks them before it relays anything. */
  private readonly unmarked = new Set<number>();
  private readonly graceMs: number;

  constructor(
    private readonly db: Db,
    private readonly stream: EventStream,
    private readonly clock: Clock,
    private readonly options: TransactionsOptions = {},
  ) {
    this.graceMs = options.graceMs ?? RELAY_GRACE_MS;
    if (options.metrics) options.metrics.unmarked = () => this.unmarked.size;
  }

  /** Runs `react` inside every transaction that emits one of `types` (see Reaction); returns the undo. */
  react<K extends EventName>(types: readonly K[], react: Reaction<K>): () => void {
    const entry = { types: new Set<string>(types), react: react as Reaction };
    this.reactions.add(entry);
    return () => this.reactions.delete(entry);
  }

  async run<T>(work: (tx: Tx, emit: Emit) => Promise<T>, options: TransactOptions = {}): Promise<T> {
    let stored: PublishedEvent[] = [];
    const result = await transact(
      this.db,
      async (tx) => {
        const emitted: DomainEvent[] = [];
        const value = await work(tx, (event) => emitted.push(event));
        stored = [];
        if (emitted.length) {
          for (const { types, react } of this.reactions) {
            const theirs = emitted.filter((e) => types.has(e.type));
            if (theirs.length) await react(tx, theirs);
          }
          stored = await this.store(tx, emitted);
        }
        return value;
      },
      options,
    );
    if (stored.length) await this.publish(stored);
    return result;
  }

  /** `run`, or inside a caller's transaction (`within`) a savepoint of it (`transactWithin`). */
  runWithin<T>(
    within: Within | undefined,
    work: (tx: Tx, emit: Emit) => Promise<T>,
    options: TransactOptions = {},
  ): Promise<T> {
    return within ? transactWithin(within, work, options) : this.run(work, options);
  }

  /**
   * The sweep's one pass: marks what this instance published but could not mark, then publishes
   * what is unmarked past the grace period (a dead instance's events). Answers how many it relayed.
   */
  async sweep(batch = 500): Promise<number> {
    await this.markAgain();
    return this.relayPending(batch);
  }

  /**
   * Publishes what is left unmarked past the grace period (at start, before serving, and at each
   * sweep). Rows are claimed with one UPDATE … SKIP LOCKED, so instances sweeping together never
   * publish the same row twice; rows younger than the grace period belong to an instance that is
   * running and about to mark them, and are left to it.
   */
  async relayPending(batch = 500): Promise<number> {
    let total = 0;
    for (;;) {
      const now = this.clock.now();
      const cutoff = new Date(now.getTime() - this.graceMs);
      const unclaimed = this.db
        .select({ id: eventOutbox.id })
        .from(eventOutbox)
        .where(and(isNull(eventOutbox.publishedAt), lte(eventOutbox.createdAt, cutoff)))
        .orderBy(asc(eventOutbox.id))
        .limit(batch)
        .for('update', { skipLocked: true });
      const rows = await this.db
        .update(eventOutbox)
        .set({ publishedAt: now })
        .where(inArray(eventOutbox.id, unclaimed))
        .returning();
      if (!rows.length) return total;
      for (const r of rows) this.unmarked.delete(r.id);
      this.stream.publish(rows.sort((a, b) => a.id - b.id).flatMap((r) => this.readBack(r)));
      this.options.metrics?.relayed(rows.length);
      total += rows.length;
    }
  }

  /** A stored row as the stream publishes it; a name no longer in the catalogue is logged, never published. */
  private readBack(row: typeof eventOutbox.$inferSelect): PublishedEvent[] {
    if (!isEventName(row.type)) {
      this.options.log?.warn({ id: row.id, type: row.type }, 'outbox row of an unknown event not published');
      return [];
    }
    // Written by `store` from the catalogue's payload of that name.
    const event = { type: row.type, providerId: row.providerId, payload: row.payload } as unknown as DomainEvent;
    return [{ ...event, id: row.id, at: row.createdAt }];
  }

  private async store(tx: Tx, events: readonly DomainEvent[]): Promise<PublishedEvent[]> {
    const at = this.clock.now();
    // Payloads are JSON objects by the catalogue's rule; the column takes any JSON object.
    const json = (payload: DomainEvent['payload']) => payload as unknown as Record<string, unknown>;
    const rows = await tx
      .insert(eventOutbox)
      .values(events.map((e) => ({ type: e.type, providerId: e.providerId, payload: json(e.payload), createdAt: at })))
      .returning({ id: eventOutbox.id });
    return events.map((e, i) => ({ ...e, id: rows[i]?.id ?? 0, at }));
  }

  /** After the commit: tells the stream, then marks. Never throws: the change is committed. */
  private async publish(events: readonly PublishedEvent[]): Promise<void> {
    const ids = events.map((e) => e.id);
    try {
      this.stream.publish(events);
      await this.mark(ids);
    } catch (error) {
      for (const id of ids) if (this.unmarked.size < MAX_UNMARKED) this.unmarked.add(id);
      this.options.metrics?.failed('mark');
      this.options.log?.warn(
        { err: String(error), events: ids.length },
        'outbox events published but not marked; the sweep marks them again',
      );
    }
  }

  private async markAgain(): Promise<void> {
    if (!this.unmarked.size) return;
    const ids = [...this.unmarked];
    try {
      await this.mark(ids);
      for (const id of ids) this.unmarked.delete(id);
    } catch (error) {
      this.options.metrics?.failed('mark');
      this.options.log?.warn({ err: String(error), events: ids.length }, 'outbox events still not marked');
    }
  }

  private async mark(ids: readonly number[]): Promise<void> {
    await this.db
      .update(eventOutbox)
      .set({ publishedAt: this.clock.now() })
      .where(and(inArray(eventOutbox.id, [...ids]), isNull(eventOutbox.publishedAt)));
  }
}
