import { normalisePhone } from '@vigil/contract/browser';

/**
 * The server's rules for community fields (contract calls/caregivers.ts), checked in the forms so
 * a user learns before sending.
 */

/** The contract's phone rule: a Chinese mobile (with or without +86 / 0086) or E.164. */
export const isValidPhone = (raw: string): boolean => normalisePhone(raw) !== null;

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Names, addresses and contacts: one line without control characters. */
export const hasControlChars = (value: string): boolean => CONTROL.test(value);

export const COMMUNITY_LIMITS = { name: 64, address: 200, contact: 64, phone: 32 } as const;

/** HH:mm, 00:00 to 23:59. */
export const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
