import { queryNursingList, residentList } from '@vigil/contract/browser';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../shared/api/client.ts';
import type { Community } from '../facility-model.ts';

/** The most rows one list call answers. */
const LIST_MAX = 1000;

/**
 * Residents of a community. The resident list has no community filter yet, so the residents of
 * the caller's scope are read (up to 1000) and kept when their communityId matches.
 */
export const useCommunityMembers = (community: Community) =>
  useQuery({
    queryKey: ['communities', 'members', community.id],
    queryFn: async () => (await api(residentList, { pageNum: 1, pageSize: LIST_MAX })).rows,
    select: (rows) => rows.filter((r) => r.communityId === community.id),
  });

/** Enabled caregivers of the community's provider: who may receive its alarms. */
export const useReceiverOptions = (community: Community) =>
  useQuery({
    queryKey: ['communities', 'receivers', community.providerId],
    queryFn: async () => (await api(queryNursingList, { pageNum: 1, pageSize: LIST_MAX, enabled: true })).rows,
    select: (rows) => rows.filter((c) => c.providerId === community.providerId),
  });
