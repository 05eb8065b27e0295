import { queryProviderList } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../shared/api/client.ts';

/** Providers a platform administrator can pick (filters, adding a device, moving a gateway). */
export const useProviderOptions = (enabled: boolean) => {
  const providers = useQuery({
    queryKey: ['providers', 'all-options'],
    queryFn: () => api(queryProviderList, { pageNum: 1, pageSize: 1000 }),
    enabled,
    staleTime: 60_000,
  });
  const options = useMemo(
    () => (providers.data?.rows ?? []).map((p) => ({ value: p.id, label: p.name, disabled: !p.enabled })),
    [providers.data],
  );
  return { options, loading: providers.isFetching };
};
