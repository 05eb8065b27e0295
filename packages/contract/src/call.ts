import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Role } from './roles.ts';

/**
 * Who may make a call: anyone (`public`), anyone but a session is used when present
 * (`optional`), any signed-in account (`session`), or only the listed roles.
 */
export type CallAuth = 'public' | 'optional' | 'session' | readonly Role[];

/** How the request travels: query string, JSON body, form-encoded body or multipart upload. */
export type CallInput = 'query' | 'json' | 'form' | 'multipart';

export interface CallDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST' | 'DELETE';
  /** Exactly as the spec's call catalogue writes it. */
  path: string;
  auth: CallAuth;
  input: CallInput;
  request: Req;
  /** Schema of `data` in a successful envelope; a binary call answers raw bytes instead. */
  result: Res;
  produces?: 'json' | 'binary';
  summary: string;
  tag: string;
  /** Multipart calls: the largest file taken (default 10 MB); a larger one is refused as it streams in, nothing of it kept. */
  maxUploadBytes?: number;
  /** Inner 100/101 on this call make the client drop its session. */
  loginSensitive?: boolean;
  /**
   * Creates records: the console sends an Idempotency-Key with it, so a repeated request replays
   * the first answer instead of creating twice (docs/api-conventions.md).
   */
  creates?: boolean;
  /** The answer carries a secret shown once: it is never stored, so no Idempotency-Key replays it. */
  secretAnswer?: boolean;
  /**
   * Answered while the account must still replace a generated password; every other call is
   * refused with `password.mustChange` until it does (docs/api-conventions.md).
   */
  beforePasswordChange?: boolean;
  /** Types only, never present at run time: lets an Endpoint carry the call's types without its schemas. */
  readonly types?: { request: z.input<Req>; result: z.output<Res> };
}

/**
 * What a client needs of a call at run time. Browsers import endpoints (generated into
 * endpoints.generated.ts) rather than calls so zod's schemas stay out of the console bundle.
 * A CallDef is itself an Endpoint, so server-side tests can pass calls directly.
 */
export interface Endpoint<Req = unknown, Res = unknown> {
  method: CallDef['method'];
  path: string;
  input: CallInput;
  /** Who the server lets make the call, so a client offers exactly that (generated: always present). */
  auth?: CallAuth;
  produces?: 'json' | 'binary';
  loginSensitive?: boolean;
  creates?: boolean;
  readonly types?: { request: Req; result: Res };
}
export type EndpointOf<C extends CallDef> = Endpoint<CallRequest<C>, CallResult<C>>;
export type EndpointRequest<E extends Endpoint> = E extends Endpoint<infer Q, unknown> ? Q : never;
export type EndpointResult<E extends Endpoint> = E extends Endpoint<unknown, infer R> ? R : never;

export const defineCall = <Req extends z.ZodType, Res extends z.ZodType>(def: CallDef<Req, Res>): CallDef<Req, Res> =>
  def;

export type CallRequest<C extends CallDef> = z.input<C['request']>;
export type CallParsed<C extends CallDef> = z.output<C['request']>;
export type CallResult<C extends CallDef> = z.output<C['result']>;

/**
 * A file received by a multipart call: a handle, not the bytes. The server streams the upload to a
 * temporary file as it arrives (counting and hashing it, refusing it above the call's limit), so a
 * large file is never held in memory whole. The file exists while the call's handler runs and is
 * deleted when the call is answered: read it there, never later.
 */
export interface UploadedFile {
  /** The name the client gave; never a path to use on disk. */
  readonly filename: string;
  /** The type the client declared; check the content itself before trusting it. */
  readonly mimetype: string;
  /** Bytes received. */
  readonly size: number;
  /** SHA-256 of the bytes, lowercase hex. */
  readonly sha256: string;
  /** The temporary file holding the bytes (readable by the server's user only). */
  readonly path: string;
  /** The whole file in memory: for parsers that need it all (spreadsheets, a logo). Mind `size` first. */
  read(): Promise<Uint8Array>;
  /** The bytes as a stream, for files too large to hold (firmware images). */
  stream(): Readable;
}

/** What a binary call answers. */
export interface BinaryBody {
  contentType: string;
  bytes: Uint8Array;
  filename?: string;
  /** Content-addressed public files (logos) may be cached; anything else, such as exports of tenant data, never is. */
  immutable?: boolean;
}

/**
 * What a binary call answers for a file too large to hold (an app package of up to 200 MB): its
 * bytes as they are read, sent on as they come, never whole in memory.
 */
export interface StreamedBody {
  contentType: string;
  stream: AsyncIterable<Uint8Array>;
  /** Bytes the stream yields (sent as Content-Length). */
  size: number;
  filename?: string;
  immutable?: boolean;
}
