/**
 * Domain events: what changed, recorded in the same transaction as the change (the outbox) and
 * published after the commit to the in-process stream. Device state, alarms, notifications and
 * settings ride on it; the Redis relay carries the same stream between instances. Names and
 * payloads are the catalogue's (`event-catalogue.ts`).
 */
import type { EventCatalogue, EventName, TransientCatalogue, TransientName } from './event-catalogue.ts';

/** A change as emitted: one of the catalogue's events, with the payload its name says. */
export type DomainEvent<K extends EventName = EventName> = {
  [N in K]: {
    type: N;
    /** The provider whose data changed; null for platform-wide changes. */
    providerId: number | null;
    payload: EventCatalogue[N];
  };
}[K];

/** An event as stored and published: its outbox id (increasing) and commit time. */
export type PublishedEvent<K extends EventName = EventName> = DomainEvent<K> & {
  id: number;
  at: Date;
  /** Set when another instance committed it (relayed over the bus); absent for this instance's own. */
  origin?: string;
};

/** Told, never stored (see TransientCatalogue). */
export type TransientEvent<K extends TransientName = TransientName> = {
  [N in K]: { type: N; payload: TransientCatalogue[N]; origin?: string };
}[K];

export type EventHandler<K extends EventName = EventName> = (event: PublishedEvent<K>) => void;
type TransientHandler<K extends TransientName = TransientName> = (event: TransientEvent<K>) => void;

interface Entry<E> {
  types: ReadonlySet<string> | null;
  handle: (event: E) => void;
}

/**
 * The in-process stream. Handlers run synchronously in publish order; one that throws is
 * reported and never stops the others or the publisher (the change is committed already).
 */
export class EventStream {
  private readonly handlers = new Set<Entry<PublishedEvent>>();
  private readonly listeners = new Set<Entry<TransientEvent>>();
  private onHandlerError: (error: unknown, event: { type: string }) => void = () => undefined;

  /** Where a failing handler is reported (the server's log). */
  reportErrorsTo(report: (error: unknown, event: { type: string }) => void): void {
    this.onHandlerError = report;
  }

  /** Subscribes to the given types; returns the unsubscribe function. */
  subscribe<K extends EventName>(handle: EventHandler<K>, types: readonly K[]): () => void {
    return this.add(this.handlers, handle as EventHandler, new Set(types));
  }

  /** Subscribes to every event (the relay). */
  subscribeAll(handle: EventHandler): () => void {
    return this.add(this.handlers, handle, null);
  }

  publish(events: readonly PublishedEvent[]): void {
    for (const event of events) this.deliver(this.handlers, event);
  }

  /** Tells this instance's listeners (and, through the relay, the others'); nothing is stored. */
  announce(event: TransientEvent): void {
    this.deliver(this.listeners, event);
  }

  /** Listens to a transient event; returns the undo. */
  listen<K extends TransientName>(type: K, handle: TransientHandler<K>): () => void {
    return this.add(this.listeners, handle as TransientHandler, new Set([type]));
  }

  /** Listens to every transient event (the relay). */
  listenAll(handle: TransientHandler): () => void {
    return this.add(this.listeners, handle, null);
  }

  private add<E>(set: Set<Entry<E>>, handle: (event: E) => void, types: ReadonlySet<string> | null): () => void {
    const entry = { types, handle };
    set.add(entry);
    return () => set.delete(entry);
  }

  private deliver<E extends { type: string }>(set: ReadonlySet<Entry<E>>, event: E): void {
    for (const { types, handle } of set) {
      if (types && !types.has(event.type)) continue;
      try {
        handle(event);
      } catch (error) {
        this.onHandlerError(error, event);
      }
    }
  }
}
