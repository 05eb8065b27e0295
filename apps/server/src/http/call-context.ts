import type { Language } from '@vigil/contract';
import type { Caller } from '../core/caller.ts';
import { AppError } from '../core/app-error.ts';
import { Status } from '@vigil/contract';

/** What a handler learns about the request besides its validated input. */
export interface CallContext {
  caller: Caller | null;
  lang: Language;
  ip: string;
  userAgent: string | undefined;
}

/** The caller of a call that requires a session (the registrar has already checked it). */
export const callerOf = (ctx: CallContext): Caller => {
  if (!ctx.caller) throw new AppError(Status.SESSION_INVALID, 'session.required', {}, 401);
  return ctx.caller;
};
