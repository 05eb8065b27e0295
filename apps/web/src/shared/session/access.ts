import { useMemo } from 'react';
import type { AccessContext } from '../routing/route-access.ts';
import { StorageKey, storage } from '../storage.ts';
import type { SessionState } from './session-store.ts';
import { useSession } from './session-store.ts';

export const accessFrom = (session: SessionState): AccessContext | null => {
  const info = session.info;
  if (!session.token || !info?.role) return null;
  return {
    role: info.role,
    providerRole: info.providerRole,
    abroad: info.abroad,
    deviceGroups: info.deviceGroups,
    providerList: info.providerList,
    chosenProviderName: storage.get(StorageKey.curProviderName),
  };
};

export const useAccess = (): AccessContext | null => {
  const session = useSession();
  return useMemo(() => accessFrom(session), [session]);
};

/**
 * The platform's overseas edition, as the server said at sign-in or on the last load (decision
 * 0033): languages, caregiver texts, the download guide and the fall radar model follow it.
 */
export const useAbroad = (): boolean => useSession().info?.abroad === true;
