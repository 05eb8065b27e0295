import {
  ApiError,
  createClient,
  SESSION_RESET_STATUSES,
  type CallDef,
  type CallRequest,
  type CallResult,
} from '@vigil/contract';
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

/**
 * Makes a call: resolves with `data`; rejects with ApiError carrying the localised message.
 * HTTP 401 resets the token and goes to login; inner 100/101 on login-sensitive calls reset the session.
 */
export const api = async <C extends CallDef>(call: C, input: CallRequest<C> | FormData): Promise<CallResult<C>> => {
  try {
    return await client.call(call, input);
  } catch (error) {
    if (error instanceof ApiError) {
      if (error.httpStatus === 401) {
        sessionStore.reset();
        onUnauthorized();
      } else if (call.loginSensitive && SESSION_RESET_STATUSES.includes(error.status as 100 | 101)) {
        sessionStore.reset();
        onUnauthorized();
      }
    }
    throw error;
  }
};

export { ApiError };
