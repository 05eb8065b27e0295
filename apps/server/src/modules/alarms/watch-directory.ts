import {
  defaultAlarmRules,
  type AlarmLevel,
  type AlarmRules,
  type AlarmType,
  type BedAlarmRules,
  type TimeRange,
  type VoiceWay,
} from '@vigil/contract';
import { gt, isNotNull, isNull, or } from 'drizzle-orm';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { communities, residentAbsences, residents } from '../../db/schema.ts';
import { storedAlarmSettings } from '../communities/community.policy.ts';
import { storedSleepSetting } from '../sleep-settings/sleep-setting.policy.ts';
import type { SleepSettingService } from '../sleep-settings/sleep-setting.service.ts';
import { kindOf } from '../devices/device.policy.ts';
import type { DeviceContext } from '../gateway/index.ts';
import type { Subject } from './engine/engine-types.ts';
import {
  DEFAULT_PROVIDER_SETTINGS,
  presentationOf,
  resolveLevels,
  type ProviderAlarmSettings,
} from './alarm-settings.ts';

interface Absence {
  startsAt: Date;
  endsAt: Date | null;
}

/**
 * How a resident's sleep settings narrow the bed-leaving watch: not at all (all day, or nothing
 * saved: no entry), never, or only in their sleep window (sleep to wake time, platform time zone).
 */
export type LeaveBedWatch = { mode: 'off' } | { mode: 'sleepTime'; window: TimeRange };

/**
 * A rule set with a resident's bed-leaving watch applied (decision 0027): `off` switches LEAVE_BED
 * off; `sleepTime` makes the sleep window its time range, in place of the bed rules' range.
 */
export const withLeaveBedWatch = (rules: AlarmRules, watch: LeaveBedWatch | undefined): AlarmRules => {
  if (!watch) return rules;
  if (watch.mode === 'off') {
    return rules.off.includes('LEAVE_BED') ? rules : { ...rules, off: [...rules.off, 'LEAVE_BED'] };
  }
  return { ...rules, ranges: { ...rules.ranges, LEAVE_BED: watch.window } };
};

/**
 * What the engine needs to know about a device besides the device itself: whether its bed's
 * resident is away, the rules of the resident's community, and the resident's own bed rules and
 * bed-leaving watch (sleep settings). Held in memory and reloaded in full (a few small queries)
 * every `reloadMs` and after a change the alarm module hears of, so the engine's hot path never
 * queries.
 */
export class WatchDirectory {
  private communityOf = new Map<number, number>();
  private communityLevels = new Map<number, Partial<Record<AlarmType, AlarmLevel>>>();
  private providerSettings = new Map<number, ProviderAlarmSettings>();
  private residentRules = new Map<number, BedAlarmRules>();
  private leaveBedWatches = new Map<number, LeaveBedWatch>();
  /** Rules by provider and community, built once per load. */
  private rules = new Map<string, AlarmRules>();
  private absences = new Map<number, Absence[]>();
  /** Loads and announced absence changes are numbered: a load never undoes a change announced after it began. */
  private reads = 0;
  private readonly absencesSetBy = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: () => Promise<Map<number, ProviderAlarmSettings>>,
    private readonly bedRules: () => Promise<Map<number, BedAlarmRules>>,
    /** Residents' sleep settings: a bed-leaving watch narrowed to the night is one of them. */
    private readonly sleepSettings: Pick<SleepSettingService, 'narrowedLeaveBedWatches'>,
    private readonly reloadMs = 30_000,
  ) {}

  async load(): Promise<void> {
    const read = ++this.reads;
    const now = this.clock.now();
    const [residentRows, communityRows, absenceRows, providerSettings, residentRules, sleepRows] = await Promise.all([
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
      this.settings(),
      this.bedRules(),
      this.sleepSettings.narrowedLeaveBedWatches(),
    ]);
    this.communityOf = new Map(residentRows.flatMap((r) => (r.communityId ? [[r.id, r.communityId]] : [])));
    this.communityLevels = new Map(communityRows.map((c) => [c.id, storedAlarmSettings(c.alarmConfig)?.levels ?? {}]));
    this.providerSettings = providerSettings;
    this.residentRules = residentRules;
    this.leaveBedWatches = new Map(
      sleepRows.flatMap((row): [number, LeaveBedWatch][] => {
        // An unreadable row counts as nothing saved, as the calls show it: watched all day.
        const saved = storedSleepSetting(row);
        if (!saved || saved.leaveBedMode === 'allDay') return [];
        return [
          [
            row.residentId,
            saved.leaveBedMode === 'off'
              ? { mode: 'off' }
              : { mode: 'sleepTime', window: { start: saved.sleepTime, end: saved.wakeTime } },
          ],
        ];
      }),
    );
    this.rules = new Map();
    const absences = new Map<number, Absence[]>();
    for (const a of absenceRows) absences.set(a.residentId, [...(absences.get(a.residentId) ?? []), a]);
    for (const [residentId, setBy] of this.absencesSetBy) {
      if (setBy <= read) {
        this.absencesSetBy.delete(residentId);
        continue;
      }
      const announced = this.absences.get(residentId);
      if (announced) absences.set(residentId, announced);
      else absences.delete(residentId);
    }
    this.absences = absences;
  }

  /** A resident's absences as a committed change announced them (here or on another instance). */
  setAbsences(residentId: number, absences: readonly Absence[]): void {
    this.absencesSetBy.set(residentId, ++this.reads);
    if (absences.length) this.absences.set(residentId, [...absences]);
    else this.absences.delete(residentId);
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

  /**
   * The rules of a device of a provider watching a resident: levels from the community, else the
   * provider; the resident's own bed rules, then their bed-leaving watch over them.
   */
  rulesOf(providerId: number | null, residentId: number | null): AlarmRules {
    const community = residentId === null ? undefined : this.communityOf.get(residentId);
    const own = residentId === null ? undefined : this.residentRules.get(residentId);
    const watch = residentId === null ? undefined : this.leaveBedWatches.get(residentId);
    // A resident with rules or a narrowed watch of their own has a rule set of their own; the others share theirs.
    const key = own || watch ? `r${residentId}` : `${providerId}:${community}`;
    let rules = this.rules.get(key);
    if (!rules) {
      const provider = providerId === null ? undefined : this.providerSettings.get(providerId);
      const levels = resolveLevels(provider, community === undefined ? undefined : this.communityLevels.get(community));
      const settings = provider ?? DEFAULT_PROVIDER_SETTINGS;
      rules = withLeaveBedWatch(
        {
          ...defaultAlarmRules(),
          ...own,
          levels,
          latch: { 1: settings.level1.latch, 2: settings.level2.latch },
          snoozeMinutes: { 1: settings.level1.snoozeMinutes, 2: settings.level2.snoozeMinutes },
        },
        watch,
      );
      this.rules.set(key, rules);
    }
    return rules;
  }

  /** How a provider's consoles sound an alarm of a level. */
  voiceWayOf(providerId: number | null, level: AlarmLevel): VoiceWay {
    const settings = (providerId !== null && this.providerSettings.get(providerId)) || DEFAULT_PROVIDER_SETTINGS;
    return presentationOf(settings, level).globalVoiceWay;
  }

  /** The engine's view of a device at `at`. */
  subject(context: DeviceContext, at: Date): Subject {
    const { residentId } = context;
    return {
      deviceId: context.deviceId,
      kind: kindOf(context.typeCode),
      typeCode: context.typeCode,
      deviceRowId: context.deviceRowId,
      providerId: context.providerId,
      bedId: context.bedId,
      residentId,
      roomId: context.roomId,
      areaId: context.areaId,
      caregiverId: context.caregiverId,
      occupied: residentId !== null,
      absent: residentId !== null && this.absent(residentId, at),
      rules: this.rulesOf(context.providerId, residentId),
    };
  }
}
