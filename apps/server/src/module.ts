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

type AnyModule = Module<unknown, Partial<Handlers>>;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The handlers of a set of modules, typed as all their handlers together. */
export type HandlersOf<M extends Record<string, AnyModule>> = Intersection<M[keyof M]['handlers']>;

/**
 * Every module's call handlers in one object. Typed as the modules' handlers together, so
 * assigning it to `Handlers` fails to compile when a call has no handler; a call answered by
 * two modules is a wiring mistake and throws.
 */
export const handlersOf = <M extends Record<string, AnyModule>>(modules: M): HandlersOf<M> => {
  const merged: Record<string, unknown> = {};
  for (const [module, { handlers }] of Object.entries(modules)) {
    for (const [call, handler] of Object.entries(handlers)) {
      if (call in merged) throw new Error(`call ${call} has a second handler in module ${module}`);
      merged[call] = handler;
    }
  }
  return merged as HandlersOf<M>;
};
