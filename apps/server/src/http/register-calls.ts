import { UNIQUE_VIOLATION, violatedConstraint } from '../db/db-errors.ts';
import {
  calls,
  describeIssue,
  MESSAGE_FIELDS,
  pickLanguage,
  Status,
  translate,
  type BinaryBody,
  type StreamedBody,
  type CallDef,
  type CallName,
  type CallParsed,
  type CallResult,
  type Calls,
  type Envelope,
  type Language,
  type MessageKey,
} from '@vigil/contract';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, fileTooLarge } from '../core/app-error.ts';
import { discardUploads, readMultipart } from './uploads.ts';
import type { CallContext } from './call-context.ts';
import type { Caller } from '../core/caller.ts';
import { redactedError } from './log-redaction.ts';
import { refuseControlCharacters } from './text-guard.ts';
import { idempotencyKeyOf, type IdempotencyGuard } from './idempotency.ts';

export type Handler<C extends CallDef> = (input: CallParsed<C>, ctx: CallContext) => Promise<CallResult<C>>;
/** One handler per declared call: a call without a handler does not compile. */
export type Handlers = { [K in CallName]: Handler<Calls[K]> };

export type AuthOutcome =
  { kind: 'ok'; caller: Caller } | { kind: 'missing' } | { kind: 'expired' } | { kind: 'invalid' };

export interface Authenticator {
  authenticate(token: string): Promise<AuthOutcome>;
}

export interface CallObserver {
  observe(call: string, innerStatus: number, seconds: number): void;
}

const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export const tokenOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers['x-token'];
  const xToken = Array.isArray(header) ? header[0] : header;
  if (xToken) return xToken.trim();
  const auth = request.headers.authorization;
  if (auth?.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim();
  return undefined;
};

export const languageOf = (request: FastifyRequest): Language => {
  const header = request.headers['accept-language'];
  return pickLanguage(Array.isArray(header) ? header[0] : header);
};

export const envelopeOf = (error: AppError, lang: Language): Envelope<unknown> => ({
  status: error.status,
  msg: translate(lang, error.key, error.params),
  data: error.data,
  msgKey: error.key,
  ...fieldOf(error),
});

/** The field an answer names: the one the failure was raised on, else the one its message is always about. */
const fieldOf = (error: AppError): { field?: string } => {
  const field = error.field ?? MESSAGE_FIELDS[error.key];
  return field ? { field } : {};
};

const rawInput = async (call: CallDef, request: FastifyRequest, uploadLimit: number | undefined): Promise<unknown> => {
  switch (call.input) {
    case 'query':
      return request.query ?? {};
    case 'multipart':
      if (!request.isMultipart()) return {};
      // Files are streamed to temporary files, deleted when the call is answered (see registerCalls).
      return readMultipart(request, uploadLimit ?? call.maxUploadBytes ?? MAX_UPLOAD_BYTES);
    default:
      return request.body ?? {};
  }
};

const authorise = async (
  call: CallDef,
  token: string | undefined,
  authenticator: Authenticator,
): Promise<Caller | null> => {
  if (call.auth === 'public') return null;
  if (!token) {
    if (call.auth === 'optional') return null;
    throw new AppError(Status.SESSION_INVALID, 'session.required', {}, 401);
  }
  const outcome = await authenticator.authenticate(token);
  switch (outcome.kind) {
    case 'ok':
      break;
    case 'expired':
      if (call.auth === 'optional') return null;
      throw new AppError(Status.SESSION_EXPIRED, 'session.expired');
    case 'invalid':
      if (call.auth === 'optional') return null;
      throw new AppError(Status.SESSION_INVALID, 'session.invalid');
    case 'missing':
      if (call.auth === 'optional') return null;
      throw new AppError(Status.SESSION_INVALID, 'session.required', {}, 401);
  }
  const caller = outcome.caller;
  if (Array.isArray(call.auth) && !call.auth.includes(caller.role)) throw new AppError(Status.FAILED, 'no_permission');
  // A generated password was shown to whoever created the account: nothing works until it is replaced.
  if (caller.mustChangePassword && !call.beforePasswordChange) {
    throw new AppError(Status.FAILED, 'password.mustChange');
  }
  return caller;
};

const sendBinary = (reply: FastifyReply, body: BinaryBody | StreamedBody) => {
  reply.header('Content-Type', body.contentType);
  reply.header('Cache-Control', body.immutable ? 'public, max-age=86400, immutable' : 'private, no-store');
  reply.header('X-Content-Type-Options', 'nosniff');
  if (body.filename) {
    // ASCII fallback plus the UTF-8 form (RFC 6266), so Chinese file names survive every browser.
    const ascii = body.filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
    reply.header(
      'Content-Disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(body.filename)}`,
    );
  }
  if ('stream' in body) {
    // A large file goes out as it is read (app packages), never whole in memory.
    reply.header('Content-Length', String(body.size));
    return reply.send(Readable.from(body.stream));
  }
  return reply.send(Buffer.from(body.bytes));
};

/**
 * Registers a route for every declared call and nothing else: validates the input with
 * the call's schema, resolves the session, checks roles, runs the handler, wraps the envelope.
 */
export const registerCalls = (
  app: FastifyInstance,
  handlers: Handlers,
  authenticator: Authenticator,
  observer: CallObserver,
  idempotency?: IdempotencyGuard,
  /** Upload limits set by configuration (FIRMWARE_MAX_BYTES), in place of the calls' declared ones. */
  uploadLimits: Partial<Record<CallName, number>> = {},
): void => {
  for (const [name, call] of Object.entries(calls) as [CallName, CallDef][]) {
    const handler = handlers[name] as unknown as Handler<CallDef>;
    app.route({
      method: call.method,
      url: call.path,
      // A call's uploads are deleted before its answer goes out; the handler's `finally` covers a
      // request that never gets one (the client went away).
      ...(call.input === 'multipart'
        ? {
            onSend: async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
              await discardUploads(request);
              return payload;
            },
          }
        : {}),
      handler: async (request, reply) => {
        const started = process.hrtime.bigint();
        const lang = languageOf(request);
        let inner: number = Status.OK;
        try {
          const caller = await authorise(call, tokenOf(request), authenticator);
          const raw = await rawInput(call, request, uploadLimits[name]);
          const parsed = call.request.safeParse(raw);
          if (!parsed.success) {
            const first = parsed.error.issues[0];
            const described = first
              ? describeIssue(lang, first, raw)
              : { key: 'validation.body' as const, params: {}, field: 'body' };
            const invalid = new AppError(Status.INVALID_INPUT, described.key, described.params);
            throw described.field === 'body' ? invalid : invalid.on(described.field);
          }
          // After the schema, whose own rules (a device ID's format, a name's characters) speak first.
          refuseControlCharacters(parsed.data, lang);
          const ctx: CallContext = {
            caller,
            lang,
            ip: request.ip,
            userAgent: request.headers['user-agent'],
          };
          const key =
            caller && idempotency && call.produces !== 'binary' && !call.secretAnswer
              ? idempotencyKeyOf(request)
              : undefined;
          if (caller && idempotency && key !== undefined) {
            // A repeat of the same key gets the first answer instead of running the call again.
            const answer = await idempotency.run({ accountId: caller.accountId, call: name, key }, raw, async () => {
              try {
                const data = await handler(parsed.data, ctx);
                return {
                  httpStatus: 200,
                  body: { status: Status.OK, msg: translate(lang, 'ok'), data: data ?? null },
                  keep: true,
                };
              } catch (error) {
                const appError = toAppError(error, request);
                const body = envelopeOf(appError, lang);
                return { httpStatus: appError.httpStatus, body, keep: appError.status !== Status.SERVER_ERROR };
              }
            });
            inner = (answer.body as Envelope<unknown>).status;
            return reply.code(answer.httpStatus).send(answer.body);
          }
          const data = await handler(parsed.data, ctx);
          if (call.produces === 'binary') return sendBinary(reply, data as BinaryBody | StreamedBody);
          const body: Envelope<unknown> = { status: Status.OK, msg: translate(lang, 'ok'), data: data ?? null };
          return reply.send(body);
        } catch (error) {
          const appError = toAppError(error, request);
          inner = appError.status;
          return reply.code(appError.httpStatus).send(envelopeOf(appError, lang));
        } finally {
          await discardUploads(request);
          observer.observe(name, inner, Number(process.hrtime.bigint() - started) / 1e9);
        }
      },
    });
  }
};

/** Unique indexes whose violation means a concurrent request created the same record first. */
const UNIQUE_CONFLICTS: Readonly<Record<string, MessageKey>> = {
  provider_name_live: 'provider.exists',
  provider_number_live: 'provider.numberExists',
  account_user_name_live: 'account.exists',
};

/** The message for a unique violation (SQLSTATE 23505) of a known constraint. */
const uniqueConflict = (error: unknown): MessageKey | undefined => {
  const constraint = violatedConstraint(error, [UNIQUE_VIOLATION]);
  return constraint === undefined ? undefined : UNIQUE_CONFLICTS[constraint];
};

/** Known failures keep their meaning; anything else is logged and answered as a localised 500 envelope. */
export const toAppError = (error: unknown, request: FastifyRequest): AppError => {
  if (error instanceof AppError) return error;
  const conflict = uniqueConflict(error);
  if (conflict) return new AppError(Status.FAILED, conflict);
  const code = (error as { code?: string } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fileTooLarge(MAX_UPLOAD_BYTES);
  const statusCode = (error as { statusCode?: number }).statusCode ?? 0;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new AppError(Status.INVALID_INPUT, 'validation.tooLarge');
  // Fastify's own request errors (unreadable body, unsupported media type, body too large) are the caller's fault.
  if (code?.startsWith('FST_') && statusCode >= 400 && statusCode < 500) {
    return new AppError(Status.INVALID_INPUT, 'validation.body');
  }
  // The static file server refuses a path that climbs out of its folder or holds a NUL: not found.
  if (statusCode === 400 || statusCode === 403 || statusCode === 404) {
    return new AppError(Status.FAILED, 'not_found', {}, 404);
  }
  request.log.error({ err: redactedError(error) }, 'call failed');
  return new AppError(Status.SERVER_ERROR, 'server_error');
};
