import { queryNursingList } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { api } from '../../shared/api/client.ts';
import type { CaregiverRow } from './caregiver-model.ts';

/** One caregiver by id (a direct link, a reload without the list's row); null when it is not visible. */
const findCaregiver = async (id: number): Promise<CaregiverRow | null> =>
  (await api(queryNursingList, { id, pageSize: 1 })).rows[0] ?? null;

/** Navigation state the list passes along, so opening the editor costs no request. */
interface EditState {
  caregiver?: CaregiverRow;
}

/** The caregiver being edited: the row the list handed over, else looked up by id. */
export const useEditedCaregiver = (id: number | null) => {
  const location = useLocation();
  const handed = (location.state as EditState | null)?.caregiver;
  const fromList = handed && handed.id === id ? handed : undefined;
  return useQuery({
    queryKey: ['caregivers', 'one', id],
    queryFn: () => (id === null ? null : findCaregiver(id)),
    enabled: id !== null && !fromList,
    initialData: fromList,
    // Read once per visit: a background refetch must not reset what the user is typing.
    staleTime: Infinity,
    gcTime: 0,
  });
};
