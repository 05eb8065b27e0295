import { PROVIDER_ROLES } from '@vigil/contract';
import { inArray } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { accounts } from '../../db/schema.ts';

/** What names a person who acted on an alarm. */
export interface PersonAccount {
  role: string;
  userName: string;
  displayName: string;
}

/**
 * How an alarm names who handled it, noted it or played it: the person, never the care home. A
 * caregiver's account carries the caregiver's name and another account its display name; a
 * provider's own login account (ONE_ROLE, TWO_ROLE) is made with the provider's name as its
 * display name ("Oak Home", never edited: provider management owns it), which names nobody on a
 * night shift, so it is named by its login.
 */
export const personName = (account: PersonAccount): string => {
  const display = account.displayName.trim();
  const providerLogin = (PROVIDER_ROLES as readonly string[]).includes(account.role);
  return providerLogin || !display ? account.userName : display;
};

/** The names of these accounts as alarms name people, by account id. */
export const personNames = async (db: Executor, accountIds: readonly number[]): Promise<Map<number, string>> => {
  const ids = [...new Set(accountIds)];
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: accounts.id, role: accounts.role, userName: accounts.userName, displayName: accounts.displayName })
    .from(accounts)
    .where(inArray(accounts.id, ids));
  return new Map(rows.map((r) => [r.id, personName(r)]));
};
