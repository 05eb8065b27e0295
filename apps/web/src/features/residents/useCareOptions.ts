import { queryCommunityList, queryNursingList } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../shared/api/client.ts';

/** The most of either list a picker offers; the server allows up to 1000 a page. */
const PICKER_SIZE = 1000;

export interface PickOption {
  value: number;
  label: string;
}

/**
 * Caregivers (carer picker) and communities of the chosen provider. Carers already linked but
 * not among the options (a longer list) are still shown by name, so an edit does not drop them.
 */
const NONE: readonly { id: number; name: string }[] = [];

export const useCareOptions = (linkedCarers: readonly { id: number; name: string }[] = NONE) => {
  const caregivers = useQuery({
    queryKey: ['residents', 'caregiverOptions'],
    queryFn: () => api(queryNursingList, { pageNum: 1, pageSize: PICKER_SIZE }),
  });
  const communities = useQuery({
    queryKey: ['residents', 'communityOptions'],
    queryFn: () => api(queryCommunityList, { pageNum: 1, pageSize: PICKER_SIZE }),
  });
  const carerOptions = useMemo<PickOption[]>(() => {
    const rows = caregivers.data?.rows ?? [];
    const options = rows.map((c) => ({ value: c.id, label: c.phone ? `${c.name} (${c.phone})` : c.name }));
    const known = new Set(options.map((o) => o.value));
    for (const carer of linkedCarers) if (!known.has(carer.id)) options.push({ value: carer.id, label: carer.name });
    return options;
  }, [caregivers.data, linkedCarers]);
  const communityOptions = useMemo<PickOption[]>(
    () => (communities.data?.rows ?? []).map((c) => ({ value: c.id, label: c.name })),
    [communities.data],
  );
  return {
    carerOptions,
    communityOptions,
    loadingCarers: caregivers.isFetching,
    loadingCommunities: communities.isFetching,
  };
};
