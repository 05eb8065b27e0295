/** Browser storage keys of the spec (document 1, section 3). Only these names are written. */
export const StorageKey = {
  user: 'user',
  token: 'token',
  language: 'language',
  isAbroad: 'isAbroad',
  curProviderId: 'cur_providerId',
  curProviderName: 'cur_providerName',
  curDomain: 'cur_domain',
  userId: 'userId',
  domain: 'domain',
  userRole: 'userRole',
  providerId: 'providerId',
  providerName: 'providerName',
  providerList: 'providerList',
  providerRole: 'providerRole',
  localPath: 'localPath',
  reloadFlag: 'reloadFlag',
  speechTaskId: 'speechTaskId',
  /** Remembered account name (never the password: the browser's credential manager keeps that). */
  rememberedUser: 'rememberedUser',
  fastLogin: 'fastLogin',
  settings: 'settings',
  logoUrl: 'logoUrl',
  platName: 'platName',
  tagsView: 'tagsView',
} as const;
export type StorageKeyName = (typeof StorageKey)[keyof typeof StorageKey];

export const pendingAlarmsKey = (providerId: string | number) => `pendingAlarms_${providerId}`;

export const storage = {
  get(key: StorageKeyName): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: StorageKeyName, value: string | number | boolean | null | undefined): void {
    if (value === null || value === undefined) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, String(value));
  },
  remove(key: StorageKeyName): void {
    window.localStorage.removeItem(key);
  },
  getJson<T>(key: StorageKeyName): T | null {
    const raw = storage.get(key);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  },
  setJson(key: StorageKeyName, value: unknown): void {
    storage.set(key, JSON.stringify(value));
  },
};

/** Per-tab storage under the same key names: survives a reload, not a new tab or window. */
export const tabStorage = {
  getJson<T>(key: StorageKeyName): T | null {
    try {
      const raw = window.sessionStorage.getItem(key);
      return raw ? (JSON.parse(raw) as T) : null;
    } catch {
      return null;
    }
  },
  setJson(key: StorageKeyName, value: unknown): void {
    try {
      window.sessionStorage.setItem(key, JSON.stringify(value));
    } catch {
      // Storage full or blocked: the state just does not survive a reload.
    }
  },
};
