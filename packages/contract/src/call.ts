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
  /** Inner 100/101 on this call make the client drop its session. */
  loginSensitive?: boolean;
}

export const defineCall = <Req extends z.ZodType, Res extends z.ZodType>(def: CallDef<Req, Res>): CallDef<Req, Res> =>
  def;

export type CallRequest<C extends CallDef> = z.input<C['request']>;
export type CallParsed<C extends CallDef> = z.output<C['request']>;
export type CallResult<C extends CallDef> = z.output<C['result']>;

/** A file received by a multipart call. */
export interface UploadedFile {
  filename: string;
  mimetype: string;
  bytes: Uint8Array;
}

/** What a binary call answers. */
export interface BinaryBody {
  contentType: string;
  bytes: Uint8Array;
  filename?: string;
}
