import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Module } from '../../module.ts';
import type { AccountService } from '../accounts/account.service.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { SignIn } from '../auth/auth.module.ts';
import { providerHandlers } from './provider.routes.ts';
import { ProviderService } from './provider.service.ts';

export interface ProviderDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  accounts: AccountService;
  signIn: SignIn;
}

/** The providers module: the provider hierarchy, the scope rule and providers' login accounts. */
export const buildProvidersModule = (
  deps: ProviderDeps,
): Module<{ providers: ProviderService }, ReturnType<typeof providerHandlers>> => {
  const { db, clock, audit, accounts, signIn } = deps;
  const providers = new ProviderService(db, clock, audit, accounts, signIn.store);
  return { services: { providers }, handlers: providerHandlers(providers, signIn.rsa), parts: [] };
};
