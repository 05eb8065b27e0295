import type { LoginResult, ProviderOption, SessionInfo } from '@vigil/contract/browser';
import { useSyncExternalStore } from 'react';
import { StorageKey, storage } from '../storage.ts';

export interface SessionState {
  token: string | null;
  info: SessionInfo | null;
  fastLogin: boolean;
}

const SESSION_KEYS = [
  StorageKey.token,
  StorageKey.user,
  StorageKey.userId,
  StorageKey.domain,
  StorageKey.userRole,
  StorageKey.providerId,
  StorageKey.providerName,
  StorageKey.providerList,
  StorageKey.providerRole,
  StorageKey.curProviderId,
  StorageKey.curProviderName,
  StorageKey.curDomain,
  StorageKey.fastLogin,
] as const;

const read = (): SessionState => ({
  token: storage.get(StorageKey.token),
  info: storage.getJson<SessionInfo>(StorageKey.user),
  fastLogin: storage.get(StorageKey.fastLogin) === 'true',
});

const mirrorCurrentProvider = (provider: ProviderOption | null): void => {
  storage.set(StorageKey.curProviderId, provider?.id ?? null);
  storage.set(StorageKey.curProviderName, provider?.name ?? null);
  storage.set(StorageKey.curDomain, provider?.domain ?? null);
};

let state = read();
const listeners = new Set<() => void>();
const emit = () => {
  state = read();
  for (const l of listeners) l();
};

/** The console session, mirrored into the spec's storage keys so other tabs and reloads see it. */
export const sessionStore = {
  get: (): SessionState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  signIn(result: LoginResult, fastLogin = false): void {
    const { token, ...info } = result;
    storage.set(StorageKey.token, token);
    sessionStore.setInfo(info);
    storage.set(StorageKey.fastLogin, fastLogin ? 'true' : null);
    emit();
  },
  setInfo(info: SessionInfo): void {
    storage.setJson(StorageKey.user, info);
    storage.set(StorageKey.userId, info.userId);
    storage.set(StorageKey.domain, info.domain);
    storage.set(StorageKey.userRole, info.role);
    storage.set(StorageKey.providerId, info.providerId);
    storage.set(StorageKey.providerName, info.providerName);
    storage.setJson(StorageKey.providerList, info.providerList);
    storage.set(StorageKey.providerRole, info.providerRole);
    // The server decides the current provider; the spec's cur_* keys only mirror it.
    mirrorCurrentProvider(info.currentProvider);
    emit();
  },
  /** Drops the token and everything derived from it; keeps language and remembered account. */
  reset(): void {
    for (const key of SESSION_KEYS) storage.remove(key);
    emit();
  },
};

export const useSession = (): SessionState => useSyncExternalStore(sessionStore.subscribe, sessionStore.get);

/** The provider the server says this session works in (null: the caller's whole scope). */
export const currentProvider = (): { id: string | null; name: string | null; domain: string | null } => {
  const chosen = state.info?.currentProvider ?? null;
  return chosen
    ? { id: String(chosen.id), name: chosen.name, domain: chosen.domain }
    : { id: null, name: null, domain: null };
};
