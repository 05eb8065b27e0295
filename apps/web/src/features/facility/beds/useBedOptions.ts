import { getDeviceList, residentList } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import { useDebounced } from '../useDebounced.ts';

const PICKER_SIZE = 20;

/**
 * Devices a bed can take (sleep monitors and fall radars of the bed's provider) matching what the
 * user typed, with the bed each is linked to now.
 */
export const useDeviceOptions = (search: string, providerId: number) => {
  const keyWord = useDebounced(search.trim()) || undefined;
  return useQuery({
    queryKey: ['facility', 'device-options', providerId, keyWord],
    queryFn: async () => {
      const pages = await Promise.all(
        (['sleep', 'fall'] as const).map((kind) =>
          api(getDeviceList, { pageNum: 1, pageSize: PICKER_SIZE, kind, keyWord, providerId }),
        ),
      );
      return pages.flatMap((page) => page.rows);
    },
  });
};

/** Residents of the bed's provider matching what the user typed, with where they are now. */
export const useResidentOptions = (search: string, providerId: number) => {
  const keyWord = useDebounced(search.trim()) || undefined;
  return useQuery({
    queryKey: ['facility', 'resident-options', keyWord],
    queryFn: async () => (await api(residentList, { pageNum: 1, pageSize: PICKER_SIZE, keyWord })).rows,
    select: (rows) => rows.filter((r) => r.providerId === providerId),
  });
};
