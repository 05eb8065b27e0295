import { isPlatformRole, queryProviderList } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api/client.ts';
import { currentProvider, useSession } from '../../shared/session/session-store.ts';

/**
 * Who is looking: platform roles (SUPER_ROLE, SENIOR_ROLE) see every provider, with a provider
 * column and filter; provider roles work on the provider chosen in the sidebar, whose id keys the
 * screen's state so a change of provider starts afresh.
 */
export const useFacilityAccess = () => {
  const session = useSession();
  const platform = session.info ? isPlatformRole(session.info.role) : false;
  return { platform, chosenProviderId: currentProvider().id };
};

/** Provider options of the platform's provider filter and create forms. */
export const useProviderOptions = (enabled: boolean) =>
  useQuery({
    queryKey: ['facility', 'providers'],
    queryFn: () => api(queryProviderList, { pageNum: 1, pageSize: 1000 }),
    enabled,
    select: (page) => page.rows.map((p) => ({ value: p.id, label: p.name })),
  });
