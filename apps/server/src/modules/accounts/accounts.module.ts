import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Module } from '../../module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { SignIn } from '../auth/auth.module.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import { accountHandlers } from './account.routes.ts';
import { AccountService } from './account.service.ts';

export interface AccountDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  signIn: SignIn;
  /**
   * The provider service, read when an account call needs it: providers create their login
   * accounts, so they are built after accounts (the composition root's late reference).
   */
  providers: () => Pick<ProviderService, 'existing' | 'scopeFor'>;
}

/** The accounts module: accounts and their data permission (the initial administrator is made at start). */
export const buildAccountsModule = (
  deps: AccountDeps,
): Module<{ accounts: AccountService }, ReturnType<typeof accountHandlers>> => {
  const { db, clock, audit, signIn, providers } = deps;
  const accounts = new AccountService(
    db,
    clock,
    audit,
    signIn.store,
    (ids, tx) => providers().existing(ids, tx),
    (subject, tx) => providers().scopeFor(subject, tx),
    signIn.loginGuard,
  );
  return { services: { accounts }, handlers: accountHandlers(accounts, signIn.rsa), parts: [] };
};
