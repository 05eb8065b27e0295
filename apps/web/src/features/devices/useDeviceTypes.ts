import { deviceTypes } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../shared/api/client.ts';
import { useAbroad } from '../../shared/session/access.ts';
import type { DeviceGroup, DeviceTypeOption } from './device-model.ts';

/**
 * The device types of some groups, from the server's catalogue. The console's overseas flag picks
 * the fall radar model (ED719W abroad, ED719N otherwise); `allMarkets` lists both (the registry).
 */
export const useDeviceTypes = (groups: readonly DeviceGroup[] | 'all', allMarkets = false) => {
  const edition = useAbroad();
  const abroad = allMarkets ? undefined : edition;
  const catalogue = useQuery({
    queryKey: ['devices', 'types', abroad ?? 'all'],
    queryFn: () => api(deviceTypes, abroad === undefined ? {} : { abroad }),
    staleTime: Infinity,
  });
  const key = groups === 'all' ? 'all' : groups.join(',');
  const types = useMemo<DeviceTypeOption[]>(
    () => (catalogue.data ?? []).filter((type) => key === 'all' || key.split(',').includes(type.group)),
    [catalogue.data, key],
  );
  return { types, loading: catalogue.isLoading };
};
