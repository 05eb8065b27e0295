import { adminLogin, adminUpdatePassword, insertNursing } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { accounts, emergencyContacts, residents } from '../../db/schema.ts';
import { makeProvider } from '../../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, type TestApp } from '../../test/harness.ts';

/**
 * Test worlds of the caregiver and community tests. Residents and emergency contacts belong to
 * the residents module: tests write those rows directly so these tests depend on nothing else.
 */

export const seedResident = async (
  app: TestApp,
  providerId: number,
  name: string,
  communityId: number | null = null,
): Promise<number> => {
  const [row] = await app.database.db
    .insert(residents)
    .values({ providerId, name, gender: 0, communityId })
    .returning({ id: residents.id });
  if (!row) throw new Error(`seed resident ${name}`);
  return row.id;
};

export const seedContact = async (app: TestApp, residentId: number, phone: string, name = 'Relative') => {
  const [row] = await app.database.db
    .insert(emergencyContacts)
    .values({ residentId, name, phone, relation: 'child' })
    .returning({ id: emergencyContacts.id });
  if (!row) throw new Error(`seed contact ${phone}`);
  return row.id;
};

export const contactExists = async (app: TestApp, id: number): Promise<boolean> =>
  (await app.database.db.select().from(emergencyContacts).where(eq(emergencyContacts.id, id))).length > 0;

export const accountRow = async (app: TestApp, userName: string) => {
  const [row] = await app.database.db.select().from(accounts).where(eq(accounts.userName, userName));
  return row;
};

/** Two tenants: a class 1 group with a class 2 home (A), and an unrelated class 1 (B). */
export const careWorld = async (app: TestApp, tag: string) => {
  const admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
  const group = await makeProvider(app, admin, `${tag} Group`);
  const groupToken = await app.login(group.userName, group.password);
  const home = await makeProvider(app, groupToken, `${tag} Home`);
  const homeToken = await app.login(home.userName, home.password);
  const other = await makeProvider(app, admin, `${tag} Other`);
  const otherToken = await app.login(other.userName, other.password);
  return { admin, group, groupToken, home, homeToken, other, otherToken };
};

let phoneCounter = 0;
/** A fresh Chinese mobile number for every call. */
export const freshPhone = (): string => `139${String(++phoneCounter).padStart(8, '0')}`;

/** Creates a caregiver through the API; fails the test when that fails. */
export const makeCaregiver = async (
  app: TestApp,
  token: string,
  name: string,
  extra: { phone?: string; residentIds?: number[]; userName?: string; level?: 'normal' | 'lead' } = {},
) => {
  const phone = extra.phone ?? freshPhone();
  const res = await app.call(insertNursing, { name, phone, ...extra }, { token });
  if (res.status !== 200 || !res.data) throw new Error(`insertNursing ${name}: ${res.status} ${res.msg}`);
  return { ...res.data, phone };
};

/** Signs a caregiver in from the app; answers the raw login envelope. */
export const appLogin = (app: TestApp, userName: string, passWord: string) =>
  app.call(adminLogin, { userName, passWord, from: 'APP' });

/**
 * A caregiver's app session ready for work: a generated password answers nothing but its own
 * replacement (issue 8, point 27), so the caregiver replaces it first, as the app makes them.
 */
export const appSessionAfterPasswordChange = async (app: TestApp, userName: string, initialPassword: string) => {
  const first = await app.call(adminLogin, { userName, passWord: initialPassword, from: 'APP' });
  const token = first.data?.token ?? '';
  const chosen = 'Carer#Chosen2026';
  const changed = await app.call(
    adminUpdatePassword,
    { userName, oldPassWord: initialPassword, newPassWord: chosen },
    { token },
  );
  if (changed.status !== 200) throw new Error(`password change of ${userName}: ${changed.status} ${changed.msg}`);
  const next = await app.call(adminLogin, { userName, passWord: chosen, from: 'APP' });
  return next.data?.token ?? '';
};
