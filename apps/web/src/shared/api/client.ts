import {
  ApiError,
  createClient,
  SESSION_RESET_STATUSES,
  type Endpoint,
  type EndpointRequest,
  type EndpointResult,
  type DownloadedFile,
} from '@vigil/contract/browser';
import { StorageKey, storage } from '../storage.ts';
import { sessionStore } from '../session/session-store.ts';

/** Where a 401 sends the user: the login page, remembering the full path. */
export const loginRedirectPath = (location: Pick<Location, 'pathname' | 'search' | 'hash'>): string => {
  const full = `${location.pathname}${location.search}${location.hash}`;
  return full === '/login' || full.startsWith('/login?') ? '/login' : `/login?redirect=${encodeURIComponent(full)}`;
};

let onUnauthorized: () => void = () => {
  window.location.assign(loginRedirectPath(window.location));
};
/** The router installs a navigate-based handler so a 401 does not reload the page. */
export const setUnauthorizedHandler = (handler: () => void) => {
  onUnauthorized = handler;
};

const client = createClient({
  baseUrl: '',
  getToken: () => storage.get(StorageKey.token),
  getLanguage: () => storage.get(StorageKey.language) ?? 'zh-CN',
});

/** A 401, or 100/101 on a login-sensitive call: the session is over. */
const endsSession = (endpoint: Endpoint, error: unknown): boolean =>
  error instanceof ApiError &&
  (error.httpStatus === 401 ||
    (Boolean(endpoint.loginSensitive) && SESSION_RESET_STATUSES.includes(error.status as 100 | 101)));

/** Drops the session and sends the user to login when a failure says the session is over. */
export const checkSessionEnd = (endpoint: Endpoint, error: unknown) => {
  if (!endsSession(endpoint, error)) return;
  sessionStore.reset();
  onUnauthorized();
};

/**
 * Makes a call: resolves with `data`; rejects with ApiError carrying the localised message.
 * HTTP 401 resets the token and goes to login; inner 100/101 on login-sensitive calls reset the session.
 */
export const api = async <E extends Endpoint>(
  call: E,
  input: EndpointRequest<E> | FormData,
): Promise<EndpointResult<E>> => {
  try {
    return await client.call(call, input);
  } catch (error) {
    checkSessionEnd(call, error);
    throw error;
  }
};

/** Downloads a binary call's file (export, template), reporting progress as it arrives. */
export const download = async <E extends Endpoint>(
  call: E,
  input: EndpointRequest<E>,
  onProgress?: (received: number, total: number | null) => void,
): Promise<DownloadedFile> => {
  try {
    return await client.download(call, input, onProgress);
  } catch (error) {
    checkSessionEnd(call, error);
    throw error;
  }
};

export { ApiError };
