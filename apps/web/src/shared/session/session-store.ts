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
  StorageKey.isAbroad,
] as const;

/**
 * The stored session info, or null when an older console stored it without the fields this one
 * needs (the device groups): the guard then reads it from the server again.
 */
const storedInfo = (): SessionInfo | null => {
  const info = storage.getJson<Partial<SessionInfo>>(StorageKey.user);
  return info && Array.isArray(info.deviceGroups) ? (info as SessionInfo) : null;
};

/** The session as the spec's storage keys hold it (another tab or a reload may have written them). */
export const readSession = (): SessionState => ({
  token: storage.get(StorageKey.token),
  info: storedInfo(),
  fastLogin: storage.get(StorageKey.fastLogin) === 'true',
});

const mirrorCurrentProvider = (provider: ProviderOption | null): void => {
  storage.set(StorageKey.curProviderId, provider?.id ?? null);
  storage.set(StorageKey.curProviderName, provider?.name ?? null);
  storage.set(StorageKey.curDomain, provider?.domain ?? null);
};

let state = readSession();
const listeners = new Set<() => void>();
const emit = () => {
  state = readSession();
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
    // The spec's isAbroad key, written only from the server's answer (decision 0033).
    storage.set(StorageKey.isAbroad, info.abroad);
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
