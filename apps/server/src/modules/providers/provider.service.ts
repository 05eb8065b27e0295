import { randomBytes } from 'node:crypto';
import { isPlatformRole, type ProviderOption } from '@vigil/contract';
import type { Db, Executor } from '../../db/database.ts';
import type { Clock } from '../../clock.ts';
import { fail, forbidden, notFound } from '../../core/app-error.ts';
import { canSeeProvider, type Caller, type ProviderScope } from '../../core/caller.ts';
import type { AccountService } from '../accounts/account.service.ts';
import { assertStoredLogo } from '../system/stored-logo.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { SessionStore } from '../auth/session.store.ts';
import { canManageProvider, scopeOf, type ScopeSubject } from './provider.policy.ts';
import { ProviderRepository, type ProviderRow } from './provider.repository.ts';

export interface NewProvider {
  name: string;
  number?: string | undefined;
  userName: string;
  password?: string | undefined;
  parentId?: number | undefined;
  logoUrl?: string | undefined;
  platformName?: string | undefined;
  remark?: string | undefined;
}

export interface ProviderEdit {
  type: 'edit' | 'enable' | 'disable';
  name?: string | undefined;
  number?: string | undefined;
  logoUrl?: string | null | undefined;
  platformName?: string | null | undefined;
  remark?: string | null | undefined;
}

const newDomain = () => `p${randomBytes(6).toString('hex')}`;
const newNumber = () => `VP${randomBytes(4).toString('hex').toUpperCase()}`;

export class ProviderService {
  readonly repo = new ProviderRepository();
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly accounts: AccountService,
    private readonly sessions: SessionStore,
  ) {}

  private readonly treeListeners = new Set<() => void>();

  /** Called after a commit that added or removed a provider (scopes derived from the tree are stale). */
  onTreeChanged(listener: () => void): void {
    this.treeListeners.add(listener);
  }

  private treeChanged(): void {
    for (const listener of this.treeListeners) listener();
  }

  findById(id: number, tx: Executor = this.db) {
    return this.repo.findById(tx, id);
  }

  findByDomain(domain: string) {
    return this.repo.findByDomain(this.db, domain);
  }

  async existing(ids: readonly number[], tx: Executor = this.db): Promise<boolean> {
    const unique = [...new Set(ids)];
    return (await this.repo.byIds(tx, unique)).length === unique.length;
  }

  async scopeFor(subject: ScopeSubject, tx: Executor = this.db): Promise<ProviderScope> {
    const own = subject.providerId === null ? [] : await this.repo.ownAndSubordinateIds(tx, subject.providerId);
    return scopeOf(subject, own);
  }

  /** Providers offered in the console's selector: class 1 sees its subordinates, others their visible providers. */
  async optionsFor(caller: Caller): Promise<ProviderOption[]> {
    if (caller.scope.all) return [];
    const rows = await this.repo.byIds(this.db, caller.scope.ids);
    const choosable = caller.providerClass === 1 ? rows.filter((r) => r.id !== caller.providerId) : rows;
    return choosable.map((r) => ({ id: r.id, name: r.name, domain: r.domain, available: r.enabled }));
  }

  async present(row: ProviderRow, tx: Executor = this.db) {
    const parent = row.parentId === null ? undefined : await this.repo.findById(tx, row.parentId);
    return this.presentRow(row, await this.repo.loginAccountName(tx, row.id), parent?.name ?? null);
  }

  presentRow(row: ProviderRow, userName: string | null, parentName: string | null) {
    return {
      id: row.id,
      name: row.name,
      number: row.number,
      domain: row.domain,
      userName,
      providerClass: row.providerClass === 1 ? (1 as const) : (2 as const),
      parentId: row.parentId,
      parentName,
      logoUrl: row.logoUrl,
      platformName: row.platformName,
      enabled: row.enabled,
      remark: row.remark,
      createTime: row.createdAt.toISOString(),
    };
  }

  /** Providers the caller manages: all for platform roles, a class 1 provider's subordinates. */
  private manageableIds(caller: Caller): readonly number[] | null {
    if (isPlatformRole(caller.role)) return caller.scope.all ? null : caller.scope.ids;
    if (caller.scope.all) return null;
    return caller.scope.ids.filter((id) => id !== caller.providerId);
  }

  async list(
    caller: Caller,
    q: {
      pageNum: number;
      pageSize: number;
      keyWord?: string | undefined;
      providerClass?: 1 | 2 | undefined;
      parentId?: number | undefined;
      enabled?: boolean | undefined;
    },
  ) {
    const { rows, total } = await this.repo.page(this.db, {
      offset: (q.pageNum - 1) * q.pageSize,
      limit: q.pageSize,
      keyWord: q.keyWord,
      providerClass: q.providerClass,
      parentId: q.parentId,
      enabled: q.enabled,
      ids: this.manageableIds(caller),
    });
    const locks = await this.accounts.lockedUntil(rows.flatMap((r) => (r.userName ? [r.userName] : [])));
    return {
      rows: rows.map((r) => ({
        ...this.presentRow(r.provider, r.userName, r.parentName),
        loginLockedUntil: (r.userName && locks.get(r.userName.toLowerCase())?.toISOString()) || null,
      })),
      total,
    };
  }

  async get(caller: Caller, id: number) {
    const row = await this.repo.findById(this.db, id);
    if (!row || !canSeeProvider(caller.scope, row.id)) throw notFound();
    return this.present(row);
  }

  private async manageable(caller: Caller, id: number, tx: Executor): Promise<ProviderRow> {
    const row = await this.repo.findById(tx, id);
    if (!row || !canSeeProvider(caller.scope, row.id) || !canManageProvider(caller, row)) throw notFound();
    return row;
  }

  async create(caller: Caller, input: NewProvider, ip: string) {
    const created = await this.db.transaction(async (tx) => {
      let parentId: number | null;
      if (caller.role === 'ONE_ROLE') parentId = caller.providerId;
      else if (isPlatformRole(caller.role)) parentId = input.parentId ?? null;
      else throw forbidden();
      // A platform account limited by data permission would not see the new provider, whose login
      // account would then see more than its creator: only unlimited platform accounts create providers.
      if (isPlatformRole(caller.role) && !caller.scope.all) throw fail('account.reachTooWide');
      if (parentId !== null) {
        const parent = await this.repo.findById(tx, parentId);
        if (!parent || parent.providerClass !== 1 || !parent.enabled || !canSeeProvider(caller.scope, parent.id)) {
          throw fail('provider.parentInvalid');
        }
      }
      await assertStoredLogo(tx, input.logoUrl, { providerId: null, parentId });
      const number = input.number ?? newNumber();
      const taken = await this.repo.nameOrNumberTaken(tx, input.name, number);
      if (taken.name) throw fail('provider.exists');
      if (taken.number) throw fail('provider.numberExists');
      if (await this.accounts.findByUserName(input.userName, tx)) throw fail('provider.exists').on('userName');
      const now = this.clock.now();
      const providerClass = parentId === null ? 1 : 2;
      const row = await this.repo.insert(tx, {
        name: input.name,
        number,
        domain: newDomain(),
        parentId,
        providerClass,
        logoUrl: input.logoUrl ?? null,
        platformName: input.platformName ?? null,
        remark: input.remark ?? null,
        createdAt: now,
        updatedAt: now,
      });
      const { initialPassword } = await this.accounts.createWithPassword(
        tx,
        {
          userName: input.userName,
          displayName: input.name,
          role: providerClass === 1 ? 'ONE_ROLE' : 'TWO_ROLE',
          providerId: row.id,
          createdBy: caller.accountId,
        },
        input.password,
      );
      await this.audit.byCaller(
        caller,
        ip,
        'provider.create',
        { type: 'provider', id: row.id, providerId: row.id, detail: { name: row.name, providerClass } },
        tx,
      );
      return { id: row.id, initialPassword };
    });
    this.treeChanged();
    return created;
  }

  /** A provider's own platform name and logo (/settings/platSet); `logoUrl` undefined keeps the logo. */
  async setBranding(
    providerId: number,
    branding: { platformName: string; logoUrl?: string | null | undefined },
    tx: Executor,
  ): Promise<void> {
    await this.repo.update(tx, providerId, {
      platformName: branding.platformName,
      ...(branding.logoUrl === undefined ? {} : { logoUrl: branding.logoUrl }),
      updatedAt: this.clock.now(),
    });
  }

  async resetPassword(caller: Caller, id: number, ip: string): Promise<string> {
    return this.db.transaction(async (tx) => {
      const row = await this.manageable(caller, id, tx);
      const userName = await this.repo.loginAccountName(tx, row.id);
      const account = userName ? await this.accounts.findByUserName(userName, tx) : undefined;
      if (!account) throw notFound();
      const password = await this.accounts.resetPassword(tx, account);
      await this.audit.byCaller(caller, ip, 'provider.resetPassword', { type: 'provider', id, providerId: id }, tx);
      return password;
    });
  }

  async operate(caller: Caller, id: number, edit: ProviderEdit, ip: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await this.manageable(caller, id, tx);
      const now = this.clock.now();
      if (edit.type === 'edit') {
        const name = edit.name ?? row.name;
        const number = edit.number ?? row.number;
        const taken = await this.repo.nameOrNumberTaken(tx, name, number, id);
        if (taken.name) throw fail('provider.exists');
        if (taken.number) throw fail('provider.numberExists');
        if (edit.logoUrl !== row.logoUrl)
          await assertStoredLogo(tx, edit.logoUrl, { providerId: row.id, parentId: row.parentId });
        await this.repo.update(tx, id, {
          name,
          number,
          ...(edit.logoUrl === undefined ? {} : { logoUrl: edit.logoUrl }),
          ...(edit.platformName === undefined ? {} : { platformName: edit.platformName }),
          ...(edit.remark === undefined ? {} : { remark: edit.remark }),
          updatedAt: now,
        });
      } else {
        const enabled = edit.type === 'enable';
        await this.repo.update(tx, id, { enabled, updatedAt: now });
        if (!enabled) {
          // Every account of the provider and its subordinates is blocked: end their sessions now.
          const subtree = await this.repo.ownAndSubordinateIds(tx, id);
          await this.sessions.revokeAccounts(await this.accounts.idsOfProviders(subtree, tx), 'provider-disabled', tx);
        }
      }
      await this.audit.byCaller(
        caller,
        ip,
        `provider.${edit.type}`,
        { type: 'provider', id, providerId: id, detail: { name: row.name } },
        tx,
      );
    });
  }

  async remove(caller: Caller, id: number, ip: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await this.manageable(caller, id, tx);
      if ((await this.repo.subordinates(tx, id)).length) throw fail('provider.hasChildren');
      const now = this.clock.now();
      await this.sessions.revokeAccounts(await this.accounts.idsOfProviders([id], tx), 'provider-deleted', tx);
      await this.accounts.cancelOfProvider(id, tx);
      await this.repo.update(tx, id, { deletedAt: now, enabled: false, updatedAt: now });
      await this.audit.byCaller(
        caller,
        ip,
        'provider.delete',
        { type: 'provider', id, providerId: id, detail: { name: row.name } },
        tx,
      );
    });
    this.treeChanged();
  }
}
