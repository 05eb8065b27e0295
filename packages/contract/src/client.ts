import type { CallDef, CallRequest, CallResult } from './call.ts';
import type { Envelope } from './envelope.ts';
import { Status } from './status.ts';

export interface ClientOptions {
  baseUrl: string;
  fetch?: typeof fetch;
  getToken?: () => string | null | undefined;
  getLanguage?: () => string | null | undefined;
}

/** Raised for a non-200 inner status; carries the envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly msgKey: string | undefined,
    readonly httpStatus: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const toQuery = (input: Record<string, unknown>): string => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(input)) if (v !== undefined && v !== null) params.append(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
};

/** Typed client over the call catalogue: the only way apps reach the API. */
export const createClient = (options: ClientOptions) => {
  const doFetch = options.fetch ?? fetch;
  const envelope = async <C extends CallDef>(
    call: C,
    input: CallRequest<C> | FormData,
  ): Promise<Envelope<CallResult<C>>> => {
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
    const res = await doFetch(url, { method: call.method, headers, body });
    if (res.status === 401) throw new ApiError(Status.SESSION_INVALID, 'unauthorized', 'session.required', 401);
    return (await res.json()) as Envelope<CallResult<C>>;
  };
  return {
    envelope,
    /** Resolves with `data` on inner status 200, rejects with ApiError otherwise. */
    async call<C extends CallDef>(call: C, input: CallRequest<C> | FormData): Promise<CallResult<C>> {
      const env = await envelope(call, input);
      if (env.status !== Status.OK) throw new ApiError(env.status, env.msg, env.msgKey, 200);
      return env.data as CallResult<C>;
    },
  };
};
export type ApiClient = ReturnType<typeof createClient>;
