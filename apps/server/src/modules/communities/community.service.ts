import type { CommunityAlarmConfig, CommunityAlarmType, SleepConfig } from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import type { Db, Executor } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import { ALARM_SETTINGS_CHANGED } from '../../core/event-catalogue.ts';
import { fail, invalid, notFound } from '../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../core/caller.ts';
import { assertVisible, listScope, scopeIds, targetProvider } from '../../core/tenant.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { transact, type ConstraintMessages } from '../caregivers/care-tx.ts';
import { assertReceivers } from '../caregivers/caregiver.policy.ts';
import type { CaregiverService } from '../caregivers/caregiver.service.ts';
import type { ProviderService } from '../providers/provider.service.ts';
import { storedSleepSetting } from '../sleep-settings/sleep-setting.policy.ts';
import type { SleepSettingService } from '../sleep-settings/sleep-setting.service.ts';
import { levelConflict, storedAlarmConfig, type StoredAlarmConfig } from './community.policy.ts';
import { CommunityRepository, type CommunityRow, type MemberRef } from './community.repository.ts';

export interface CommunityEdit {
  id: number;
  name: string;
  address?: string | null | undefined;
  contact?: string | null | undefined;
  phone?: string | null | undefined;
  remark?: string | null | undefined;
}

export interface NewCommunity {
  name: string;
  address?: string | undefined;
  contact?: string | undefined;
  phone?: string | undefined;
  remark?: string | undefined;
  providerId?: number | undefined;
}

export interface AlarmConfigInput {
  level1: readonly CommunityAlarmType[];
  level2: readonly CommunityAlarmType[];
  receiverIds: readonly number[];
  notify: readonly CommunityAlarmConfig['notify'][number][];
}

const CONSTRAINTS: ConstraintMessages = {
  community_name_unique: 'community.exists',
  resident_community_id_community_id_fk: 'community.hasResidents',
};

/** A member deleted between the check and the write does not exist, as one never seen. */
const SLEEP_CONSTRAINTS: ConstraintMessages = { resident_sleep_setting_resident_id_resident_id_fk: 'not_found' };

const distinct = <T>(items: readonly T[]): T[] => [...new Set(items)];

/**
 * Communities (community care providers): their members' sleep settings (kept with each resident,
 * the store BunkManage saves too: decision 0027) and the alarm settings of the community.
 * Residents join a community in the residents module.
 */
export class CommunityService {
  private readonly repo = new CommunityRepository();
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly providers: ProviderService,
    private readonly caregivers: CaregiverService,
    /** Sleep settings are announced after commit: the alarm engine's bed-leaving watch reloads at once. */
    private readonly transactions: Transactions,
    /** Members' sleep settings are the residents' own, kept by the sleep-settings module. */
    private readonly sleepSettings: Pick<SleepSettingService, 'write' | 'savedOf'>,
  ) {}

  async list(
    caller: Caller,
    q: { pageNum: number; pageSize: number; keyWord?: string | undefined; providerId?: number | undefined },
  ) {
    // A provider asked for must be visible; one that is not lists nothing, as one that does not exist.
    const providerIds =
      q.providerId === undefined
        ? scopeIds(listScope(caller))
        : canSeeProvider(caller.scope, q.providerId)
          ? [q.providerId]
          : [];
    const { rows, total } = await this.repo.page(this.db, {
      offset: (q.pageNum - 1) * q.pageSize,
      limit: q.pageSize,
      keyWord: q.keyWord,
      providerIds,
    });
    const configs = rows.map((r) => storedAlarmConfig(r.community.alarmConfig));
    const live = await this.liveReceivers(configs.flatMap((c) => c?.receiverIds ?? []));
    return {
      rows: rows.map(({ community: c, providerName, residentCount }, i) => {
        const config = configs[i] ?? null;
        return {
          id: c.id,
          providerId: c.providerId,
          providerName,
          name: c.name,
          address: c.address,
          contact: c.contact,
          phone: c.phone,
          remark: c.remark,
          residentCount,
          alarmConfig: config && {
            ...config,
            receiverIds: config.receiverIds.filter((id) => live.get(id) === c.providerId),
          },
          createTime: c.createdAt.toISOString(),
        };
      }),
      total,
    };
  }

  /** Deleted caregivers drop out of the receivers: caregiver id → provider of the ones that still exist. */
  private async liveReceivers(ids: readonly number[]): Promise<Map<number, number>> {
    const rows = await this.caregivers.byIds(distinct(ids));
    return new Map(rows.map((r) => [r.id, r.providerId]));
  }

  async create(caller: Caller, input: NewCommunity, ip: string): Promise<{ id: number }> {
    return transact(
      this.db,
      async (tx) => {
        const providerId = targetProvider(caller, input.providerId);
        if (!(await this.providers.existing([providerId], tx))) throw notFound();
        if (await this.repo.nameTaken(tx, providerId, input.name)) throw fail('community.exists');
        const now = this.clock.now();
        const row = await this.repo.insert(tx, {
          providerId,
          name: input.name,
          address: input.address ?? null,
          contact: input.contact ?? null,
          phone: input.phone ?? null,
          remark: input.remark ?? null,
          createdAt: now,
          updatedAt: now,
        });
        await this.audit.byCaller(
          caller,
          ip,
          'community.create',
          { type: 'community', id: row.id, providerId, detail: { name: row.name } },
          tx,
        );
        return { id: row.id };
      },
      CONSTRAINTS,
    );
  }

  /** The community, locked, when the caller sees it; otherwise not_found. */
  private async locked(caller: Caller, id: number, tx: Executor): Promise<CommunityRow> {
    assertVisible(caller, await this.repo.findById(tx, id));
    const row = await this.repo.lock(tx, id);
    if (!row) throw notFound();
    return row;
  }

  /** Renames a community or changes its details; members and settings stay. */
  async update(caller: Caller, input: CommunityEdit, ip: string): Promise<void> {
    await transact(
      this.db,
      async (tx) => {
        const row = await this.locked(caller, input.id, tx);
        const renamed = input.name.toLowerCase() !== row.name.toLowerCase();
        if (renamed && (await this.repo.nameTaken(tx, row.providerId, input.name))) throw fail('community.exists');
        await this.repo.update(tx, row.id, {
          name: input.name,
          ...(input.address === undefined ? {} : { address: input.address }),
          ...(input.contact === undefined ? {} : { contact: input.contact }),
          ...(input.phone === undefined ? {} : { phone: input.phone }),
          ...(input.remark === undefined ? {} : { remark: input.remark }),
          updatedAt: this.clock.now(),
        });
        await this.audit.byCaller(
          caller,
          ip,
          'community.update',
          { type: 'community', id: row.id, providerId: row.providerId, detail: { name: input.name, was: row.name } },
          tx,
        );
      },
      CONSTRAINTS,
    );
  }

  async remove(caller: Caller, id: number, ip: string): Promise<void> {
    await transact(
      this.db,
      async (tx) => {
        const row = await this.locked(caller, id, tx);
        // A resident joining meanwhile waits for the lock and then fails its foreign key (mapped above).
        if ((await this.repo.residentCount(tx, id)) > 0) throw fail('community.hasResidents');
        await this.repo.delete(tx, id);
        await this.audit.byCaller(
          caller,
          ip,
          'community.delete',
          { type: 'community', id, providerId: row.providerId, detail: { name: row.name } },
          tx,
        );
      },
      CONSTRAINTS,
    );
  }

  /** Residents of the community by id; a resident the caller cannot see does not exist, a non-member is refused. */
  private async members(
    caller: Caller,
    community: CommunityRow,
    ids: readonly number[],
    tx: Executor,
  ): Promise<MemberRef[]> {
    const found = new Map((await this.repo.residentsByIds(tx, ids)).map((r) => [r.id, r]));
    return ids.map((id) => {
      const resident = found.get(id);
      if (!resident || !canSeeProvider(caller.scope, resident.providerId)) throw notFound();
      if (resident.communityId !== community.id) throw fail('community.notMember', { name: resident.name });
      return resident;
    });
  }

  /**
   * Saves the same sleep settings for residents of the community (all or none); answers how many.
   * They are the residents' own settings, as BunkManage saves them: they stay with a resident who
   * leaves the community, and their beds get the mattress. The alarm engine reads them at its next
   * periodic reload (no event: this module has no outbox to write one to).
   */
  async saveSleepConfig(
    caller: Caller,
    communityId: number,
    residentIds: readonly number[],
    config: SleepConfig,
    ip: string,
  ): Promise<number> {
    if (config.sleepTime === config.wakeTime) throw invalid('community.sleepWakeSame');
    const ids = distinct(residentIds);
    return this.transactions.run(
      async (tx, emit) => {
        const community = await this.locked(caller, communityId, tx);
        const members = await this.members(caller, community, ids, tx);
        await this.sleepSettings.write(
          tx,
          members.map((m) => ({ residentId: m.id, providerId: m.providerId })),
          config,
          { at: this.clock.now(), by: caller.accountId },
        );
        await this.audit.byCaller(
          caller,
          ip,
          'community.sleepConfig',
          {
            type: 'community',
            id: community.id,
            providerId: community.providerId,
            detail: { residentIds: ids, ...config },
          },
          tx,
        );
        emit({
          type: ALARM_SETTINGS_CHANGED,
          providerId: community.providerId,
          payload: { providerId: community.providerId, residentIds: ids, sleepSettings: true },
        });
        return ids.length;
      },
      { constraints: SLEEP_CONSTRAINTS, busy: 'caregiver.busy', attempts: 5 },
    );
  }

  /** A member's saved sleep settings, or null when none were saved (the defaults apply). */
  async sleepConfigOf(caller: Caller, communityId: number, residentId: number) {
    const community = await this.repo.findById(this.db, communityId);
    assertVisible(caller, community);
    if (!community) throw notFound();
    await this.members(caller, community, [residentId], this.db);
    const row = await this.sleepSettings.savedOf(residentId);
    const saved = row && storedSleepSetting(row);
    return saved ? { ...saved, updateTime: row.updatedAt.toISOString() } : null;
  }

  /**
   * Saves which alarm types are level 1 and level 2 in this community (a type in neither list takes
   * the provider's level; decision 0025), who receives them (enabled caregivers of the community's provider) and how.
   */
  async saveAlarmConfig(caller: Caller, communityId: number, input: AlarmConfigInput, ip: string): Promise<void> {
    const level1 = distinct(input.level1);
    const level2 = distinct(input.level2);
    const conflict = levelConflict(level1, level2);
    if (conflict) throw invalid('community.alarmLevelConflict', { type: conflict });
    const receiverIds = distinct(input.receiverIds);
    await transact(this.db, async (tx) => {
      const community = await this.locked(caller, communityId, tx);
      const found = await this.caregivers.byIds(receiverIds, tx);
      assertReceivers(receiverIds, found, caller.scope, community.providerId, 'community.receiverProvider');
      const levels = Object.fromEntries([...level1.map((t) => [t, 1]), ...level2.map((t) => [t, 2])]);
      const alarmConfig: StoredAlarmConfig = { levels, receiverIds, notify: distinct(input.notify) };
      await this.repo.update(tx, community.id, { alarmConfig, updatedAt: this.clock.now() });
      await this.audit.byCaller(
        caller,
        ip,
        'community.alarmConfig',
        { type: 'community', id: community.id, providerId: community.providerId, detail: { ...alarmConfig } },
        tx,
      );
    });
  }
}
