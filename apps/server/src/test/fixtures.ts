import { insertAccount, insertProvider, type Role } from '@vigil/contract';
import type { TestApp } from './harness.ts';

export const STRONG_PASSWORD = 'Care#Home2026';

/** Creates a provider (class 1 without parent, class 2 with one) through the API; returns its id and login. */
export const makeProvider = async (
  app: TestApp,
  token: string,
  name: string,
  options: { parentId?: number; userName?: string; password?: string } = {},
) => {
  const userName = options.userName ?? `${name.replace(/[^A-Za-z0-9]/g, '')}Login`.slice(0, 60);
  const password = options.password ?? STRONG_PASSWORD;
  const res = await app.call(
    insertProvider,
    { name, userName, passWord: password, ...(options.parentId ? { parentId: options.parentId } : {}) },
    { token },
  );
  if (res.status !== 200 || !res.data) throw new Error(`insertProvider ${name}: ${res.status} ${res.msg}`);
  return { id: res.data.id, userName, password };
};

export const makeAccount = async (
  app: TestApp,
  token: string,
  userName: string,
  role: Role,
  extra: { providerId?: number; permissionType?: 0 | 1; providerIds?: number[] } = {},
) => {
  const res = await app.call(
    insertAccount,
    { userName, nickName: userName, role, passWord: STRONG_PASSWORD, ...extra },
    { token },
  );
  if (res.status !== 200 || !res.data) throw new Error(`insertAccount ${userName}: ${res.status} ${res.msg}`);
  return { id: res.data.id, userName, password: STRONG_PASSWORD };
};
