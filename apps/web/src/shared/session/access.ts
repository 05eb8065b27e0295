import { useMemo } from 'react';
import type { AccessContext } from '../routing/route-access.ts';
import { isAbroad, StorageKey, storage } from '../storage.ts';
import type { SessionState } from './session-store.ts';
import { useSession } from './session-store.ts';

export const accessFrom = (session: SessionState): AccessContext | null => {
  const info = session.info;
  if (!session.token || !info?.role) return null;
  return {
    role: info.role,
    providerRole: info.providerRole,
    abroad: isAbroad(),
    providerList: info.providerList,
    chosenProviderName: storage.get(StorageKey.curProviderName),
  };
};

export const useAccess = (): AccessContext | null => {
  const session = useSession();
  return useMemo(() => accessFrom(session), [session]);
};
