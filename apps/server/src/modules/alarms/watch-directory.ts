import { defaultAlarmRules, type AlarmRules, type CommunityAlarmConfig } from '@vigil/contract';
import { gt, isNotNull, isNull, or } from 'drizzle-orm';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { communities, residentAbsences, residents } from '../../db/schema.ts';
import { storedAlarmConfig } from '../communities/community.policy.ts';
import { kindOf } from '../devices/device.policy.ts';
import type { DeviceContext } from '../devices/ingest/device-directory.ts';
import type { Subject } from './engine/engine-types.ts';

/** The rules of a community's beds: the defaults, with the community's levels over them. */
export const rulesOfCommunity = (config: CommunityAlarmConfig | null): AlarmRules => {
  const rules = defaultAlarmRules();
  if (!config) return rules;
  // Stored lists: a type in level1 is red; any other (in level2 or in neither) is orange.
  for (const type of Object.keys(rules.levels) as (keyof AlarmRules['levels'])[])
    rules.levels[type] = config.level1.includes(type) ? 1 : 2;
  return rules;
};

interface Absence {
  startsAt: Date;
  endsAt: Date | null;
}

/**
 * What the engine needs to know about a device besides the device itself: whether its bed's
 * resident is away, and the rules of the resident's community. Held in memory and reloaded in
 * full (three small queries) every `reloadMs` and after a change the alarm module hears of,
 * so the engine's hot path never queries.
 */
export class WatchDirectory {
  private communityOf = new Map<number, number>();
  private rulesByCommunity = new Map<number, AlarmRules>();
  private absences = new Map<number, Absence[]>();
  private readonly defaults = defaultAlarmRules();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly reloadMs = 30_000,
  ) {}

  async load(): Promise<void> {
    const now = this.clock.now();
    const [residentRows, communityRows, absenceRows] = await Promise.all([
      this.db
        .select({ id: residents.id, communityId: residents.communityId })
        .from(residents)
        .where(isNotNull(residents.communityId)),
      this.db.select({ id: communities.id, alarmConfig: communities.alarmConfig }).from(communities),
      this.db
        .select({
          residentId: residentAbsences.residentId,
          startsAt: residentAbsences.startsAt,
          endsAt: residentAbsences.endsAt,
        })
        .from(residentAbsences)
        .where(or(isNull(residentAbsences.endsAt), gt(residentAbsences.endsAt, now))),
    ]);
    this.communityOf = new Map(residentRows.flatMap((r) => (r.communityId ? [[r.id, r.communityId]] : [])));
    this.rulesByCommunity = new Map(
      communityRows.map((c) => [c.id, rulesOfCommunity(storedAlarmConfig(c.alarmConfig))]),
    );
    const absences = new Map<number, Absence[]>();
    for (const a of absenceRows) absences.set(a.residentId, [...(absences.get(a.residentId) ?? []), a]);
    this.absences = absences;
  }

  start(onError: (error: unknown) => void): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.load().catch(onError), this.reloadMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Whether a resident is on a temporary absence at `at`. */
  absent(residentId: number, at: Date): boolean {
    return (this.absences.get(residentId) ?? []).some((a) => a.startsAt <= at && (!a.endsAt || a.endsAt > at));
  }

  rulesOf(residentId: number | null): AlarmRules {
    const community = residentId === null ? undefined : this.communityOf.get(residentId);
    return (community !== undefined && this.rulesByCommunity.get(community)) || this.defaults;
  }

  /** The engine's view of a device at `at`. */
  subject(context: DeviceContext, at: Date): Subject {
    const { residentId } = context;
    return {
      deviceId: context.deviceId,
      kind: kindOf(context.typeCode),
      providerId: context.providerId,
      bedId: context.bedId,
      residentId,
      occupied: residentId !== null,
      absent: residentId !== null && this.absent(residentId, at),
      rules: this.rulesOf(residentId),
    };
  }
}
