import {
  SNOOZE_MINUTES_RANGE,
  type AlertLevelSettings,
  type CallParsed,
  type Calls,
  type VoiceWay,
} from '@vigil/contract';
import { eq } from 'drizzle-orm';
import type { Clock } from '../../clock.ts';
import type { Caller } from '../../core/caller.ts';
import { targetProvider } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/database.ts';
import { alarmSettings } from '../../db/schema.ts';
import type { Transactions } from '../../db/transactions.ts';
import { ALARM_SETTINGS_CHANGED } from '../../core/event-catalogue.ts';
import type { AuditService } from '../audit/audit.service.ts';
import {
  DEFAULT_PROVIDER_SETTINGS,
  resolveLevels,
  voiceFlagOf,
  type LevelPresentation,
  type ProviderAlarmSettings,
} from './alarm-settings.ts';

type SaveInput = CallParsed<Calls['saveAlertLevel']>;

/** Published after a provider's alarm settings change: the engine reloads them, consoles get /dataChange. */

const presentation = (raw: unknown, fallback: LevelPresentation): LevelPresentation => {
  const r = raw as Partial<LevelPresentation> | null;
  const snooze = Number(r?.snoozeMinutes);
  return {
    pc: typeof r?.pc === 'boolean' ? r.pc : fallback.pc,
    globalVoiceWay: [0, 1, 2, 3].includes(Number(r?.globalVoiceWay))
      ? (Number(r?.globalVoiceWay) as VoiceWay)
      : fallback.globalVoiceWay,
    latch: typeof r?.latch === 'boolean' ? r.latch : fallback.latch,
    snoozeMinutes:
      Number.isInteger(snooze) && snooze >= SNOOZE_MINUTES_RANGE.min && snooze <= SNOOZE_MINUTES_RANGE.max
        ? snooze
        : fallback.snoozeMinutes,
  };
};

/** Level 1 alarms always latch: a resident who stopped breathing for 45 s is never a card that vanished unseen. */
const level1 = (p: LevelPresentation): LevelPresentation => ({ ...p, latch: true });

const fromRow = (row: typeof alarmSettings.$inferSelect): ProviderAlarmSettings => ({
  levels: row.levels as ProviderAlarmSettings['levels'],
  level1: level1(presentation(row.level1, DEFAULT_PROVIDER_SETTINGS.level1)),
  level2: presentation(row.level2, DEFAULT_PROVIDER_SETTINGS.level2),
});

/** /system/queryAlertLevel and /system/saveAlertLevel: a provider's alarm levels, popups and voice ways. */
export class AlarmSettingsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly transactions: Transactions,
    private readonly audit: AuditService,
  ) {}

  /** Every provider's stored settings (the engine's and the consoles' view). */
  async all(): Promise<Map<number, ProviderAlarmSettings>> {
    const rows = await this.db.select().from(alarmSettings);
    return new Map(rows.map((r) => [r.providerId, fromRow(r)]));
  }

  async of(providerId: number, db: Executor = this.db): Promise<ProviderAlarmSettings> {
    const [row] = await db.select().from(alarmSettings).where(eq(alarmSettings.providerId, providerId));
    return row ? fromRow(row) : DEFAULT_PROVIDER_SETTINGS;
  }

  /** The login answer's voiceFlag for the provider a session works in. */
  async voiceFlag(providerId: number | null): Promise<boolean> {
    return voiceFlagOf(providerId === null ? DEFAULT_PROVIDER_SETTINGS : await this.of(providerId));
  }

  async query(caller: Caller, providerId?: number): Promise<AlertLevelSettings> {
    const id = targetProvider(caller, providerId);
    return this.present(id, await this.of(id));
  }

  async save(caller: Caller, input: SaveInput, ip: string): Promise<AlertLevelSettings> {
    const providerId = targetProvider(caller, input.providerId);
    const saved = await this.transactions.run(async (tx, emit) => {
      const current = await this.of(providerId, tx);
      const next: ProviderAlarmSettings = {
        levels: { ...current.levels, ...input.levelMap },
        level1: level1({ ...current.level1, ...input.alertTypeL1 }),
        level2: { ...current.level2, ...input.alertTypeL2 },
      };
      const values = { ...next, updatedAt: this.clock.now(), updatedBy: caller.accountId };
      await tx
        .insert(alarmSettings)
        .values({ providerId, ...values })
        .onConflictDoUpdate({ target: alarmSettings.providerId, set: values });
      await this.audit.by(
        { kind: 'account', caller, ip },
        'alarm.settings',
        { type: 'provider', id: providerId, providerId, detail: { ...input } },
        tx,
      );
      emit({ type: ALARM_SETTINGS_CHANGED, providerId, payload: { providerId } });
      return next;
    });
    return this.present(providerId, saved);
  }

  private present(providerId: number, settings: ProviderAlarmSettings): AlertLevelSettings {
    return {
      providerId,
      alertTypeL1: settings.level1,
      alertTypeL2: settings.level2,
      levelMap: resolveLevels(settings, undefined),
      voiceFlag: voiceFlagOf(settings),
    };
  }
}
