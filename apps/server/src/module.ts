import type { Part } from './core/lifecycle.ts';
import type { Handlers } from './http/register-calls.ts';

/**
 * The one shape of a server module: its services (for other modules and tests), the handlers
 * of its calls, and its background parts, started and stopped by the app's lifecycle.
 */
export interface Module<S, H extends Partial<Handlers>> {
  services: S;
  /** Typed by the calls the module answers, so the app still checks every call has a handler. */
  handlers: H;
  parts: Part[];
}
