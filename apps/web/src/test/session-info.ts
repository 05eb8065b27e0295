import type { LoginResult, SessionInfo } from '@vigil/contract/browser';

/**
 * A whole session info as the server answers it (a platform administrator without devices unless
 * told otherwise): screens read fields a partial object would lack.
 */
export const sessionInfo = (over: Partial<SessionInfo> = {}): SessionInfo => ({
  key: 'k',
  permissionType: 0,
  voiceFlag: true,
  role: 'SUPER_ROLE',
  providerRole: null,
  uploadDataFlag: false,
  menuList: [],
  landingPath: '/',
  userId: 1,
  userName: 'admin',
  name: 'admin',
  domain: null,
  providerId: null,
  providerName: null,
  providerList: [],
  currentProvider: null,
  mustChangePassword: false,
  abroad: false,
  deviceGroups: [],
  ...over,
});

/** A login answer: the session info and its token. */
export const loginResult = (over: Partial<LoginResult> = {}): LoginResult => ({
  ...sessionInfo(over),
  token: over.token ?? 'test-token',
});
