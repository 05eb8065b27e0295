import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Module } from '../../module.ts';
import type { AccountService } from '../accounts/account.service.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import type { SettingsService } from '../system/settings.service.ts';
import { authHandlers } from './auth.routes.ts';
import { AuthService } from './auth.service.ts';
import type { Log } from '../../core/log.ts';
import { LoginGuard } from './login-guard.ts';
import { LoginThrottle } from './login-throttle.ts';
import { RedisLoginThrottle } from './redis-login-throttle.ts';
import { RsaKeyService } from './rsa-key.service.ts';
import { SessionPurge } from './session-purge.ts';
import { SessionService } from './session.service.ts';
import { SessionStore } from './session.store.ts';

export interface SignInDeps {
  db: Db;
  clock: Clock;
  settings: SettingsService;
}

/**
 * The auth module's pieces that accounts and providers use, built before them (the rest of the
 * module needs accounts and providers): the session store, the sign-in failure counts and the RSA key.
 */
export const buildSignIn = ({ db, clock, settings }: SignInDeps) => ({
  store: new SessionStore(db, clock),
  loginGuard: new LoginGuard(db, clock),
  rsa: new RsaKeyService(settings),
});
export type SignIn = ReturnType<typeof buildSignIn>;

export interface AuthDeps {
  db: Db;
  clock: Clock;
  config: Config;
  audit: AuditService;
  accounts: AccountService;
  providers: ProviderService;
  /** Built by `buildSignIn` before accounts and providers. */
  signIn: SignIn;
  log: Log;
}

export interface AuthServices extends SignIn {
  sessions: SessionService;
  auth: AuthService;
  sessionPurge: SessionPurge;
}

/** The auth module: sign-in, SSO, sessions, lockout and rate limit; its part purges ended sessions. */
export const buildAuthModule = (deps: AuthDeps): Module<AuthServices, ReturnType<typeof authHandlers>> => {
  const { db, clock, config, audit, accounts, providers } = deps;
  const { store, loginGuard, rsa } = deps.signIn;
  const sessions = new SessionService(store, clock, config.sessionIdleMs, accounts, providers, config.abroad);
  const local = new LoginThrottle(config.loginRateLimitPerMinute, clock);
  // With REDIS_URL the per-address limit is shared by every instance.
  const shared = config.redisUrl
    ? new RedisLoginThrottle(config.redisUrl, config.loginRateLimitPerMinute, clock, local, deps.log)
    : undefined;
  const throttle = shared ?? local;
  const auth = new AuthService(
    clock,
    accounts,
    providers,
    store,
    sessions,
    rsa,
    audit,
    throttle,
    config.ssoSecret,
    loginGuard,
  );
  const sessionPurge = new SessionPurge(db, clock, config.sessionIdleMs, loginGuard);
  return {
    services: { store, loginGuard, rsa, sessions, auth, sessionPurge },
    handlers: authHandlers(auth, sessions, rsa, accounts),
    parts: [
      // Ended sessions and stale failure counts go away while the server runs.
      { name: 'session purge', start: (fail) => sessionPurge.start(fail), stop: () => sessionPurge.stop() },
      ...(shared ? [{ name: 'shared login limit', start: () => undefined, stop: () => shared.stop() }] : []),
    ],
  };
};
