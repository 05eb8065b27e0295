import { afterEach, describe, expect, it } from 'vitest';
import { StorageKey, storage } from '../storage.ts';
import { loginResult, sessionInfo } from '../../test/session-info.ts';
import { readSession, sessionStore } from './session-store.ts';

describe('session store and the spec’s isAbroad key (decision 0033)', () => {
  afterEach(() => sessionStore.reset());

  it('writes isAbroad from the server’s answer, whatever the browser held before', () => {
    storage.set(StorageKey.isAbroad, 'true');
    sessionStore.signIn(loginResult({ abroad: false }));
    expect(storage.get(StorageKey.isAbroad)).toBe('false');
    sessionStore.setInfo(sessionInfo({ abroad: true, deviceGroups: ['fall'] }));
    expect(storage.get(StorageKey.isAbroad)).toBe('true');
    expect(sessionStore.get().info?.deviceGroups).toEqual(['fall']);
  });

  it('drops isAbroad with the session', () => {
    sessionStore.signIn(loginResult({ abroad: true }));
    sessionStore.reset();
    expect(storage.get(StorageKey.isAbroad)).toBeNull();
  });

  it('reads a session info stored by an older console, without device groups, as none: the server is asked again', () => {
    storage.set(StorageKey.token, 't');
    const { deviceGroups: _dropped, ...older } = sessionInfo();
    storage.setJson(StorageKey.user, older);
    expect(readSession()).toEqual({ token: 't', info: null, fastLogin: false });
    storage.setJson(StorageKey.user, sessionInfo({ deviceGroups: ['gateway'] }));
    expect(readSession().info?.deviceGroups).toEqual(['gateway']);
  });
});
