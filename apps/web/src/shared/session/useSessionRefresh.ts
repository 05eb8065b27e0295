import { adminSession } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../api/client.ts';
import { sessionStore, useSession } from './session-store.ts';

/** Invalidate it after anything that changes the session's providers (a provider created, a switch). */
export const SESSION_QUERY_KEY = ['session'] as const;

/**
 * Reads the session from the server on every load of the console and after each invalidation, so
 * the provider list and the current provider are the server's, never a stale copy in local storage.
 */
export const useSessionRefresh = (): void => {
  const { token } = useSession();
  const session = useQuery({
    queryKey: SESSION_QUERY_KEY,
    queryFn: () => api(adminSession, {}),
    enabled: token !== null,
  });
  useEffect(() => {
    if (session.data) sessionStore.setInfo(session.data);
  }, [session.data]);
};
