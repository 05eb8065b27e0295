import type { SleepConfig } from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import { fail, invalid, notFound } from '../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../core/caller.ts';
import type { Db, Executor } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import { ALARM_SETTINGS_CHANGED } from '../../core/event-catalogue.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { effectiveSleepSetting, type SleepSetting } from './sleep-setting.policy.ts';
import { SleepSettingRepository } from './sleep-setting.repository.ts';

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
        const now = this.clock.now();
        await this.repo.upsert(
          tx,
          ids.map((residentId) => ({ residentId, providerId })),
          config,
          { at: now, by: caller.accountId },
        );
        const bedIds = await this.repo.mirrorMattress(tx, ids, config.mattress, now);
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
