import type { Endpoint, Role } from '@vigil/contract/browser';

/**
 * Whether a signed-in role may make `call`, read from the call's own `auth`: the console offers
 * exactly what the server accepts, never a copy of the list that drifts from it.
 */
export const mayCall = (call: Pick<Endpoint, 'auth'>, role: Role | null | undefined): boolean => {
  if (!role || call.auth === undefined) return false;
  return typeof call.auth === 'string' ? true : call.auth.includes(role);
};
