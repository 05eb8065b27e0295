import { BedAlarmRulesSchema, defaultAlarmRules, type BedAlarmRules } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import type { Clock } from '../../clock.ts';
import { notFound } from '../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../core/caller.ts';
import type { Db } from '../../db/database.ts';
import { residentAlarmSettings, residents } from '../../db/schema.ts';
import type { Transactions } from '../../db/transactions.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { ALARM_SETTINGS_CHANGED } from './alarm-settings.service.ts';

/** The rules a bed has without any of its own (the engine's defaults, levels aside). */
export const defaultBedRules = (): BedAlarmRules => {
  const { levels: _levels, ...rules } = defaultAlarmRules();
  return { ...rules, off: [...rules.off] } as BedAlarmRules;
};

/** A stored rule set, or null when none (or an unreadable one) is stored. */
export const storedBedRules = (raw: unknown): BedAlarmRules | null => {
  const parsed = BedAlarmRulesSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
};

/**
 * A resident's bed alarm rules (the console's `/BunkManage/alarmSetting/:userId`): read, save,
 * or back to the defaults. A save reaches the alarm engine at once (alarm.settingsChanged).
 */
export class BedAlarmSettingsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly transactions: Transactions,
    private readonly audit: AuditService,
  ) {}

  /** Every resident's own rules: what the engine loads. */
  async all(): Promise<Map<number, BedAlarmRules>> {
    const rows = await this.db.select().from(residentAlarmSettings);
    return new Map(
      rows.flatMap((r) => {
        const rules = storedBedRules(r.rules);
        return rules ? [[r.residentId, rules] as const] : [];
      }),
    );
  }

  async get(caller: Caller, residentId: number) {
    await this.visibleResident(caller, residentId);
    const [row] = await this.db
      .select()
      .from(residentAlarmSettings)
      .where(eq(residentAlarmSettings.residentId, residentId));
    const stored = row ? storedBedRules(row.rules) : null;
    return {
      userId: residentId,
      rules: stored ?? defaultBedRules(),
      custom: stored !== null,
      updateTime: stored && row ? row.updatedAt.toISOString() : null,
    };
  }

  async save(caller: Caller, residentId: number, rules: BedAlarmRules | null, ip: string): Promise<null> {
    const providerId = await this.visibleResident(caller, residentId);
    await this.transactions.run(async (tx, emit) => {
      if (rules === null)
        await tx.delete(residentAlarmSettings).where(eq(residentAlarmSettings.residentId, residentId));
      else {
        const values = { providerId, rules, updatedAt: this.clock.now(), updatedBy: caller.accountId };
        await tx
          .insert(residentAlarmSettings)
          .values({ residentId, ...values })
          .onConflictDoUpdate({ target: residentAlarmSettings.residentId, set: values });
      }
      await this.audit.by(
        { kind: 'account', caller, ip },
        'alarm.bedSettings',
        { type: 'resident', id: residentId, providerId, detail: { reset: rules === null } },
        tx,
      );
      emit({ type: ALARM_SETTINGS_CHANGED, providerId, payload: { providerId, residentId } });
    });
    return null;
  }

  private async visibleResident(caller: Caller, residentId: number): Promise<number> {
    const [resident] = await this.db
      .select({ providerId: residents.providerId })
      .from(residents)
      .where(eq(residents.id, residentId));
    if (!resident || !canSeeProvider(caller.scope, resident.providerId)) throw notFound();
    return resident.providerId;
  }
}
