import type { CaregiverLevel, MessageKey, MessageParams } from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import type { Db, Executor } from '../../db/database.ts';
import { fail, notFound } from '../../core/app-error.ts';
import type { Caller } from '../../core/caller.ts';
import { assertVisible, listScope, scopeIds, targetProvider } from '../../core/tenant.ts';
import type { AccountService } from '../accounts/account.service.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import { transact, type ConstraintMessages } from './care-tx.ts';
import { distinct, linkProblems, loginNameFor } from './caregiver.policy.ts';
import { CaregiverRepository, type CaregiverRow } from './caregiver.repository.ts';

export interface NewCaregiver {
  name: string;
  /** Normalised (normalisePhone). */
  phone: string;
  job?: string | undefined;
  level: CaregiverLevel;
  residentIds: readonly number[];
  /** App login; the phone number when omitted. */
  userName?: string | undefined;
  remark?: string | undefined;
}

export interface CaregiverEdit {
  type: 'edit' | 'enable' | 'disable';
  name?: string | undefined;
  phone?: string | undefined;
  job?: string | null | undefined;
  level?: CaregiverLevel | undefined;
  residentIds?: readonly number[] | undefined;
  remark?: string | null | undefined;
}

/** A problem of one row of a batch, reported as data (a spreadsheet import lists them all). */
export interface CaregiverRowProblem {
  /** Position of the row in the batch, from 0. */
  index: number;
  field: 'phone' | 'userName' | 'residentIds';
  key: MessageKey;
  /** For a repeated value within the batch: `other` is the index of the row it repeats. */
  params: MessageParams;
}

export interface CreatedCaregiver {
  id: number;
  userName: string;
  initialPassword: string;
}

export type CreateOutcome = { ok: true; created: CreatedCaregiver[] } | { ok: false; problems: CaregiverRowProblem[] };

/** Unique and foreign-key violations a concurrent change can cause, and what the user reads. */
const CONSTRAINTS: ConstraintMessages = {
  caregiver_phone_unique: 'caregiver.phoneExists',
  account_user_name_live: 'account.exists',
};

/** Positions of values repeating an earlier row (compared by `key`), with the earlier row's index. */
const repeats = (values: readonly string[]): Map<number, number> => {
  const first = new Map<string, number>();
  const out = new Map<number, number>();
  values.forEach((value, index) => {
    const seen = first.get(value);
    if (seen === undefined) first.set(value, index);
    else out.set(index, seen);
  });
  return out;
};

/**
 * Caregivers (the spec's nursing staff): each has an app login account (role CARER) made and
 * kept in step through the account service, and up to 100 linked residents.
 */
export class CaregiverService {
  private readonly repo = new CaregiverRepository();
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly accounts: AccountService,
    private readonly providers: ProviderService,
  ) {}

  async list(
    caller: Caller,
    q: {
      pageNum: number;
      pageSize: number;
      keyWord?: string | undefined;
      level?: CaregiverLevel | undefined;
      enabled?: boolean | undefined;
      id?: number | undefined;
    },
  ) {
    const { rows, total } = await this.repo.page(this.db, {
      offset: (q.pageNum - 1) * q.pageSize,
      limit: q.pageSize,
      keyWord: q.keyWord,
      level: q.level,
      enabled: q.enabled,
      id: q.id,
      providerIds: scopeIds(listScope(caller)),
    });
    const linked = await this.repo.residentsOf(
      this.db,
      rows.map((r) => r.caregiver.id),
    );
    return {
      rows: rows.map(({ caregiver: c, providerName, userName }) => ({
        id: c.id,
        providerId: c.providerId,
        providerName,
        name: c.name,
        phone: c.phone,
        job: c.job,
        level: c.level === 'lead' ? ('lead' as const) : ('normal' as const),
        enabled: c.enabled,
        userName,
        residents: linked.get(c.id) ?? [],
        remark: c.remark,
        createTime: c.createdAt.toISOString(),
      })),
      total,
    };
  }

  async create(
    caller: Caller,
    input: NewCaregiver & { providerId?: number | undefined },
    ip: string,
  ): Promise<CreatedCaregiver> {
    return transact(
      this.db,
      async (tx) => {
        const outcome = await this.createMany(caller, [input], tx, ip, input.providerId);
        if (!outcome.ok) {
          const [problem] = outcome.problems;
          if (problem) throw fail(problem.key, problem.params);
        }
        const [created] = outcome.ok ? outcome.created : [];
        if (!created) throw new Error('caregiver create made nothing');
        return created;
      },
      CONSTRAINTS,
    );
  }

  /**
   * Creates caregivers in the caller's transaction (spreadsheet import reuses this): every row
   * is checked first and all problems come back as data, with nothing written; otherwise every
   * row is created with its app account and links. Residents are row-locked, so the limit of
   * carers per resident holds against concurrent changes.
   */
  async createMany(
    caller: Caller,
    rows: readonly NewCaregiver[],
    tx: Executor,
    ip: string,
    requestedProvider?: number,
  ): Promise<CreateOutcome> {
    const providerId = targetProvider(caller, requestedProvider);
    if (!(await this.providers.existing([providerId], tx))) throw notFound();
    const problems: CaregiverRowProblem[] = [];

    const phones = rows.map((r) => r.phone);
    const phoneRepeats = repeats(phones);
    const taken = await this.repo.phonesTaken(tx, providerId, phones);
    const logins = rows.map((r) => loginNameFor(r.phone, r.userName));
    const loginRepeats = repeats(logins.map((l) => l.toLowerCase()));
    for (const [index, row] of rows.entries()) {
      const phoneFirst = phoneRepeats.get(index);
      if (phoneFirst !== undefined) {
        problems.push({ index, field: 'phone', key: 'import.cell.duplicate', params: { other: phoneFirst } });
      } else if (taken.has(row.phone)) {
        problems.push({ index, field: 'phone', key: 'caregiver.phoneExists', params: {} });
      }
      // A login made of the phone has the phone's problems already.
      if (row.userName === undefined && (phoneFirst !== undefined || taken.has(row.phone))) continue;
      const login = logins[index] ?? '';
      const loginFirst = loginRepeats.get(index);
      const field = row.userName === undefined ? 'phone' : 'userName';
      if (loginFirst !== undefined) {
        problems.push({ index, field, key: 'import.cell.duplicate', params: { other: loginFirst } });
      } else if (await this.accounts.findByUserName(login, tx)) {
        // Name the login only when it is the phone: a chosen name is the caller's own input.
        problems.push(
          row.userName === undefined
            ? { index, field, key: 'caregiver.accountExists', params: { phone: login } }
            : { index, field, key: 'account.exists', params: {} },
        );
      }
    }

    const wanted = rows.map((r) => distinct(r.residentIds));
    const all = distinct(wanted.flat());
    const found = await this.repo.lockResidents(tx, all);
    const counts = await this.repo.linkCounts(tx, all);
    const pending = new Map<number, number>();
    for (const [index, ids] of wanted.entries()) {
      for (const p of linkProblems(caller.scope, providerId, ids, found, counts, pending)) {
        problems.push({ index, field: 'residentIds', key: p.key, params: p.params });
      }
      for (const id of ids) pending.set(id, (pending.get(id) ?? 0) + 1);
    }
    if (problems.length) return { ok: false, problems };

    const created: CreatedCaregiver[] = [];
    const now = this.clock.now();
    for (const [index, row] of rows.entries()) {
      const userName = logins[index] ?? row.phone;
      const { row: account, initialPassword } = await this.accounts.createWithPassword(
        tx,
        { userName, displayName: row.name, role: 'CARER', providerId, createdBy: caller.accountId },
        undefined,
      );
      if (initialPassword === null) throw new Error('caregiver account got no generated password');
      const caregiver = await this.repo.insert(tx, {
        providerId,
        accountId: account.id,
        name: row.name,
        phone: row.phone,
        job: row.job ?? null,
        level: row.level,
        remark: row.remark ?? null,
        createdAt: now,
        updatedAt: now,
      });
      await this.repo.replaceLinks(tx, caregiver.id, wanted[index] ?? []);
      await this.audit.byCaller(
        caller,
        ip,
        'caregiver.create',
        { type: 'caregiver', id: caregiver.id, providerId, detail: { name: row.name, userName } },
        tx,
      );
      created.push({ id: caregiver.id, userName, initialPassword });
    }
    return { ok: true, created };
  }

  async operate(caller: Caller, id: number, edit: CaregiverEdit, ip: string): Promise<void> {
    await transact(
      this.db,
      async (tx) => {
        assertVisible(caller, await this.repo.findById(tx, id));
        // Lock order: residents first, then the caregiver (as the residents module does).
        const wanted = edit.type === 'edit' && edit.residentIds ? distinct(edit.residentIds) : undefined;
        const found = wanted ? await this.repo.lockResidents(tx, wanted) : [];
        const row = await this.repo.lock(tx, id);
        if (!row) throw notFound();
        const now = this.clock.now();
        switch (edit.type) {
          case 'edit':
            await this.edit(caller, tx, row, edit, wanted, found, now);
            break;
          case 'enable':
          case 'disable': {
            const enabled = edit.type === 'enable';
            await this.repo.update(tx, id, { enabled, updatedAt: now });
            if (row.accountId !== null) {
              await this.accounts.setEnabled(tx, row.accountId, enabled, 'caregiver-disabled');
            }
            break;
          }
        }
        await this.audit.byCaller(
          caller,
          ip,
          `caregiver.${edit.type}`,
          { type: 'caregiver', id, providerId: row.providerId, detail: { name: row.name } },
          tx,
        );
      },
      CONSTRAINTS,
    );
  }

  private async edit(
    caller: Caller,
    tx: Executor,
    row: CaregiverRow,
    edit: CaregiverEdit,
    wanted: number[] | undefined,
    found: Awaited<ReturnType<CaregiverRepository['lockResidents']>>,
    now: Date,
  ): Promise<void> {
    if (edit.phone !== undefined && edit.phone !== row.phone) {
      if ((await this.repo.phonesTaken(tx, row.providerId, [edit.phone], row.id)).size) {
        throw fail('caregiver.phoneExists');
      }
    }
    if (wanted) {
      const counts = await this.repo.linkCounts(tx, wanted, row.id);
      const [problem] = linkProblems(caller.scope, row.providerId, wanted, found, counts);
      if (problem) throw fail(problem.key, problem.params);
      await this.repo.replaceLinks(tx, row.id, wanted);
    }
    await this.repo.update(tx, row.id, {
      ...(edit.name === undefined ? {} : { name: edit.name }),
      ...(edit.phone === undefined ? {} : { phone: edit.phone }),
      ...(edit.job === undefined ? {} : { job: edit.job }),
      ...(edit.level === undefined ? {} : { level: edit.level }),
      ...(edit.remark === undefined ? {} : { remark: edit.remark }),
      updatedAt: now,
    });
    if (edit.name !== undefined && edit.name !== row.name && row.accountId !== null) {
      await this.accounts.setDisplayName(tx, row.accountId, edit.name);
    }
  }

  async resetPassword(caller: Caller, id: number, ip: string): Promise<string> {
    return transact(this.db, async (tx) => {
      assertVisible(caller, await this.repo.findById(tx, id));
      const row = await this.repo.lock(tx, id);
      const account = row?.accountId == null ? undefined : await this.accounts.findById(row.accountId, tx);
      if (!row || !account) throw notFound();
      const password = await this.accounts.resetPassword(tx, account);
      await this.audit.byCaller(
        caller,
        ip,
        'caregiver.resetPassword',
        { type: 'caregiver', id, providerId: row.providerId, detail: { name: row.name } },
        tx,
      );
      return password;
    });
  }

  /** Deletes the caregiver and its resident links; its app account is cancelled and signed out. */
  async remove(caller: Caller, id: number, ip: string): Promise<void> {
    await transact(this.db, async (tx) => {
      assertVisible(caller, await this.repo.findById(tx, id));
      const row = await this.repo.lock(tx, id);
      if (!row) throw notFound();
      await this.repo.delete(tx, id);
      if (row.accountId !== null) await this.accounts.cancel(tx, row.accountId, 'caregiver-deleted');
      await this.audit.byCaller(
        caller,
        ip,
        'caregiver.delete',
        { type: 'caregiver', id, providerId: row.providerId, detail: { name: row.name } },
        tx,
      );
    });
  }

  // --- for other modules (communities, relatives' bindings, the alarm flow) ---

  /** Caregivers by id (any provider): the caller decides what it may see. */
  byIds(ids: readonly number[], tx: Executor = this.db): Promise<CaregiverRow[]> {
    return this.repo.byIds(tx, ids);
  }

  /** The caregiver signed in with this app account, if any. */
  ofAccount(accountId: number, tx: Executor = this.db): Promise<CaregiverRow | undefined> {
    return this.repo.findByAccountId(tx, accountId);
  }

  isLinked(caregiverId: number, residentId: number, tx: Executor = this.db): Promise<boolean> {
    return this.repo.isLinked(tx, caregiverId, residentId);
  }
}
