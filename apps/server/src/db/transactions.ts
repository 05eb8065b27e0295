import type { MessageKey, MessageParams } from '@vigil/contract';
import { and, asc, inArray, isNull, lte } from 'drizzle-orm';
import type { Clock } from '../clock.ts';
import { fail, type AppError } from '../core/app-error.ts';
import type { DomainEvent, EventStream, PublishedEvent } from '../core/events.ts';
import type { Db, Executor, Tx } from './database.ts';
import { dbErrorOf, FOREIGN_KEY_VIOLATION, isRetryable, UNIQUE_VIOLATION } from './db-errors.ts';
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

export const constraintError = (error: unknown, messages: ConstraintMessages): AppError | undefined => {
  const db = dbErrorOf(error);
  if (!db?.constraint || (db.code !== UNIQUE_VIOLATION && db.code !== FOREIGN_KEY_VIOLATION)) return undefined;
  const known = messages[db.constraint];
  if (!known) return undefined;
  return typeof known === 'string' ? fail(known) : fail(known[0], known[1]);
};

const DEFAULT_ATTEMPTS = 6;
/** A running instance marks its events within milliseconds of the commit; older unmarked rows are a crash's. */
export const RELAY_GRACE_MS = 30_000;

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
 * The one way to change data and tell the rest of the system: `run` opens a transaction whose
 * work may `emit` domain events; they are written to the outbox in that transaction and
 * published to the stream after the commit, in order. A rolled-back attempt publishes nothing.
 * Events left unpublished by a crash are published by `relayPending` at the next start.
 */
export class Transactions {
  constructor(
    private readonly db: Db,
    private readonly stream: EventStream,
    private readonly clock: Clock,
  ) {}

  async run<T>(work: (tx: Tx, emit: Emit) => Promise<T>, options: TransactOptions = {}): Promise<T> {
    let stored: PublishedEvent[] = [];
    const result = await transact(
      this.db,
      async (tx) => {
        const emitted: DomainEvent[] = [];
        const value = await work(tx, (event) => emitted.push(event));
        stored = emitted.length ? await this.store(tx, emitted) : [];
        return value;
      },
      options,
    );
    if (stored.length) await this.publish(stored);
    return result;
  }

  /**
   * Publishes what a crash left in the outbox (call once at start, before serving). Rows are
   * claimed with one UPDATE … SKIP LOCKED, so instances starting together never publish the same
   * row twice; rows younger than the grace period belong to an instance that is running and
   * about to mark them, and are left to it.
   */
  async relayPending(batch = 500): Promise<number> {
    let total = 0;
    for (;;) {
      const now = this.clock.now();
      const cutoff = new Date(now.getTime() - RELAY_GRACE_MS);
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
      this.stream.publish(
        rows
          .sort((a, b) => a.id - b.id)
          .map((r) => ({ id: r.id, at: r.createdAt, type: r.type, providerId: r.providerId, payload: r.payload })),
      );
      total += rows.length;
    }
  }

  private async store(tx: Tx, events: readonly DomainEvent[]): Promise<PublishedEvent[]> {
    const at = this.clock.now();
    const rows = await tx
      .insert(eventOutbox)
      .values(events.map((e) => ({ type: e.type, providerId: e.providerId, payload: e.payload, createdAt: at })))
      .returning({ id: eventOutbox.id });
    return events.map((e, i) => ({ ...e, id: rows[i]?.id ?? 0, at }));
  }

  private async publish(events: readonly PublishedEvent[]): Promise<void> {
    this.stream.publish(events);
    await this.db
      .update(eventOutbox)
      .set({ publishedAt: this.clock.now() })
      .where(
        inArray(
          eventOutbox.id,
          events.map((e) => e.id),
        ),
      );
  }
}
