import { normalisePhone } from '@vigil/contract';

/**
 * Whether a relative (RELATIVES account, signed in with an emergency-contact phone) is the
 * contact of this binding: relatives may remove only their own binding.
 */
export const isOwnBinding = (relativeUserName: string, bindingPhone: string): boolean =>
  normalisePhone(relativeUserName) === bindingPhone;
