import type { ProviderRole, Role } from '@vigil/contract';

/** Which providers' rows a caller may see. */
export type ProviderScope = { all: true } | { all: false; ids: readonly number[] };

/** The signed-in account behind a request, resolved from its session. */
export interface Caller {
  sessionId: number;
  accountId: number;
  userName: string;
  displayName: string;
  role: Role;
  /** The account's own provider (null for platform accounts). */
  providerId: number | null;
  providerClass: 1 | 2 | null;
  providerRole: ProviderRole | null;
  permissionType: number;
  scope: ProviderScope;
  /** Provider chosen with /account/changeProvider. */
  currentProviderId: number | null;
  socketKey: string;
  /** The account still has a generated password: only the calls that replace it are answered. */
  mustChangePassword: boolean;
}

export const canSeeProvider = (scope: ProviderScope, providerId: number | null): boolean =>
  providerId !== null && (scope.all || scope.ids.includes(providerId));
