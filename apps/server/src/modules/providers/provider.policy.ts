import { isPlatformRole, type Role } from '@vigil/contract';
import type { ProviderScope } from '../../core/caller.ts';

export interface ScopeSubject {
  role: Role;
  providerId: number | null;
  permissionType: number;
  /** Data permission list (used when permissionType is 1). */
  permittedProviderIds: readonly number[];
}

/**
 * Pure rule for which providers an account sees: platform roles see all (or, with
 * permission type 1, their list); a provider account sees its provider and, for
 * class 1, the subordinates; data permission narrows that further.
 */
export const scopeOf = (subject: ScopeSubject, ownAndSubordinates: readonly number[]): ProviderScope => {
  const restricted = subject.permissionType === 1;
  if (subject.providerId === null) {
    if (isPlatformRole(subject.role) && !restricted) return { all: true };
    return { all: false, ids: [...subject.permittedProviderIds] };
  }
  if (!restricted) return { all: false, ids: [...ownAndSubordinates] };
  const allowed = new Set(ownAndSubordinates);
  return { all: false, ids: subject.permittedProviderIds.filter((id) => allowed.has(id)) };
};

/** Providers a caller may edit, disable, reset or delete: never its own provider. */
export const canManageProvider = (
  caller: { role: Role; providerId: number | null },
  target: { id: number; parentId: number | null },
): boolean => {
  if (isPlatformRole(caller.role)) return true;
  return caller.role === 'ONE_ROLE' && caller.providerId !== null && target.parentId === caller.providerId;
};

/**
 * An account may only be given reach its creator (or editor) has itself: every provider the new
 * account would see must be one the caller sees. Without this a platform administrator limited to
 * provider A could create an unlimited business account bound to A that also sees A's class 2
 * providers (issue 8, point 24).
 */
export const reachWithin = (caller: ProviderScope, proposed: ProviderScope): boolean => {
  if (caller.all) return true;
  if (proposed.all) return false;
  const seen = new Set(caller.ids);
  return proposed.ids.every((id) => seen.has(id));
};
