import { fail, notFound } from './app-error.ts';
import { canSeeProvider, type Caller, type ProviderScope } from './caller.ts';

/**
 * Tenancy of facility rows (areas, rooms, beds, residents, devices, caregivers, communities).
 * Every such row carries one provider id; these three rules are the only way services decide
 * which rows a caller reads or writes.
 */

/** Providers whose rows a list shows: the provider chosen in the console when there is one, else the whole scope. */
export const listScope = (caller: Caller): ProviderScope =>
  caller.currentProviderId !== null && canSeeProvider(caller.scope, caller.currentProviderId)
    ? { all: false, ids: [caller.currentProviderId] }
    : caller.scope;

/** The provider a new row belongs to: the one named in the request (must be visible), else the chosen one. */
export const targetProvider = (caller: Caller, requested?: number | null): number => {
  if (requested !== undefined && requested !== null) {
    if (!canSeeProvider(caller.scope, requested)) throw notFound();
    return requested;
  }
  const chosen = caller.currentProviderId ?? caller.providerId;
  if (chosen === null || !canSeeProvider(caller.scope, chosen)) throw fail('provider.required');
  return chosen;
};

/** A row read or changed by id must belong to a provider the caller sees; otherwise it does not exist for them. */
export const assertVisible = (caller: Caller, row: { providerId: number } | undefined | null): void => {
  if (!row || !canSeeProvider(caller.scope, row.providerId)) throw notFound();
};

/** SQL-ready form of a scope: null means every provider. */
export const scopeIds = (scope: ProviderScope): readonly number[] | null => (scope.all ? null : scope.ids);
