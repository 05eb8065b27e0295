import { CONSTANTS, type MessageKey, type MessageParams } from '@vigil/contract';
import { fail, notFound } from '../../core/app-error.ts';
import { canSeeProvider, type ProviderScope } from '../../core/caller.ts';
import type { ResidentRef } from './caregiver.repository.ts';

/** Pure rules of caregivers: login names, resident links and their limits. */

/** The app login of a new caregiver: the chosen account name, else the normalised phone number. */
export const loginNameFor = (phone: string, userName: string | undefined): string => userName ?? phone;

export interface LinkProblem {
  residentId: number;
  key: MessageKey;
  params: MessageParams;
}

/**
 * Problems of linking a caregiver of `providerId` to `wanted` residents. `found` are the residents
 * that exist (locked); one the caller cannot see counts as missing. `counts` are each resident's
 * other caregivers; `pending` the links an earlier row of the same batch adds.
 */
export const linkProblems = (
  scope: ProviderScope,
  providerId: number,
  wanted: readonly number[],
  found: readonly ResidentRef[],
  counts: ReadonlyMap<number, number>,
  pending: ReadonlyMap<number, number> = new Map(),
): LinkProblem[] => {
  const byId = new Map(found.map((r) => [r.id, r]));
  const problems: LinkProblem[] = [];
  for (const id of wanted) {
    const resident = byId.get(id);
    if (!resident || !canSeeProvider(scope, resident.providerId)) {
      problems.push({ residentId: id, key: 'not_found', params: {} });
    } else if (resident.providerId !== providerId) {
      problems.push({ residentId: id, key: 'caregiver.residentProvider', params: { name: resident.name } });
    } else if ((counts.get(id) ?? 0) + (pending.get(id) ?? 0) >= CONSTANTS.maxCarersPerResident) {
      problems.push({ residentId: id, key: 'caregiver.residentFull', params: { name: resident.name } });
    }
  }
  return problems;
};

/** A list without repetitions, in first-seen order. */
export const distinct = <T>(items: readonly T[]): T[] => [...new Set(items)];

/**
 * Alarm receivers (a community's, a bed's) must be caregivers the caller sees, of the alarms'
 * provider, and enabled; the first that is not is refused by name.
 */
export const assertReceivers = (
  ids: readonly number[],
  found: readonly { id: number; providerId: number; name: string; enabled: boolean }[],
  scope: ProviderScope,
  providerId: number,
  otherProviderKey: 'community.receiverProvider' | 'alarm.receiverProvider',
): void => {
  const byId = new Map(found.map((c) => [c.id, c]));
  for (const id of ids) {
    const caregiver = byId.get(id);
    if (!caregiver || !canSeeProvider(scope, caregiver.providerId)) throw notFound();
    if (caregiver.providerId !== providerId) throw fail(otherProviderKey, { name: caregiver.name });
    if (!caregiver.enabled) throw fail('community.receiverDisabled', { name: caregiver.name });
  }
};
