import type { FailureData, FailureKey } from './failures.ts';
import type { Endpoint, EndpointRequest, EndpointResult } from './call.ts';
import type { Envelope } from './envelope.ts';
import { Status } from './status.ts';

export interface ClientOptions {
  baseUrl: string;
  fetch?: typeof fetch;
  getToken?: () => string | null | undefined;
  getLanguage?: () => string | null | undefined;
  /** A fresh Idempotency-Key for each request of a creating call (default: a random UUID). */
  newIdempotencyKey?: () => string;
}

/** Raised for a non-200 inner status; carries the envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly msgKey: string | undefined,
    readonly httpStatus: number,
    /** Details of the failure when the server sends them (e.g. `{ problems }` of a refused import). */
    readonly data: unknown = null,
    /** The request field the failure is about (e.g. `name`, `contacts.0.phone`), when it is about one. */
    readonly field: string | undefined = undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * The `data` of a failure with one of `keys`, typed as the contract declares it (failures.ts), or
 * null for any other error and for a failure that carried none. The harness checks the server
 * against the same declaration, so no client needs its own copy of these shapes.
 */
export const failureData = <K extends FailureKey>(error: unknown, ...keys: K[]): FailureData<K> | null =>
  error instanceof ApiError &&
  error.msgKey !== undefined &&
  (keys as readonly string[]).includes(error.msgKey) &&
  error.data !== null &&
  typeof error.data === 'object'
    ? (error.data as FailureData<K>)
    : null;

const toQuery = (input: Record<string, unknown>): string => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(input)) if (v !== undefined && v !== null) params.append(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
};

export interface DownloadedFile {
  bytes: Uint8Array;
  contentType: string;
  filename: string | null;
}

/** The file name of a Content-Disposition header, preferring the UTF-8 form (RFC 6266). */
export const filenameOf = (header: string | null): string | null => {
  if (!header) return null;
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (utf8?.[1]) {
    try {
      return decodeURIComponent(utf8[1]);
    } catch {
      return null;
    }
  }
  return /filename="?([^";]+)"?/i.exec(header)?.[1] ?? null;
};

/**
 * A random UUID v4. randomUUID exists only in secure contexts (HTTPS, localhost); a console served
 * over plain HTTP on a local network still has getRandomValues.
 */
export const newIdempotencyKey = (): string => {
  const { crypto } = globalThis;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** Typed client over the call catalogue: the only way apps reach the API. */
export const createClient = (options: ClientOptions) => {
  // The global fetch is looked up at each call, not captured here, so a page (or a test) that
  // replaces it later is still heard.
  const doFetch: typeof fetch = (input, init) => (options.fetch ?? globalThis.fetch)(input, init);
  /** The HTTP request of a call: token and language headers, input in the query or body as the call says. */
  const send = async <E extends Endpoint>(call: E, input: EndpointRequest<E> | FormData): Promise<Response> => {
    const headers: Record<string, string> = {};
    const token = options.getToken?.();
    if (token) headers['X-Token'] = token;
    const lang = options.getLanguage?.();
    if (lang) headers['Accept-Language'] = lang;
    let url = options.baseUrl + call.path;
    let body: string | FormData | undefined;
    if (input instanceof FormData) body = input;
    else if (call.input === 'query') url += toQuery((input ?? {}) as Record<string, unknown>);
    else if (call.input === 'form') {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = toQuery((input ?? {}) as Record<string, unknown>).slice(1);
    } else {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(input ?? {});
    }
    let res: Response;
    if (call.creates) {
      // One key per request: a retry after a lost answer replays what the server did instead of creating twice.
      headers['Idempotency-Key'] = (options.newIdempotencyKey ?? newIdempotencyKey)();
      try {
        res = await doFetch(url, { method: call.method, headers, body });
      } catch {
        res = await doFetch(url, { method: call.method, headers, body });
      }
    } else {
      res = await doFetch(url, { method: call.method, headers, body });
    }
    if (res.status === 401) throw new ApiError(Status.SESSION_INVALID, 'unauthorized', 'session.required', 401);
    return res;
  };
  const envelope = async <E extends Endpoint>(
    call: E,
    input: EndpointRequest<E> | FormData,
  ): Promise<Envelope<EndpointResult<E>>> => (await (await send(call, input)).json()) as Envelope<EndpointResult<E>>;
  const failure = (env: Envelope<unknown>) => new ApiError(env.status, env.msg, env.msgKey, 200, env.data, env.field);
  return {
    envelope,
    /** Resolves with `data` on inner status 200, rejects with ApiError otherwise. */
    async call<E extends Endpoint>(call: E, input: EndpointRequest<E> | FormData): Promise<EndpointResult<E>> {
      const env = await envelope(call, input);
      if (env.status !== Status.OK) throw failure(env);
      return env.data as EndpointResult<E>;
    },
    /**
     * A binary call (export, template): the file's bytes, reporting progress while they arrive
     * when the server gives a length. A JSON answer is a refusal and rejects with ApiError.
     */
    async download<E extends Endpoint>(
      call: E,
      input: EndpointRequest<E>,
      onProgress?: (received: number, total: number | null) => void,
    ): Promise<DownloadedFile> {
      const res = await send(call, input);
      const contentType = res.headers.get('Content-Type') ?? 'application/octet-stream';
      if (contentType.startsWith('application/json')) throw failure((await res.json()) as Envelope<unknown>);
      const length = Number(res.headers.get('Content-Length')) || null;
      const chunks: Uint8Array[] = [];
      let received = 0;
      const reader = res.body?.getReader();
      if (reader) {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          received += value.length;
          onProgress?.(received, length);
        }
      }
      const bytes = new Uint8Array(received);
      let at = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.length;
      }
      return { bytes, contentType, filename: filenameOf(res.headers.get('Content-Disposition')) };
    },
  };
};
export type ApiClient = ReturnType<typeof createClient>;
