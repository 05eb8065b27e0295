/**
 * Domain events: what changed, recorded in the same transaction as the change (the outbox) and
 * published after the commit to the in-process stream. Device state, alarms, notifications and
 * settings ride on it; a cross-instance bus (Redis) will relay the same stream.
 */
export interface DomainEvent {
  /** Dotted name, e.g. `branding.changed`, `device.online`. */
  type: string;
  /** The provider whose data changed; null for platform-wide changes. */
  providerId: number | null;
  payload: Record<string, unknown>;
}

/** An event as stored and published: its outbox id (increasing) and commit time. */
export interface PublishedEvent extends DomainEvent {
  id: number;
  at: Date;
  /** Set when another instance committed it (relayed over the bus); absent for this instance's own. */
  origin?: string;
}

export type EventHandler = (event: PublishedEvent) => void;

/**
 * The in-process stream. Handlers run synchronously in publish order; one that throws is
 * reported and never stops the others or the publisher (the change is committed already).
 */
export class EventStream {
  private readonly handlers = new Set<{ types: ReadonlySet<string> | null; handle: EventHandler }>();
  private onHandlerError: (error: unknown, event: PublishedEvent) => void = () => undefined;

  /** Where a failing handler is reported (the server's log). */
  reportErrorsTo(report: (error: unknown, event: PublishedEvent) => void): void {
    this.onHandlerError = report;
  }

  /** Subscribes to the given types (every type when none); returns the unsubscribe function. */
  subscribe(handle: EventHandler, types?: readonly string[]): () => void {
    const entry = { types: types?.length ? new Set(types) : null, handle };
    this.handlers.add(entry);
    return () => this.handlers.delete(entry);
  }

  publish(events: readonly PublishedEvent[]): void {
    for (const event of events) {
      for (const { types, handle } of this.handlers) {
        if (types && !types.has(event.type)) continue;
        try {
          handle(event);
        } catch (error) {
          this.onHandlerError(error, event);
        }
      }
    }
  }
}
