import { dbErrorOf, FOREIGN_KEY_VIOLATION } from '../../db/db-errors.ts';
import {
  RESIDENT_LIMITS,
  Status,
  type EmergencyContactIn,
  type MessageKey,
  type MessageParams,
  type NewResident,
  type ResidentState,
} from '@vigil/contract';
import type { Db, Executor } from '../../db/database.ts';
import type { Transactions, Within } from '../../db/transactions.ts';
import type { Clock } from '../../clock.ts';
import { AppError, fail, invalid } from '../../core/app-error.ts';
import type { Caller } from '../../core/caller.ts';
import { listScope, scopeIds, targetProvider } from '../../core/tenant.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { AbsenceService } from './absence.service.ts';
import { ResidentQueryRepository } from './resident-query.repository.ts';
import { ageRangeBounds, birthDateProblem, canDelete, localDate } from './resident.policy.ts';
import { ResidentRepository, type ResidentChanges, type ResidentRecord } from './resident.repository.ts';
import { presentDetail, presentRow } from './resident.view.ts';
import { visible } from './visible.ts';

/** One problem of one row of a batch (or of the single row of insertUser): data, not an exception. */
export interface ResidentRowProblem {
  /** Index of the row in the batch, from 0. */
  index: number;
  /** Wire name of the field at fault. */
  field: string;
  status: typeof Status.FAILED | typeof Status.INVALID_INPUT;
  key: MessageKey;
  params: MessageParams;
  /** resident.sameName: the ids of the residents already bearing the name. */
  existingIds?: number[];
}

/** The facility module's resident lifecycle (the only writer of occupancy), as this module uses it. */
export interface ResidentLifecycle {
  /** Bed emptied, address cleared, state loggedOff, data kept; inside the given transaction. */
  logOff(actor: { caller: Caller; ip: string }, residentId: number, within: Within): Promise<void>;
}

export type CreateOutcome = { ok: true; ids: number[] } | { ok: false; problems: ResidentRowProblem[] };

export interface CreateOptions {
  ip: string;
  /** Provider of the new residents; default the caller's chosen (or own) provider. */
  providerId?: number | null | undefined;
  /** Create even when a resident of the same name exists (the console's "continue?"). */
  confirmSameName?: boolean;
}

export interface ResidentEdit {
  id: number;
  name?: string | undefined;
  gender?: 0 | 1 | undefined;
  birthDate?: string | undefined;
  height?: number | null | undefined;
  weight?: number | null | undefined;
  medicalHistory?: string[] | undefined;
  otherHistory?: string | null | undefined;
  contacts?: EmergencyContactIn[] | undefined;
  priority?: boolean | undefined;
  remark?: string | null | undefined;
  caregiverIds?: number[] | undefined;
  communityId?: number | null | undefined;
  confirm: boolean;
}

export interface ResidentListInput {
  pageNum: number;
  pageSize: number;
  keyWord?: string | undefined;
  state?: ResidentState | undefined;
  gender?: 0 | 1 | undefined;
  priority?: boolean | undefined;
  areaId?: number | undefined;
  roomId?: number | undefined;
  communityId?: number | undefined;
  ageMin?: number | undefined;
  ageMax?: number | undefined;
}

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

/** The first phone listed twice among the contacts, or null. */
const repeatedPhone = (contacts: readonly EmergencyContactIn[]): string | null => {
  const seen = new Set<string>();
  for (const c of contacts) {
    if (seen.has(c.phone)) return c.phone;
    seen.add(c.phone);
  }
  return null;
};

const problemError = (p: ResidentRowProblem): AppError =>
  new AppError(p.status, p.key, p.params, 200, p.existingIds ? { existingIds: p.existingIds } : null);

const isForeignKeyViolation = (error: unknown): boolean => dbErrorOf(error)?.code === FOREIGN_KEY_VIOLATION;

/**
 * Residents: registration, own fields, emergency contacts, linked carers, lists and detail.
 * Occupancy (state, bed, room, admission and check-out times) is the facility module's; this
 * service reads it and never writes it.
 */
export class ResidentService {
  readonly absences: AbsenceService;
  private readonly repo = new ResidentRepository();
  private readonly query = new ResidentQueryRepository();

  constructor(
    private readonly db: Db,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly lifecycle: ResidentLifecycle,
  ) {
    this.absences = new AbsenceService(db, transactions, clock, audit);
  }

  findById(id: number, tx: Executor = this.db): Promise<ResidentRecord | undefined> {
    return this.repo.findById(tx, id);
  }

  async list(caller: Caller, q: ResidentListInput) {
    const { rows, total, carers, today } = await this.page(caller, q);
    return { rows: rows.map((r) => presentRow(r, carers.get(r.resident.id) ?? [], today)), total };
  }

  private async page(caller: Caller, q: ResidentListInput) {
    const now = this.clock.now();
    const today = localDate(now);
    const { rows, total } = await this.query.page(this.db, {
      offset: (q.pageNum - 1) * q.pageSize,
      limit: q.pageSize,
      providerIds: scopeIds(listScope(caller)),
      keyWord: q.keyWord,
      state: q.state,
      gender: q.gender,
      priority: q.priority,
      areaId: q.areaId,
      roomId: q.roomId,
      communityId: q.communityId,
      ...ageRangeBounds(today, q.ageMin, q.ageMax),
      now,
    });
    const carers = await this.query.carersOf(
      this.db,
      rows.map((r) => r.resident.id),
    );
    return { rows, total, carers, today };
  }

  /**
   * Residents of a list's filters with what the list leaves out (emergency contacts, other
   * history), for the spreadsheet export.
   */
  async exportRows(caller: Caller, q: ResidentListInput) {
    const { rows, total, carers, today } = await this.page(caller, q);
    const contacts = await this.repo.contactsOfMany(
      this.db,
      rows.map((r) => r.resident.id),
    );
    return {
      total,
      rows: rows.map((r) => ({
        row: presentRow(r, carers.get(r.resident.id) ?? [], today),
        otherHistory: r.resident.otherHistory,
        contacts: contacts.get(r.resident.id) ?? [],
      })),
    };
  }

  async summary(caller: Caller) {
    const row = await this.query.summary(this.db, scopeIds(listScope(caller)), this.clock.now());
    const n = (v: number | undefined) => Number(v ?? 0);
    return {
      total: n(row?.total),
      byState: {
        registered: n(row?.registered),
        checkedIn: n(row?.checkedIn),
        checkedOut: n(row?.checkedOut),
        loggedOff: n(row?.loggedOff),
      },
      priority: n(row?.priority),
      male: n(row?.male),
      female: n(row?.female),
      away: n(row?.away),
    };
  }

  async get(caller: Caller, id: number) {
    const now = this.clock.now();
    const row = await this.query.one(this.db, id, now);
    visible(caller, row ? row.resident : undefined);
    if (!row) throw new Error('unreachable');
    const [carers, contacts, absence] = await Promise.all([
      this.query.carersOf(this.db, [id]),
      this.repo.contactsOf(this.db, id),
      this.absences.open(row.resident),
    ]);
    return presentDetail(row, carers.get(id) ?? [], contacts, absence, localDate(now), now);
  }

  /** insertUser: one resident, all or nothing; the first problem is the answer. */
  async create(caller: Caller, input: NewResident & { providerId?: number | undefined; confirm: boolean }, ip: string) {
    return this.db.transaction(async (tx) => {
      const outcome = await this.createMany(caller, [input], tx, {
        ip,
        providerId: input.providerId,
        confirmSameName: input.confirm,
      });
      if (!outcome.ok) throw problemError(outcome.problems[0] as ResidentRowProblem);
      return { id: outcome.ids[0] as number };
    });
  }

  /**
   * Registers residents inside the caller's transaction (insertUser, spreadsheet import). Every
   * row is checked first and every problem reported as data (row index, field, message key);
   * nothing is written unless all rows pass. Rows come validated by NewResidentSchema.
   */
  async createMany(
    caller: Caller,
    rows: readonly NewResident[],
    tx: Executor,
    options: CreateOptions,
  ): Promise<CreateOutcome> {
    const providerId = targetProvider(caller, options.providerId);
    const today = localDate(this.clock.now());
    const problems: ResidentRowProblem[] = [];
    const add = (
      index: number,
      field: string,
      status: ResidentRowProblem['status'],
      key: MessageKey,
      params: MessageParams = {},
    ) => problems.push({ index, field, status, key, params });

    rows.forEach((row, index) => {
      const birth = birthDateProblem(row.birthDate, today);
      if (birth) add(index, 'birthDate', Status.INVALID_INPUT, birth);
      const phone = repeatedPhone(row.contacts);
      if (phone) add(index, 'contacts', Status.INVALID_INPUT, 'resident.contactDuplicate', { phone });
      // A new resident has no contacts yet: an id names someone else's contact.
      if (row.contacts.some((c) => c.id !== undefined))
        add(index, 'contacts', Status.FAILED, 'resident.contactNotFound');
    });

    const communityIds = unique(rows.flatMap((r) => (r.communityId ? [r.communityId] : [])));
    const goodCommunities = new Set<number>();
    for (const id of communityIds) {
      const community = await this.repo.communityOf(tx, id);
      if (community?.providerId === providerId) goodCommunities.add(id);
    }
    rows.forEach((row, index) => {
      if (row.communityId && !goodCommunities.has(row.communityId)) {
        add(index, 'communityId', Status.FAILED, 'resident.communityNotFound');
      }
    });

    const wanted = unique(rows.flatMap((r) => r.caregiverIds));
    const carers = new Map((await this.repo.lockCaregivers(tx, wanted)).map((c) => [c.id, c]));
    const load = await this.repo.residentCounts(tx, wanted);
    rows.forEach((row, index) => {
      for (const id of unique(row.caregiverIds)) {
        const carer = carers.get(id);
        if (carer?.providerId !== providerId) {
          add(index, 'caregiverIds', Status.FAILED, 'resident.carerNotFound');
          return;
        }
        const n = (load.get(id) ?? 0) + 1;
        load.set(id, n);
        if (n > RESIDENT_LIMITS.maxResidentsPerCarer) {
          add(index, 'caregiverIds', Status.FAILED, 'resident.carerFull', { name: carer.name });
          return;
        }
      }
    });

    await this.repo.lockNames(tx, providerId);
    if (!options.confirmSameName) {
      const lower = rows.map((r) => r.name.toLowerCase());
      const existing = new Map<string, number[]>();
      for (const r of await this.repo.sameNames(tx, providerId, unique(lower))) {
        existing.set(r.lowerName, [...(existing.get(r.lowerName) ?? []), r.id]);
      }
      const earlier = new Set<string>();
      rows.forEach((row, index) => {
        const key = lower[index] ?? '';
        const ids = existing.get(key) ?? [];
        if (ids.length || earlier.has(key)) {
          problems.push({
            index,
            field: 'name',
            status: Status.FAILED,
            key: 'resident.sameName',
            params: { name: row.name },
            existingIds: ids,
          });
        }
        earlier.add(key);
      });
    }
    if (problems.length) return { ok: false, problems: problems.sort((a, b) => a.index - b.index) };

    const now = this.clock.now();
    const ids = await this.repo.insertMany(
      tx,
      rows.map((r) => ({
        providerId,
        name: r.name,
        gender: r.gender,
        birthDate: r.birthDate,
        height: r.height ?? null,
        weight: r.weight ?? null,
        medicalHistory: unique(r.medicalHistory),
        otherHistory: r.otherHistory ? r.otherHistory : null,
        priority: r.priority,
        remark: r.remark ? r.remark : null,
        communityId: r.communityId ?? null,
        createdAt: now,
        updatedAt: now,
      })),
    );
    await this.repo.insertContacts(
      tx,
      rows.flatMap((r, i) =>
        r.contacts.map((c, sort) => ({
          residentId: ids[i] as number,
          name: c.name,
          phone: c.phone,
          relation: c.relation,
          sort,
        })),
      ),
    );
    await this.repo.linkCarers(
      tx,
      rows.flatMap((r, i) =>
        unique(r.caregiverIds).map((caregiverId) => ({ residentId: ids[i] as number, caregiverId })),
      ),
    );
    if (rows.length === 1) {
      await this.audit.byCaller(
        caller,
        options.ip,
        'resident.create',
        { type: 'resident', id: ids[0] as number, providerId, detail: { name: rows[0]?.name } },
        tx,
      );
    } else if (rows.length > 1) {
      await this.audit.byCaller(
        caller,
        options.ip,
        'resident.createMany',
        { type: 'resident', id: ids.join(','), providerId, detail: { count: ids.length, ids } },
        tx,
      );
    }
    return { ok: true, ids };
  }

  async update(caller: Caller, edit: ResidentEdit, ip: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      // Lock order shared with the facility and caregiver modules: the resident, then caregivers by id.
      const row = visible(caller, await this.repo.lockById(tx, edit.id));
      const requestedCarers = edit.caregiverIds ? unique(edit.caregiverIds) : undefined;
      const carers = requestedCarers
        ? new Map((await this.repo.lockCaregivers(tx, requestedCarers)).map((c) => [c.id, c]))
        : undefined;
      const changes: ResidentChanges = {};
      const changed: string[] = [];
      const set = <K extends keyof ResidentChanges>(key: K, value: ResidentChanges[K] | undefined) => {
        if (value === undefined) return;
        changes[key] = value;
        if (JSON.stringify(value) !== JSON.stringify(row[key])) changed.push(key);
      };

      if (edit.birthDate !== undefined) {
        const problem = birthDateProblem(edit.birthDate, localDate(this.clock.now()));
        if (problem) throw invalid(problem);
      }
      if (edit.contacts) {
        const phone = repeatedPhone(edit.contacts);
        if (phone) throw invalid('resident.contactDuplicate', { phone });
      }
      const contacts = edit.contacts ? await this.repo.contactsOf(tx, row.id) : [];
      const ownContactIds = new Set(contacts.map((c) => c.id));
      if (edit.contacts?.some((c) => c.id !== undefined && !ownContactIds.has(c.id))) {
        throw fail('resident.contactNotFound');
      }
      if (edit.communityId && edit.communityId !== row.communityId) {
        const community = await this.repo.communityOf(tx, edit.communityId);
        if (community?.providerId !== row.providerId) throw fail('resident.communityNotFound');
      }
      let addedCarers: number[] = [];
      let removedCarers: number[] = [];
      if (requestedCarers && carers) {
        for (const id of requestedCarers) {
          if (carers.get(id)?.providerId !== row.providerId) throw fail('resident.carerNotFound');
        }
        const current = await this.repo.caregiverIdsOf(tx, row.id);
        addedCarers = requestedCarers.filter((id) => !current.includes(id));
        removedCarers = current.filter((id) => !requestedCarers.includes(id));
        const load = await this.repo.residentCounts(tx, addedCarers);
        for (const id of addedCarers) {
          if ((load.get(id) ?? 0) >= RESIDENT_LIMITS.maxResidentsPerCarer) {
            throw fail('resident.carerFull', { name: carers.get(id)?.name ?? '' });
          }
        }
      }
      if (edit.name !== undefined && edit.name.toLowerCase() !== row.name.toLowerCase()) {
        await this.repo.lockNames(tx, row.providerId);
        if (!edit.confirm) {
          const same = await this.repo.sameNames(tx, row.providerId, [edit.name.toLowerCase()], row.id);
          if (same.length) {
            throw problemError({
              index: 0,
              field: 'name',
              status: Status.FAILED,
              key: 'resident.sameName',
              params: { name: edit.name },
              existingIds: same.map((s) => s.id),
            });
          }
        }
      }

      set('name', edit.name);
      set('gender', edit.gender);
      set('birthDate', edit.birthDate);
      set('height', edit.height);
      set('weight', edit.weight);
      set('medicalHistory', edit.medicalHistory ? unique(edit.medicalHistory) : undefined);
      set('otherHistory', edit.otherHistory === undefined ? undefined : edit.otherHistory || null);
      set('priority', edit.priority);
      set('remark', edit.remark === undefined ? undefined : edit.remark || null);
      set('communityId', edit.communityId);
      await this.repo.update(tx, row.id, { ...changes, updatedAt: this.clock.now() });

      if (edit.contacts) {
        const listed = new Set(edit.contacts.flatMap((c) => (c.id === undefined ? [] : [c.id])));
        await this.repo.deleteContacts(
          tx,
          contacts.filter((c) => !listed.has(c.id)).map((c) => c.id),
        );
        const fresh: { residentId: number; name: string; phone: string; relation: string; sort: number }[] = [];
        for (const [sort, c] of edit.contacts.entries()) {
          const values = { name: c.name, phone: c.phone, relation: c.relation, sort };
          if (c.id === undefined) fresh.push({ residentId: row.id, ...values });
          else await this.repo.updateContact(tx, c.id, values);
        }
        await this.repo.insertContacts(tx, fresh);
        const before = contacts.map((c) => `${c.name}|${c.phone}|${c.relation}`).join(',');
        const after = edit.contacts.map((c) => `${c.name}|${c.phone}|${c.relation}`).join(',');
        if (before !== after) changed.push('contacts');
      }
      if (addedCarers.length || removedCarers.length) {
        await this.repo.unlinkCarers(tx, row.id, removedCarers);
        await this.repo.linkCarers(
          tx,
          addedCarers.map((caregiverId) => ({ residentId: row.id, caregiverId })),
        );
        changed.push('caregiverIds');
      }
      await this.audit.byCaller(
        caller,
        ip,
        'resident.update',
        {
          type: 'resident',
          id: row.id,
          providerId: row.providerId,
          detail: { name: edit.name ?? row.name, fields: changed },
        },
        tx,
      );
    });
  }

  /**
   * deleteById. A checked-in resident is refused (check out first). One registered and never
   * checked in is deleted with contacts, carer links and absences: no care history exists.
   * Anyone admitted once is logged off instead (bed and address cleared, data kept, spec doc 1
   * §4), as is a never-admitted resident some other record still points at.
   */
  async remove(caller: Caller, id: number, ip: string): Promise<{ outcome: 'deleted' | 'loggedOff' }> {
    return this.transactions.run(async (tx, emit) => {
      const row = visible(caller, await this.repo.lockById(tx, id));
      const hasBed = await this.repo.hasBed(tx, row.id);
      if (row.state === 'checkedIn' || hasBed) throw fail('resident.deleteCheckedIn');
      if (canDelete(row, hasBed)) {
        const deleted = await tx
          .transaction(async (savepoint) => {
            await this.repo.delete(savepoint, row.id);
            return true;
          })
          .catch((error: unknown) => {
            if (isForeignKeyViolation(error)) return false;
            throw error;
          });
        if (deleted) {
          await this.audit.byCaller(
            caller,
            ip,
            'resident.delete',
            { type: 'resident', id: row.id, providerId: row.providerId, detail: { name: row.name } },
            tx,
          );
          return { outcome: 'deleted' as const };
        }
      }
      await this.absences.closeOpen(row, { tx, emit });
      await this.lifecycle.logOff({ caller, ip }, row.id, { tx, emit });
      return { outcome: 'loggedOff' as const };
    });
  }
}
