import { CREATABLE_ROLES, isPlatformRole, type Role } from '@vigil/contract';
import type { Db, Executor } from '../../db/database.ts';
import type { Clock } from '../../clock.ts';
import { fail, forbidden, invalid, notFound } from '../../core/app-error.ts';
import { canSeeProvider, type Caller, type ProviderScope } from '../../core/caller.ts';
import { reachWithin, type ScopeSubject } from '../providers/provider.policy.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { generatePassword, webPasswordProblem } from '../auth/password.policy.ts';
import { hashPassword } from '../auth/password-hasher.ts';
import type { SessionStore } from '../auth/session.store.ts';
import { afterFailure, lockedMinutes, type LockoutState } from '../auth/lockout.policy.ts';
import type { LoginGuard } from '../auth/login-guard.ts';
import { AccountRepository, type AccountRow, type NewAccountRow } from './account.repository.ts';

/** An account as stored, for the modules that read one through this service (auth signs it in). */
export type { AccountRow };

export interface NewAccount {
  userName: string;
  nickName: string;
  role: Role;
  password?: string | undefined;
  providerId?: number | undefined;
  permissionType: number;
  providerIds: readonly number[];
  remark?: string | undefined;
}

export interface AccountEdit {
  type: 'edit' | 'enable' | 'disable' | 'resetPassword';
  nickName?: string | undefined;
  permissionType?: number | undefined;
  providerIds?: readonly number[] | undefined;
  remark?: string | null | undefined;
}

/** Providers a platform caller names must exist; wired to the provider module by the composition root. */
export type ProviderExistence = (ids: readonly number[], tx: Executor) => Promise<boolean>;
/** The providers an account with these settings would see; wired to the provider module. */
export type ReachOf = (subject: ScopeSubject, tx: Executor) => Promise<ProviderScope>;

export class AccountService {
  private readonly repo = new AccountRepository();
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly sessions: SessionStore,
    private readonly providersExist: ProviderExistence,
    private readonly reachOf: ReachOf,
    private readonly guard: LoginGuard,
  ) {}

  /** Sign-in locks in force, by login name in lower case. */
  lockedUntil(userNames: readonly string[]): Promise<Map<string, Date>> {
    return this.guard.lockedUntil(userNames);
  }

  /**
   * Lifts an account's sign-in lock from every address. Who manages the account may: its creator's
   * kind (manageable), or whoever manages the provider it is the login account of.
   */
  async unlock(caller: Caller, userName: string, ip: string): Promise<{ cleared: number }> {
    const account = await this.repo.findByUserName(this.db, userName);
    const providerLogin =
      account !== undefined &&
      (account.role === 'ONE_ROLE' || account.role === 'TWO_ROLE') &&
      account.providerId !== caller.providerId &&
      canSeeProvider(caller.scope, account.providerId) &&
      (isPlatformRole(caller.role) || caller.role === 'ONE_ROLE');
    if (!account || !(this.manageable(caller, account) || providerLogin)) throw notFound();
    const cleared = await this.guard.unlock(account.userName);
    await this.audit.byCaller(caller, ip, 'account.unlock', {
      type: 'account',
      id: account.id,
      providerId: account.providerId,
      detail: { userName: account.userName, cleared },
    });
    return { cleared };
  }

  /** Refuses settings that would let an account see a provider its creator or editor does not see. */
  private async checkReach(caller: Caller, subject: ScopeSubject, tx: Executor): Promise<void> {
    if (caller.scope.all) return;
    if (!reachWithin(caller.scope, await this.reachOf(subject, tx))) throw fail('account.reachTooWide');
  }

  findById(id: number, tx: Executor = this.db) {
    return this.repo.findById(tx, id);
  }

  findByUserName(userName: string, tx: Executor = this.db) {
    return this.repo.findByUserName(tx, userName);
  }

  countAll(tx: Executor = this.db) {
    return this.repo.countAll(tx);
  }

  idsOfProviders(providerIds: readonly number[], tx: Executor = this.db) {
    return this.repo.idsOfProviders(tx, providerIds);
  }

  cancelOfProvider(providerId: number, tx: Executor = this.db) {
    return this.repo.cancelOfProvider(tx, providerId, this.clock.now());
  }

  /**
   * Counts a failed login on the current row (locked meanwhile), not on a copy read before the
   * password check: parallel wrong passwords all count, and a lock already set stays in force.
   */
  recordLoginFailure(id: number, now: Date): Promise<LockoutState> {
    return this.db.transaction(async (tx) => {
      const current = await this.repo.lockoutStateForUpdate(tx, id);
      if (!current || lockedMinutes(current, now) > 0) {
        return current ?? { failedLogins: 0, firstFailedAt: null, lockedUntil: null };
      }
      const next = afterFailure(current, now);
      await this.repo.recordFailure(tx, id, next);
      return next;
    });
  }

  recordLoginSuccess(id: number) {
    return this.repo.recordSuccess(this.db, id, this.clock.now());
  }

  setOwnPassword(id: number, passwordHash: string, tx: Executor = this.db) {
    return this.repo.update(tx, id, { passwordHash, mustChangePassword: false, updatedAt: this.clock.now() });
  }

  permittedProviderIds(accountId: number) {
    return this.repo.permittedProviderIds(this.db, accountId);
  }

  /** Inserts an account row with a hashed password; generates one (returned once) when none is given. */
  async createWithPassword(
    tx: Executor,
    values: Omit<NewAccountRow, 'passwordHash'>,
    password: string | undefined,
    /** Operator-chosen password that skips the web rules (initial administrator only). */
    trustedPassword?: string,
  ): Promise<{ row: AccountRow; initialPassword: string | null }> {
    if (await this.repo.findByUserName(tx, values.userName)) throw fail('account.exists');
    if (password !== undefined) {
      const problem = webPasswordProblem(password);
      if (problem) throw invalid(problem);
    }
    const initialPassword = password === undefined && trustedPassword === undefined ? generatePassword() : null;
    const now = this.clock.now();
    const row = await this.repo.insert(tx, {
      ...values,
      passwordHash: await hashPassword(trustedPassword ?? password ?? initialPassword ?? ''),
      // A generated password was seen by whoever created the account; an operator's own is not.
      mustChangePassword: password === undefined && trustedPassword === undefined,
      createdAt: now,
      updatedAt: now,
    });
    return { row, initialPassword };
  }

  /** Gives an account a new generated password (shown once) and ends its sessions. */
  async resetPassword(tx: Executor, account: AccountRow): Promise<string> {
    const password = generatePassword();
    await this.repo.update(tx, account.id, {
      passwordHash: await hashPassword(password),
      mustChangePassword: true,
      failedLogins: 0,
      lockedUntil: null,
      updatedAt: this.clock.now(),
    });
    await this.sessions.revokeAccounts([account.id], 'password-reset', tx);
    await this.guard.unlock(account.userName, tx);
    return password;
  }

  // --- accounts owned by another module (caregivers' app logins): that module checks the caller ---

  /** Enables or disables an account; disabling ends its sessions at once. */
  async setEnabled(tx: Executor, id: number, enabled: boolean, reason: string): Promise<void> {
    await this.repo.update(tx, id, { enabled, updatedAt: this.clock.now() });
    if (!enabled) await this.sessions.revokeAccounts([id], reason, tx);
  }

  /** Renames an account's display name (shown after login); the login name never changes. */
  async setDisplayName(tx: Executor, id: number, displayName: string): Promise<void> {
    await this.repo.update(tx, id, { displayName, updatedAt: this.clock.now() });
  }

  /** Cancels an account (soft delete, like a deleted provider's): login refused, name free again, sessions ended. */
  async cancel(tx: Executor, id: number, reason: string): Promise<void> {
    const now = this.clock.now();
    await this.repo.update(tx, id, { deletedAt: now, enabled: false, updatedAt: now });
    await this.sessions.revokeAccounts([id], reason, tx);
  }

  /**
   * Accounts of a caller's own management: roles it may create, inside its providers, never itself.
   * A platform caller narrowed by data permission manages only accounts of the providers it sees.
   */
  private manageable(caller: Caller, account: AccountRow): boolean {
    if (account.id === caller.accountId) return false;
    const roles = CREATABLE_ROLES[caller.role] ?? [];
    if (!roles.includes(account.role as Role)) return false;
    if (caller.scope.all) return true;
    return canSeeProvider(caller.scope, account.providerId);
  }

  private async checkDataPermission(caller: Caller, providerIds: readonly number[], tx: Executor): Promise<void> {
    if (!providerIds.length) return;
    if (caller.scope.all) {
      if (!(await this.providersExist(providerIds, tx))) throw notFound();
      return;
    }
    if (!providerIds.every((id) => canSeeProvider(caller.scope, id))) throw forbidden();
  }

  async list(
    caller: Caller,
    q: {
      pageNum: number;
      pageSize: number;
      keyWord?: string | undefined;
      role?: Role | undefined;
      enabled?: boolean | undefined;
    },
  ) {
    const roles = CREATABLE_ROLES[caller.role] ?? [];
    const { rows, total } = await this.repo.page(this.db, {
      offset: (q.pageNum - 1) * q.pageSize,
      limit: q.pageSize,
      keyWord: q.keyWord,
      role: q.role,
      enabled: q.enabled,
      roles,
      providerIds: caller.scope.all ? null : caller.scope.ids,
      excludeId: caller.accountId,
    });
    const permitted = await this.repo.permittedProviderIdsOf(
      this.db,
      rows.map((r) => r.account.id),
    );
    const locks = await this.guard.lockedUntil(rows.map((r) => r.account.userName));
    return {
      rows: rows.map((r) => ({
        ...r,
        providerIds: permitted.get(r.account.id) ?? [],
        lockedUntil: locks.get(r.account.userName.toLowerCase()) ?? null,
      })),
      total,
    };
  }

  async create(caller: Caller, input: NewAccount, ip: string) {
    const roles = CREATABLE_ROLES[caller.role] ?? [];
    if (!roles.includes(input.role)) throw fail('account.roleNotAllowed');
    return this.db.transaction(async (tx) => {
      let providerId: number | null;
      if (isPlatformRole(caller.role)) {
        providerId = input.providerId ?? null;
        if (!caller.scope.all) {
          // Narrowed by data permission: only inside the providers it sees, and never an account seeing more.
          if (providerId !== null && !canSeeProvider(caller.scope, providerId)) throw forbidden();
          if (providerId === null && input.permissionType !== 1) throw forbidden();
        }
        if (providerId !== null && !(await this.providersExist([providerId], tx))) throw notFound();
        if (providerId === null && (input.role === 'MAINTAIN' || input.role === 'SOCIAL_WORKER')) {
          throw fail('account.providerRequired');
        }
      } else {
        providerId = input.providerId ?? caller.providerId;
        if (!canSeeProvider(caller.scope, providerId)) throw forbidden();
      }
      await this.checkDataPermission(caller, input.providerIds, tx);
      await this.checkReach(
        caller,
        { role: input.role, providerId, permissionType: input.permissionType, permittedProviderIds: input.providerIds },
        tx,
      );
      const { row, initialPassword } = await this.createWithPassword(
        tx,
        {
          userName: input.userName,
          displayName: input.nickName,
          role: input.role,
          providerId,
          permissionType: input.permissionType,
          remark: input.remark ?? null,
          createdBy: caller.accountId,
        },
        input.password,
      );
      await this.repo.setPermittedProviders(tx, row.id, input.permissionType === 1 ? input.providerIds : []);
      await this.audit.byCaller(
        caller,
        ip,
        'account.create',
        { type: 'account', id: row.id, providerId, detail: { userName: row.userName, role: row.role } },
        tx,
      );
      return { id: row.id, initialPassword };
    });
  }

  async operate(
    caller: Caller,
    id: number,
    edit: AccountEdit,
    ip: string,
  ): Promise<{ initialPassword: string | null }> {
    return this.db.transaction(async (tx) => {
      const account = await this.repo.findById(tx, id);
      if (!account || !this.manageable(caller, account)) throw notFound();
      const now = this.clock.now();
      let initialPassword: string | null = null;
      switch (edit.type) {
        case 'edit': {
          if (edit.providerIds) await this.checkDataPermission(caller, edit.providerIds, tx);
          await this.checkReach(
            caller,
            {
              role: account.role as Role,
              providerId: account.providerId,
              permissionType: edit.permissionType ?? account.permissionType,
              permittedProviderIds: edit.providerIds ?? (await this.repo.permittedProviderIds(tx, id)),
            },
            tx,
          );
          await this.repo.update(tx, id, {
            ...(edit.nickName === undefined ? {} : { displayName: edit.nickName }),
            ...(edit.permissionType === undefined ? {} : { permissionType: edit.permissionType }),
            ...(edit.remark === undefined ? {} : { remark: edit.remark }),
            updatedAt: now,
          });
          const type = edit.permissionType ?? account.permissionType;
          if (edit.providerIds || edit.permissionType !== undefined) {
            const ids = edit.providerIds ?? (await this.repo.permittedProviderIds(tx, id));
            await this.repo.setPermittedProviders(tx, id, type === 1 ? ids : []);
            // The data a session may see changed: make the account sign in again.
            await this.sessions.revokeAccounts([id], 'permission-changed', tx);
          }
          break;
        }
        case 'enable':
          await this.repo.update(tx, id, { enabled: true, updatedAt: now });
          break;
        case 'disable':
          await this.repo.update(tx, id, { enabled: false, updatedAt: now });
          await this.sessions.revokeAccounts([id], 'account-disabled', tx);
          break;
        case 'resetPassword':
          initialPassword = await this.resetPassword(tx, account);
          break;
      }
      await this.audit.byCaller(
        caller,
        ip,
        `account.${edit.type}`,
        { type: 'account', id, providerId: account.providerId, detail: { userName: account.userName } },
        tx,
      );
      return { initialPassword };
    });
  }
}
