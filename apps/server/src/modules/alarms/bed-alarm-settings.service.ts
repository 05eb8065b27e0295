import {
  BedAlarmRulesSchema,
  BedReceiversSchema,
  defaultAlarmRules,
  type BedAlarmRules,
  type BedReceivers,
} from '@vigil/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { Clock } from '../../clock.ts';
import { notFound } from '../../core/app-error.ts';
import { canSeeProvider, type Caller } from '../../core/caller.ts';
import type { Db, Executor } from '../../db/database.ts';
import { alias } from 'drizzle-orm/pg-core';
import { areas, beds, caregivers, communities, residentAlarmSettings, residents, rooms } from '../../db/schema.ts';
import { assertReceivers } from '../caregivers/caregiver.policy.ts';
import { storedAlarmSettings } from '../communities/community.policy.ts';
import type { Transactions } from '../../db/transactions.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { ALARM_SETTINGS_CHANGED } from '../../core/event-catalogue.ts';

const floor = alias(areas, 'floor');
const topArea = alias(areas, 'top_area');

/** The rules a bed has without any of its own (the engine's defaults, levels aside). */
export const defaultBedRules = (): BedAlarmRules => {
  const { levels: _levels, latch: _latch, snoozeMinutes: _snooze, ...rules } = defaultAlarmRules();
  return { ...rules, off: [...rules.off] } as BedAlarmRules;
};

/** A stored rule set, or null when none (or an unreadable one) is stored. */
export const storedBedRules = (raw: unknown): BedAlarmRules | null => {
  const parsed = BedAlarmRulesSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
};

/** Stored receivers, or null when none (or an unreadable set) are stored. */
export const storedBedReceivers = (raw: unknown): BedReceivers | null => {
  const parsed = BedReceiversSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
};

/**
 * Who is told of a resident's alarms beyond the console: the bed's own receivers, else the
 * community's; only enabled caregivers of the alarm's provider. Null: nobody is told.
 */
export const receiversOfResident = async (
  db: Executor,
  residentId: number,
): Promise<{ caregivers: (typeof caregivers.$inferSelect)[]; notify: readonly string[] } | null> => {
  const [row] = await db
    .select({
      providerId: residents.providerId,
      own: residentAlarmSettings.receivers,
      community: communities.alarmConfig,
    })
    .from(residents)
    .leftJoin(residentAlarmSettings, eq(residentAlarmSettings.residentId, residents.id))
    .leftJoin(communities, eq(communities.id, residents.communityId))
    .where(eq(residents.id, residentId));
  if (!row) return null;
  const chosen = storedBedReceivers(row.own) ?? storedAlarmSettings(row.community);
  if (!chosen) return null;
  const found = chosen.receiverIds.length
    ? await db
        .select()
        .from(caregivers)
        .where(
          and(
            inArray(caregivers.id, chosen.receiverIds),
            eq(caregivers.enabled, true),
            eq(caregivers.providerId, row.providerId),
          ),
        )
    : [];
  return { caregivers: found, notify: chosen.notify };
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
    const providerId = await this.visibleResident(caller, residentId);
    const [row] = await this.db
      .select({
        setting: residentAlarmSettings,
        community: communities.alarmConfig,
        userName: residents.name,
        bedId: beds.id,
        bedName: beds.name,
        roomName: rooms.name,
        floorName: floor.name,
        areaName: topArea.name,
      })
      .from(residents)
      .leftJoin(residentAlarmSettings, eq(residentAlarmSettings.residentId, residents.id))
      .leftJoin(communities, eq(communities.id, residents.communityId))
      // Where the resident lies now (read-only joins of the facility tables), for the screen's header.
      .leftJoin(beds, eq(beds.residentId, residents.id))
      .leftJoin(rooms, eq(rooms.id, beds.roomId))
      .leftJoin(floor, eq(floor.id, rooms.floorId))
      .leftJoin(topArea, eq(topArea.id, floor.parentId))
      .where(eq(residents.id, residentId));
    if (!row) throw notFound();
    const stored = row.setting ? storedBedRules(row.setting.rules) : null;
    const own = row.setting ? storedBedReceivers(row.setting.receivers) : null;
    const community = storedAlarmSettings(row.community);
    // Deleted, disabled or moved caregivers drop out of what is shown.
    const live = await this.liveCaregivers(
      [...(own?.receiverIds ?? []), ...(community?.receiverIds ?? [])],
      providerId,
    );
    const shown = (r: BedReceivers | null) =>
      r && { receiverIds: r.receiverIds.filter((id) => live.has(id)), notify: [...r.notify] };
    return {
      userId: residentId,
      userName: row.userName,
      bedId: row.bedId,
      bunk: row.bedName,
      room: row.roomName,
      floorArea: [row.areaName, row.floorName].filter((p): p is string => !!p).join(' / ') || null,
      providerId,
      rules: stored ?? defaultBedRules(),
      custom: stored !== null,
      receivers: shown(own),
      communityReceivers: shown(community && { receiverIds: community.receiverIds, notify: community.notify }),
      receiverNames: [...live].map(([id, name]) => ({ id, name })),
      updateTime: row.setting && (stored || own) ? row.setting.updatedAt.toISOString() : null,
    };
  }

  /** Saves what is given: the rules (null: the defaults), the receivers (null: the community's); omitted: unchanged. */
  async save(
    caller: Caller,
    residentId: number,
    rules: BedAlarmRules | null | undefined,
    receivers: BedReceivers | null | undefined,
    ip: string,
  ): Promise<null> {
    const providerId = await this.visibleResident(caller, residentId);
    const own = receivers && {
      receiverIds: [...new Set(receivers.receiverIds)],
      notify: [...new Set(receivers.notify)],
    };
    await this.transactions.run(async (tx, emit) => {
      if (own) await this.checkReceivers(tx, caller, providerId, own.receiverIds);
      const [current] = await tx
        .select({ rules: residentAlarmSettings.rules, receivers: residentAlarmSettings.receivers })
        .from(residentAlarmSettings)
        .where(eq(residentAlarmSettings.residentId, residentId));
      const keptRules = rules === undefined ? (current?.rules ?? null) : rules;
      const keptReceivers = own === undefined ? (current?.receivers ?? null) : own;
      if (keptRules === null && keptReceivers === null)
        await tx.delete(residentAlarmSettings).where(eq(residentAlarmSettings.residentId, residentId));
      else {
        const values = {
          providerId,
          rules: keptRules,
          receivers: keptReceivers,
          updatedAt: this.clock.now(),
          updatedBy: caller.accountId,
        };
        await tx
          .insert(residentAlarmSettings)
          .values({ residentId, ...values })
          .onConflictDoUpdate({ target: residentAlarmSettings.residentId, set: values });
      }
      await this.audit.by(
        { kind: 'account', caller, ip },
        'alarm.bedSettings',
        {
          type: 'resident',
          id: residentId,
          providerId,
          detail: {
            rules: rules === undefined ? 'unchanged' : rules === null ? 'defaults' : 'own',
            receivers: own === undefined ? 'unchanged' : own === null ? 'community' : 'own',
          },
        },
        tx,
      );
      emit({ type: ALARM_SETTINGS_CHANGED, providerId, payload: { providerId, residentId } });
    });
    return null;
  }

  /** Receivers must be enabled caregivers of the resident's provider, as for a community. */
  private async checkReceivers(db: Executor, caller: Caller, providerId: number, ids: readonly number[]) {
    if (!ids.length) return;
    const found = await db
      .select()
      .from(caregivers)
      .where(inArray(caregivers.id, [...ids]));
    assertReceivers(ids, found, caller.scope, providerId, 'alarm.receiverProvider');
  }

  /** The enabled caregivers of the provider among these, with their names (id → name), by name. */
  private async liveCaregivers(ids: readonly number[], providerId: number): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await this.db
      .select({ id: caregivers.id, name: caregivers.name })
      .from(caregivers)
      .where(
        and(
          inArray(caregivers.id, [...new Set(ids)]),
          eq(caregivers.providerId, providerId),
          eq(caregivers.enabled, true),
        ),
      );
    return new Map(rows.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id).map((r) => [r.id, r.name]));
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
