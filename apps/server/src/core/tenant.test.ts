import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.ts';
import type { Caller } from './caller.ts';
import { assertVisible, listScope, scopeIds, targetProvider } from './tenant.ts';

const caller = (over: Partial<Caller>): Caller => ({
  sessionId: 1,
  accountId: 1,
  userName: 'u',
  displayName: 'u',
  role: 'ONE_ROLE',
  providerId: 10,
  providerClass: 1,
  providerRole: 'ONE_ROLE',
  permissionType: 0,
  scope: { all: false, ids: [10, 11, 12] },
  currentProviderId: 10,
  socketKey: 'k',
  mustChangePassword: false,
  ...over,
});
const keyOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? e.key : String(e);
  }
  return 'no error';
};

describe('tenancy of facility rows', () => {
  it('lists only the chosen provider when one is chosen', () => {
    expect(listScope(caller({ currentProviderId: 11 }))).toEqual({ all: false, ids: [11] });
  });

  it('falls back to the whole scope when nothing (or something no longer visible) is chosen', () => {
    expect(listScope(caller({ currentProviderId: null }))).toEqual({ all: false, ids: [10, 11, 12] });
    expect(listScope(caller({ currentProviderId: 99 }))).toEqual({ all: false, ids: [10, 11, 12] });
    const admin = caller({ role: 'SENIOR_ROLE', providerId: null, currentProviderId: null, scope: { all: true } });
    expect(scopeIds(listScope(admin))).toBeNull();
  });

  it('writes into the requested provider only when visible', () => {
    expect(targetProvider(caller({}), 12)).toBe(12);
    expect(keyOf(() => targetProvider(caller({}), 13))).toBe('not_found');
  });

  it('writes into the chosen provider, else asks to choose one', () => {
    expect(targetProvider(caller({ currentProviderId: 11 }))).toBe(11);
    const admin = caller({ role: 'SENIOR_ROLE', providerId: null, currentProviderId: null, scope: { all: true } });
    expect(keyOf(() => targetProvider(admin))).toBe('provider.required');
    expect(targetProvider(admin, 5)).toBe(5);
  });

  it('hides rows of providers out of scope', () => {
    expect(keyOf(() => assertVisible(caller({}), { providerId: 13 }))).toBe('not_found');
    expect(keyOf(() => assertVisible(caller({}), undefined))).toBe('not_found');
    expect(keyOf(() => assertVisible(caller({}), { providerId: 12 }))).toBe('no error');
  });
});
