import { createHmac, timingSafeEqual } from 'node:crypto';
import { CONSTANTS, ROLES_BY_CHANNEL, Status, type LoginFrom, type LoginResult, type Role } from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import { AppError, fail, invalid } from '../../core/app-error.ts';
import type { Caller } from '../../core/caller.ts';
import type { AccountService } from '../accounts/account.service.ts';
import type { AccountRow } from '../accounts/account.service.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import { lockedMinutes } from './lockout.policy.ts';
import type { LoginGuard } from './login-guard.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { burnVerification, hashPassword, verifyPassword } from './password-hasher.ts';
import { webPasswordProblem } from './password.policy.ts';
import type { RsaKeyService } from './rsa-key.service.ts';
import type { SessionService } from './session.service.ts';
import type { SessionStore } from './session.store.ts';

export interface Origin {
  ip: string;
  userAgent: string | undefined;
}

const wrongCredentials = () => new AppError(Status.WRONG_CREDENTIALS, 'login.wrong');
const disabled = () => new AppError(Status.ACCOUNT_DISABLED, 'login.disabled');

export class AuthService {
  constructor(
    private readonly clock: Clock,
    private readonly accounts: AccountService,
    private readonly providers: ProviderService,
    private readonly store: SessionStore,
    private readonly sessions: SessionService,
    private readonly rsa: RsaKeyService,
    private readonly audit: AuditService,
    private readonly throttle: Pick<LoginThrottle, 'attempt'> | { attempt(ip: string): Promise<number> },
    private readonly ssoSecret: string | undefined,
    private readonly guard: LoginGuard,
  ) {}

  private async throttled(ip: string): Promise<void> {
    const wait = await this.throttle.attempt(ip);
    if (wait > 0) throw fail('login.rateLimited', { seconds: wait });
  }

  async login(
    input: { userName: string; passWord: string; from: LoginFrom; rsa: boolean },
    origin: Origin,
  ): Promise<LoginResult> {
    await this.throttled(origin.ip);
    const password = input.rsa ? this.rsa.decrypt(input.passWord) : input.passWord;
    await this.guard.assertOpen(input.userName, origin.ip);
    const account = await this.accounts.findByUserName(input.userName);
    // Known and unknown names take the same path: one hash verification, one counted failure,
    // one audit row, the same answer — neither the message nor the time tells names apart.
    const verified = account
      ? await verifyPassword(account.passwordHash, password)
      : await burnVerification(password).then(() => false);
    if (!account || !verified) {
      const next = await this.guard.failed(input.userName, origin.ip);
      await this.audit.record({
        actorId: account?.id ?? null,
        actorName: account?.userName ?? input.userName,
        providerId: account?.providerId ?? null,
        action: next.lockedUntil ? 'login.locked' : 'login.failed',
        ip: origin.ip,
        detail: { reason: account ? 'wrong-password' : 'unknown-account' },
      });
      if (next.lockedUntil) throw fail('login.locked', { minutes: lockedMinutes(next, this.clock.now()) });
      throw wrongCredentials();
    }
    await this.guard.succeeded(input.userName, origin.ip);
    return this.open(account, input.from, origin, 'login');
  }

  /** Fast login: HMAC-SHA256(secret, userName + timestamp) in hex, within 5 minutes, each signature once. */
  async sso(input: { userName: string; secretPassword: string; timestamp: string; from: LoginFrom }, origin: Origin) {
    await this.throttled(origin.ip);
    if (!this.ssoSecret) throw fail('sso.disabled');
    const expected = createHmac('sha256', this.ssoSecret)
      .update(input.userName + input.timestamp)
      .digest();
    const given = Buffer.from(input.secretPassword, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw fail('sso.signature');
    const now = this.clock.now();
    if (Math.abs(now.getTime() - Number(input.timestamp) * 1000) > CONSTANTS.ssoMaxSkewMs) throw fail('sso.expired');
    await this.store.repo.purgeSsoSignatures(this.store.db, new Date(now.getTime() - 2 * CONSTANTS.ssoMaxSkewMs));
    if (!(await this.store.repo.claimSsoSignature(this.store.db, input.secretPassword.toLowerCase(), now))) {
      throw fail('sso.replayed');
    }
    const account = await this.accounts.findByUserName(input.userName);
    if (!account) throw wrongCredentials();
    return this.open(account, input.from, origin, 'login.sso');
  }

  private async open(account: AccountRow, from: LoginFrom, origin: Origin, action: string): Promise<LoginResult> {
    if (!account.enabled) throw disabled();
    let currentProviderId: number | null = null;
    if (account.providerId !== null) {
      const provider = await this.providers.findById(account.providerId);
      const parent = provider?.parentId ? await this.providers.findById(provider.parentId) : undefined;
      if (!provider || !provider.enabled || (parent !== undefined && !parent.enabled)) throw disabled();
      currentProviderId = provider.id;
    }
    if (!ROLES_BY_CHANNEL[from].includes(account.role as Role)) throw fail('login.noAccess');
    await this.accounts.recordLoginSuccess(account.id);
    const session = await this.store.create(account.id, {
      channel: from,
      ip: origin.ip,
      userAgent: origin.userAgent,
      currentProviderId,
    });
    const outcome = await this.sessions.authenticate(session.token);
    if (outcome.kind !== 'ok') throw disabled();
    await this.audit.record({
      actorId: account.id,
      actorName: account.userName,
      providerId: account.providerId,
      action,
      ip: origin.ip,
      detail: { from },
    });
    return { token: session.token, ...(await this.sessions.infoFor(outcome.caller, account.mustChangePassword)) };
  }

  async logout(caller: Caller, ip: string): Promise<void> {
    await this.store.revoke(caller.sessionId, 'logout');
    await this.audit.byCaller(caller, ip, 'logout', { type: 'account', id: caller.accountId });
  }

  async updatePassword(
    caller: Caller,
    input: { userName: string; oldPassWord: string; newPassWord: string; rsa: boolean },
    ip: string,
  ): Promise<void> {
    if (input.userName.toLowerCase() !== caller.userName.toLowerCase()) throw fail('password.notYours');
    const oldPassword = input.rsa ? this.rsa.decrypt(input.oldPassWord) : input.oldPassWord;
    const newPassword = input.rsa ? this.rsa.decrypt(input.newPassWord) : input.newPassWord;
    const account = await this.accounts.findById(caller.accountId);
    if (!account) throw new AppError(Status.SESSION_INVALID, 'session.invalid');
    // Guessing the old password is guessing the password: it counts towards the same lockout.
    await this.guard.assertOpen(account.userName, ip);
    if (!(await verifyPassword(account.passwordHash, oldPassword))) {
      const next = await this.guard.failed(account.userName, ip);
      if (next.lockedUntil) throw fail('login.locked', { minutes: lockedMinutes(next, this.clock.now()) });
      throw new AppError(Status.OLD_PASSWORD_WRONG, 'password.old_wrong');
    }
    const problem = webPasswordProblem(newPassword);
    if (problem) throw invalid(problem).on('newPassWord');
    if (newPassword === oldPassword) throw invalid('password.same');
    await this.store.db.transaction(async (tx) => {
      await this.accounts.setOwnPassword(account.id, await hashPassword(newPassword), tx);
      await this.store.revokeAccounts([account.id], 'password-changed', tx);
      await this.audit.byCaller(caller, ip, 'password.change', { type: 'account', id: account.id }, tx);
    });
  }

  async changeProvider(caller: Caller, domain: string) {
    const provider = await this.providers.findByDomain(domain);
    if (!provider || !provider.enabled || (caller.scope.all === false && !caller.scope.ids.includes(provider.id))) {
      throw fail('changeProvider.notVisible');
    }
    await this.store.repo.setCurrentProvider(this.store.db, caller.sessionId, provider.id);
    return { providerId: provider.id, providerName: provider.name, domain: provider.domain };
  }
}
