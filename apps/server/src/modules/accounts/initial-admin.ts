import fs from 'node:fs';
import path from 'node:path';
import { LANGUAGES, translate, type Language } from '@vigil/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { generatePassword } from '../auth/password.policy.ts';
import type { AccountService } from './account.service.ts';
import type { AuditService } from '../audit/audit.service.ts';

export interface InitialAdminOptions {
  userName: string;
  password: string | undefined;
  dataDir: string;
  log: (message: string) => void;
}

/**
 * The initial administrator's name as stored: account.initialAdminName in English (what every
 * installation has stored since the start). Answers show it in the reader's language instead.
 */
export const initialAdminStoredName = (): string => translate('en-US', 'account.initialAdminName');

/** The default name in any language: a database holding any of them still has the untouched default. */
const defaultNames = (): Set<string> => new Set(LANGUAGES.map((lang) => translate(lang, 'account.initialAdminName')));

/**
 * An account's display name as a reader of `lang` sees it. The initial administrator's default
 * name follows the reader's language while nobody has renamed it; every other name is answered as stored.
 */
export const displayNameFor = (account: { role: string; displayName: string }, lang: Language): string =>
  account.role === 'SUPER_ROLE' && defaultNames().has(account.displayName)
    ? translate(lang, 'account.initialAdminName')
    : account.displayName;

/** Session info (login, fast login, getInfo) with the account's name as the reader of `lang` sees it. */
export const withReaderName = <T extends { role: string; name: string }>(info: T, lang: Language): T => ({
  ...info,
  name: displayNameFor({ role: info.role, displayName: info.name }, lang),
});

/**
 * On an empty database, creates the SUPER_ROLE account. Without a configured password
 * a random one is printed once and written to DATA_DIR/initial-admin-password (mode 600).
 */
export const ensureInitialAdmin = async (
  db: Db,
  accounts: AccountService,
  audit: AuditService,
  options: InitialAdminOptions,
): Promise<boolean> => {
  const password = options.password ?? generatePassword(16);
  const created = await db.transaction(async (tx) => {
    // Several instances may start together on one PostgreSQL: only one creates the admin.
    await tx.execute(sql`select pg_advisory_xact_lock(7243120)`);
    if ((await accounts.countAll(tx)) > 0) return false;
    const { row } = await accounts.createWithPassword(
      tx,
      { userName: options.userName, displayName: initialAdminStoredName(), role: 'SUPER_ROLE', providerId: null },
      undefined,
      password,
    );
    await audit.record(
      {
        actorId: null,
        actorName: 'system',
        providerId: null,
        action: 'account.bootstrap',
        targetType: 'account',
        targetId: row.id,
      },
      tx,
    );
    return true;
  });
  if (!created) return false;
  if (options.password) {
    options.log(`Created the initial administrator "${options.userName}" with the password from VIGIL_ADMIN_PASSWORD.`);
  } else {
    fs.mkdirSync(options.dataDir, { recursive: true });
    const file = path.join(options.dataDir, 'initial-admin-password');
    fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
    fs.chmodSync(file, 0o600);
    options.log(
      `Created the initial administrator "${options.userName}" with password: ${password}  (also in ${file}; shown only once — change it after signing in)`,
    );
  }
  return true;
};
