import type { SleepConfig } from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import { fail, invalid, notFound } from '../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../core/caller.ts';
import type { Db, Executor } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import { ALARM_SETTINGS_CHANGED } from '../../core/event-catalogue.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { effectiveSleepSetting, type SleepSetting } from './sleep-setting.policy.ts';
import { SleepSettingRepository, type SleepSettingOwner } from './sleep-setting.repository.ts';

/** A resident deleted between the check and the write does not exist, as one never seen. */
const CONSTRAINTS = { resident_sleep_setting_resident_id_resident_id_fk: 'not_found' } as const;

/**
 * A resident's sleep settings from BunkManage (decision 0027): read one resident's (the defaults
 * when none were saved), or save the same settings for one or a batch of residents. A save also
 * gives the residents' beds its mattress, and reaches the alarm engine's bed-leaving watch and
 * the consoles at once (alarm.settingsChanged, as bed alarm rules do).
 */
export class SleepSettingService {
  private readonly repo = new SleepSettingRepository();
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly transactions: Transactions,
    private readonly audit: AuditService,
  ) {}

  async get(caller: Caller, residentId: number): Promise<SleepSetting> {
    await this.providerOf(caller, [residentId], this.db);
    return effectiveSleepSetting(residentId, await this.repo.findOne(this.db, residentId));
  }

  /** Saves the settings for every given resident, or for none; answers how many. */
  async save(caller: Caller, residentIds: readonly number[], config: SleepConfig, ip: string): Promise<number> {
    if (config.sleepTime === config.wakeTime) throw invalid('community.sleepWakeSame');
    const ids = [...new Set(residentIds)].sort((a, b) => a - b);
    return this.transactions.run(
      async (tx, emit) => {
        const providerId = await this.providerOf(caller, ids, tx);
        const bedIds = await this.write(
          tx,
          ids.map((residentId) => ({ residentId, providerId })),
          config,
          { at: this.clock.now(), by: caller.accountId },
        );
        await this.audit.byCaller(
          caller,
          ip,
          'resident.sleepSettings',
          {
            type: 'resident',
            id: ids.join(','),
            providerId,
            detail: { count: ids.length, ...config, ...(bedIds.length ? { mattressOfBeds: bedIds } : {}) },
          },
          tx,
        );
        emit({
          type: ALARM_SETTINGS_CHANGED,
          providerId,
          payload: { providerId, residentIds: ids, sleepSettings: true },
        });
        return ids.length;
      },
      { constraints: CONSTRAINTS },
    );
  }

  // --- for the modules that read or save residents' settings themselves ---------------------

  /** A resident's saved settings (undefined: none saved, the defaults apply). */
  savedOf(residentId: number, db: Executor = this.db) {
    return this.repo.findOne(db, residentId);
  }

  /** The saved settings of these residents (those without any are left out). */
  savedOfMany(residentIds: readonly number[], db: Executor = this.db) {
    return this.repo.findMany(db, residentIds);
  }

  /** The settings of every resident whose bed-leaving watch is not all day (the alarm engine's). */
  narrowedLeaveBedWatches(db: Executor = this.db) {
    return this.repo.narrowedLeaveBedWatches(db);
  }

  /**
   * Saves the same settings for every given resident in the caller's transaction (its checks,
   * audit and announcement are the caller's) and gives their beds its mattress; answers the beds changed.
   */
  async write(
    tx: Executor,
    owners: readonly SleepSettingOwner[],
    config: SleepConfig,
    stamp: { at: Date; by: number },
  ): Promise<number[]> {
    await this.repo.upsert(tx, owners, config, stamp);
    return this.repo.mirrorMattress(
      tx,
      owners.map((o) => o.residentId),
      config.mattress,
      stamp.at,
    );
  }

  /**
   * The one provider of the residents, as bed alarm settings decide it: a resident that does not
   * exist or belongs to a provider the caller cannot see is not found (the whole batch with it);
   * residents of several providers are refused, since each provider's settings are its own to change.
   */
  private async providerOf(caller: Caller, ids: readonly number[], db: Executor): Promise<number> {
    const found = new Map((await this.repo.residentsByIds(db, ids)).map((r) => [r.id, r.providerId]));
    const providers = new Set(
      ids.map((id) => {
        const providerId = found.get(id);
        if (providerId === undefined || !canSeeProvider(caller.scope, providerId)) throw notFound();
        return providerId;
      }),
    );
    const [providerId, ...others] = providers;
    if (providerId === undefined) throw notFound();
    if (others.length) throw fail('sleepSetting.oneProvider');
    return providerId;
  }
}
