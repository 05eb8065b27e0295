import {
  ALARM_SOURCE,
  ALARM_TYPES,
  inTimeRange,
  RELEASE_KIND,
  SLEEP_ALARM_TYPES,
  type AlarmMeasure,
  type AlarmType,
  type ReleaseKind,
} from '@vigil/contract';
import type {
  AlarmKey,
  Decision,
  EngineEvent,
  EventDecision,
  MinuteOfDay,
  SpellClaim,
  Subject,
  VitalsSample,
} from './engine-types.ts';
import { CLAIM_LEASE_MS, type MergedSample, type SharedSpell, type SpellVerdict } from './shared-spell.ts';
import {
  durationOf,
  measureOf,
  newTrackers,
  valueOf,
  verdictOf,
  watched,
  type SleepTrackers,
  type Tracker,
} from './sleep-watch.ts';
import { WATCH_CLOCK_SKEW_MS, watchTarget } from './watch-release.ts';

/** Vitals further apart than this break a spell: a duration is never counted across a silence. */
export const VITALS_GAP_MS = 30_000;

/** The security sensors whose events carry `active`, and the alarm each raises. */
const HAZARDS: Readonly<Record<string, AlarmType>> = { smoke: 'SMOKE', gas: 'GAS', co: 'CO', flood: 'FLOOD' };
/** Events that raise an alarm by themselves. */
const RAISING: Readonly<Record<string, AlarmType>> = {
  fall: 'FALL',
  fall_suspected: 'FALL_SUSPECTED',
  sitting_up_suspected: 'SITTING_UP',
  sos: 'SOS',
  badge_sos: 'BADGE_SOS',
  low_battery: 'LOW_BATTERY',
};
/** What the radar's own "fall cancelled" releases. */
const FALL_TYPES: readonly AlarmType[] = ['FALL', 'FALL_SUSPECTED', 'SITTING_UP'];

/** Alarms of a condition that holds for a while: raised once per spell, never counted again. */
const CONDITIONS: ReadonlySet<AlarmType> = new Set<AlarmType>([
  ...SLEEP_ALARM_TYPES,
  'NO_MOTION',
  'CONNECTION',
  'LOW_BATTERY',
  'MAT_DISLODGED',
]);

/** What a device's or a watch's release button clears: everything but a device's own faults. */
const RELEASED_BY_BUTTON: readonly AlarmType[] = ALARM_TYPES.filter((t) => ALARM_SOURCE[t] !== 'device');

interface DeviceState {
  subject: Subject;
  open: Set<AlarmType>;
  sleep?: SleepTrackers;
  lastVitalsAt?: Date;
  /** Duration clocks carried over a restart: nothing is raised on them until a sample confirms them. */
  resumed?: boolean;
  /** Infrared sensors: the last motion (or when the sensor was first watched). */
  lastMotionAt?: Date;
  /** Condition alarms handled while their condition held: not raised again before these times. */
  snoozed?: Map<AlarmType, Date>;
}

/**
 * The alarm state machine: fed with a device's events, vitals, online state and battery, and
 * with the time, it decides which alarms are raised and released. No I/O and no clock of its
 * own: every input carries its time, and `minuteOfDay` places an instant in the beds' day. The
 * caller stores each decision (raise or repeat, release) before telling anyone.
 *
 * It knows which alarms are open so a condition that holds raises once per spell, and a repeat
 * of an event alarm (a second SOS press) is a raise the store turns into a repeat of the open
 * alarm. `restore` rebuilds that knowledge after a restart from the stored open alarms.
 */
export class AlarmEngine {
  private readonly devices = new Map<string, DeviceState>();

  constructor(private readonly minuteOfDay: MinuteOfDay) {}

  /** The alarm types the engine holds open for a device. */
  openTypes(deviceId: string): ReadonlySet<AlarmType> {
    return this.devices.get(deviceId)?.open ?? new Set();
  }

  /**
   * After a restart: these alarms are open (stored), since the given times. A sleep-monitor
   * alarm's spell goes on from its start, so it is released when the condition clears and not
   * raised a second time while it holds.
   */
  restore(open: readonly { key: AlarmKey; subject: Subject; since: Date }[]): void {
    for (const alarm of open) {
      const state = this.stateOf(alarm.subject);
      state.open.add(alarm.key.type);
      const tracker = this.sleepTracker(state, alarm.key.type);
      if (tracker) {
        tracker.since = alarm.since;
        tracker.raised = true;
      }
    }
  }

  /** An infrared sensor watched from `at` (its last stored motion, or now): the empty-room clock starts there. */
  watchMotion(subject: Subject, at: Date): void {
    const state = this.stateOf(subject);
    if (!state.lastMotionAt || state.lastMotionAt < at) state.lastMotionAt = at;
  }

  /**
   * A device moved (its provider, bed or resident changed, or its resident is away or back):
   * what the engine decides for it from now on, the passing of time's included, is for `subject`.
   */
  moved(subject: Subject): void {
    const state = this.devices.get(subject.deviceId);
    if (state) state.subject = subject;
  }

  /**
   * An alarm closed outside the engine (handled by a caregiver, or released by another
   * instance), whose raise could not be stored, or left behind at a provider its device no longer
   * serves. A sleep-monitor alarm closed elsewhere is not raised again while its condition holds
   * here: that spell is done. One never stored, or left behind, is decided afresh.
   */
  closed(key: AlarmKey, how: 'handled' | 'released elsewhere' | 'not stored' | 'left behind', at?: Date): void {
    const state = this.devices.get(key.deviceId);
    if (!state) return;
    state.open.delete(key.type);
    // Handled while its condition may still hold: muted for the level's snooze, then raised again if it holds.
    if (how === 'handled' && at && CONDITIONS.has(key.type)) {
      const { rules } = state.subject;
      const minutes = rules.snoozeMinutes[rules.levels[key.type]];
      (state.snoozed ??= new Map()).set(key.type, new Date(at.getTime() + minutes * 60_000));
    }
    const tracker = this.sleepTracker(state, key.type);
    if (!tracker) return;
    if (how === 'not stored' || how === 'left behind') tracker.raised = false;
    else if (tracker.since) tracker.raised = true;
  }

  /**
   * Duration clocks of sleep-monitor conditions that had held for a while without an alarm:
   * device → type → since (ms), of devices heard from within the gap. What a restart resumes.
   */
  spells(now: Date, minHeldMs: number): Map<string, Record<string, number>> {
    const out = new Map<string, Record<string, number>>();
    for (const [deviceId, state] of this.devices) {
      if (!state.sleep || !state.lastVitalsAt) continue;
      if (now.getTime() - state.lastVitalsAt.getTime() > VITALS_GAP_MS) continue;
      let spells: Record<string, number> | undefined;
      for (const type of SLEEP_ALARM_TYPES) {
        const tracker = state.sleep[type];
        if (!tracker.since || tracker.raised || now.getTime() - tracker.since.getTime() < minHeldMs) continue;
        (spells ??= {})[type] = tracker.since.getTime();
      }
      if (spells) out.set(deviceId, spells);
    }
    return out;
  }

  /**
   * After a restart: these conditions had held since the given times when last written. The
   * clocks go on from there once the device's next sample (within the gap) still shows them;
   * a sample that does not, or a longer silence, starts them over.
   */
  resume(subject: Subject, spells: Readonly<Record<string, number>>, now: Date): void {
    const state = this.stateOf(subject);
    const trackers = (state.sleep ??= newTrackers());
    for (const type of SLEEP_ALARM_TYPES) {
      const since = spells[type];
      if (since === undefined || trackers[type].raised || trackers[type].since) continue;
      trackers[type].since = new Date(since);
    }
    state.lastVitalsAt ??= now;
    state.resumed = true;
  }

  /**
   * Takes back decisions whose transaction rolled back, so they are decided again when their
   * input comes again (a retried batch) instead of being taken as done.
   */
  undo(decisions: readonly EventDecision[]): void {
    for (const d of [...decisions].reverse()) {
      // A watch's named release never changed what the engine holds.
      if (d.op === 'watch-release') continue;
      const state = this.devices.get(d.key.deviceId);
      if (!state) continue;
      if (d.op === 'raise') {
        state.open.delete(d.key.type);
        const tracker = this.sleepTracker(state, d.key.type);
        if (tracker) tracker.raised = false;
      } else state.open.add(d.key.type);
    }
  }

  event(subject: Subject, event: EngineEvent, now: Date): EventDecision[] {
    const name = event.name;
    const target = name === 'watch_release' ? watchTarget(event.detail) : undefined;
    if (target) {
      // A caregiver released at her watch the alarm of a resident's device it names: within the watch's provider.
      const startedBy = new Date(event.at.getTime() + WATCH_CLOCK_SKEW_MS);
      return [{ op: 'watch-release', watch: subject, target, startedBy, types: RELEASED_BY_BUTTON, at: now }];
    }
    const state = this.stateOf(subject);
    const out: Decision[] = [];
    const raising = RAISING[name];
    if (raising) {
      this.raise(state, raising, event.at, now, {}, null, out);
      return out;
    }
    const hazard = HAZARDS[name];
    if (hazard) {
      if (event.detail.active === true) this.raise(state, hazard, event.at, now, {}, null, out);
      else this.release(state, hazard, now, RELEASE_KIND.automatic, out, true);
      return out;
    }
    switch (name) {
      case 'fall_cancelled':
        // The radar decided the fall was not one (the resident got up): cleared by itself, not by a person.
        for (const type of FALL_TYPES) this.release(state, type, now, RELEASE_KIND.device, out, true, true);
        break;
      case 'device_release':
      case 'watch_release': {
        const kind = name === 'device_release' ? RELEASE_KIND.device : RELEASE_KIND.watch;
        // The button releases what the resident or the caregiver can clear, not the device's own faults. A watch
        // release naming nothing (as the first watches send it) is such a button: it releases the watch's own.
        for (const type of RELEASED_BY_BUTTON) this.release(state, type, now, kind, out, true);
        break;
      }
      case 'door':
        if (event.detail.open === true && inTimeRange(subject.rules.doorRange, this.minuteOfDay(event.at)))
          this.raise(state, 'DOOR', event.at, now, {}, null, out);
        break;
      case 'motion':
        if (!state.lastMotionAt || event.at > state.lastMotionAt) state.lastMotionAt = event.at;
        // Not forced: motion is frequent, and a restart restores the open empty-room alarms.
        this.release(state, 'NO_MOTION', now, RELEASE_KIND.automatic, out);
        break;
      case 'mat':
        this.mat(state, event.detail.state === 'dislodged', event.at, now, out);
        break;
      case 'offline':
        this.raise(state, 'CONNECTION', event.at, now, { reason: String(event.detail.reason ?? '') }, null, out);
        break;
      case 'online':
        this.release(state, 'CONNECTION', now, RELEASE_KIND.automatic, out, true);
        break;
    }
    return out;
  }

  /** One vitals sample of a sleep monitor, received at `at`. */
  vitals(subject: Subject, sample: VitalsSample, at: Date): Decision[] {
    const state = this.stateOf(subject);
    const out: Decision[] = [];
    if (sample.mat) this.mat(state, sample.mat === 'dislodged', at, at, out);
    const trackers = (state.sleep ??= newTrackers());
    const gap = !state.lastVitalsAt || at.getTime() - state.lastVitalsAt.getTime() > VITALS_GAP_MS;
    state.lastVitalsAt = at;
    state.resumed = false;
    const minute = this.minuteOfDay(at);
    for (const type of SLEEP_ALARM_TYPES) {
      const tracker = trackers[type];
      const verdict = verdictOf(type, sample, subject, minute);
      if (verdict === 'clear') {
        if (tracker.raised) this.release(state, type, at, RELEASE_KIND.automatic, out);
        tracker.since = null;
        tracker.raised = false;
        continue;
      }
      tracker.value = valueOf(type, sample);
      if (verdict === 'pause') {
        // Out of its time range, checked out or away: nothing is counted; an open alarm stays until it clears.
        if (!tracker.raised) tracker.since = null;
        continue;
      }
      if (!tracker.since || (gap && !tracker.raised)) tracker.since = at;
      this.afterSnooze(state, type, at);
      this.due(state, type, at, out);
    }
    return out;
  }

  /** How one sample stands for each sleep-monitor alarm, in SLEEP_ALARM_TYPES order: what shared spells merge. */
  sleepVerdicts(subject: Subject, sample: VitalsSample, at: Date): SpellVerdict[] {
    const minute = this.minuteOfDay(at);
    return SLEEP_ALARM_TYPES.map((type) => verdictOf(type, sample, subject, minute));
  }

  /**
   * One vitals sample when several instances share the device's samples (decision 0039):
   * `merged` is every type's spell after this sample, merged with the others' samples in the
   * device's order by the shared ledger. The engine takes each spell as it is there (its start,
   * and whether it was raised), then releases and raises on it as `vitals` does on its own; a
   * raise carries its claim, which the ledger grants to one instance.
   */
  sharedVitals(
    subject: Subject,
    sample: VitalsSample,
    at: Date,
    verdicts: readonly SpellVerdict[],
    merged: MergedSample,
    leaseMs = CLAIM_LEASE_MS,
  ): Decision[] {
    const state = this.stateOf(subject);
    const out: Decision[] = [];
    if (sample.mat) this.mat(state, sample.mat === 'dislodged', at, at, out);
    const trackers = (state.sleep ??= newTrackers());
    // Heard from by any instance: the gap that ends a spell is the device's silence, not this instance's.
    const lastAt = merged.lastAt > at.getTime() ? new Date(merged.lastAt) : at;
    if (!state.lastVitalsAt || state.lastVitalsAt < lastAt) state.lastVitalsAt = lastAt;
    state.resumed = false;
    for (let i = 0; i < SLEEP_ALARM_TYPES.length; i++) {
      const type = SLEEP_ALARM_TYPES[i] as (typeof SLEEP_ALARM_TYPES)[number];
      const spell = merged.spells[i];
      if (!spell) continue;
      adoptSpell(trackers[type], spell, at.getTime(), leaseMs);
      const verdict = verdicts[i];
      if (verdict === 'clear') {
        // Ended a raised spell: released here, told to this instance alone. Or its alarm is open
        // here (raised here or heard of) and the instance told may have died before storing it.
        if (spell.released || (!spell.stale && state.open.has(type)))
          this.release(state, type, at, RELEASE_KIND.automatic, out, spell.released);
      } else if (verdict === 'hold' && !spell.stale) {
        trackers[type].value = valueOf(type, sample);
        this.afterSnooze(state, type, at);
        this.due(state, type, at, out);
      }
    }
    return out;
  }

  /**
   * The shared ledger's answer to a raise's claim: granted, the raise is this instance's to
   * store; refused (another instance raised it, or the spell ended meanwhile), the engine takes
   * the spell as it is there and holds the alarm open only if it was raised.
   */
  claimAnswered(key: AlarmKey, spell: SharedSpell, granted: boolean, now: Date, leaseMs = CLAIM_LEASE_MS): void {
    const state = this.devices.get(key.deviceId);
    const tracker = state && this.sleepTracker(state, key.type);
    if (!state || !tracker) return;
    if (granted) {
      tracker.spell = spell.n;
      tracker.gen = spell.gen;
      return;
    }
    adoptSpell(tracker, spell, now.getTime(), leaseMs);
    if (!tracker.raised) state.open.delete(key.type);
  }

  /** A battery level reported in the device's status. */
  battery(subject: Subject, percent: number, now: Date): Decision[] {
    const state = this.stateOf(subject);
    const out: Decision[] = [];
    const low = subject.rules.lowBatteryPercent;
    if (percent <= low && !state.open.has('LOW_BATTERY')) {
      const measure = { quantity: 'battery', value: percent, limit: low, side: 'below', seconds: null } as const;
      this.raise(state, 'LOW_BATTERY', now, now, { percent }, measure, out);
    } else if (percent >= low * 2) this.release(state, 'LOW_BATTERY', now, RELEASE_KIND.automatic, out);
    return out;
  }

  /** The passing of time: durations that ran out without a new sample, rooms empty too long. */
  tick(now: Date): Decision[] {
    const out: Decision[] = [];
    for (const state of this.devices.values()) {
      const { subject } = state;
      const { sleep } = state;
      if (
        sleep &&
        subject.occupied &&
        !state.resumed &&
        state.lastVitalsAt &&
        now.getTime() - state.lastVitalsAt.getTime() <= VITALS_GAP_MS
      ) {
        // Every second for every bed: the cheap checks first, the time range (parsed) last.
        let minute: number | undefined;
        for (const type of SLEEP_ALARM_TYPES) {
          const tracker = sleep[type];
          this.afterSnooze(state, type, now);
          if (!tracker.since || tracker.raised) continue;
          minute ??= this.minuteOfDay(now);
          if (watched(type, subject.rules, minute)) this.due(state, type, now, out);
        }
      }
      if (subject.kind === 'infrared_motion' && state.lastMotionAt && !state.open.has('NO_MOTION')) {
        const quiet = now.getTime() - state.lastMotionAt.getTime();
        if (quiet >= subject.rules.noMotionHours * 3_600_000) {
          const measure = { quantity: null, value: null, limit: null, side: null, seconds: Math.round(quiet / 1000) };
          this.raise(state, 'NO_MOTION', state.lastMotionAt, now, { hours: subject.rules.noMotionHours }, measure, out);
        }
      }
    }
    return out;
  }

  /** Raises a sleep-monitor alarm whose condition has held for its duration. */
  private due(state: DeviceState, type: (typeof SLEEP_ALARM_TYPES)[number], now: Date, out: Decision[]): void {
    const tracker = state.sleep?.[type];
    if (!tracker?.since || tracker.raised) return;
    if (type === 'LEAVE_BED' && state.subject.absent) return;
    const held = (now.getTime() - tracker.since.getTime()) / 1000;
    const duration = durationOf(type, state.subject.rules);
    if (held < duration) return;
    tracker.raised = true;
    const seconds = Math.round(held);
    const measure = measureOf(type, tracker.value, state.subject.rules, seconds);
    const claim = tracker.spell < 0 ? undefined : { n: tracker.spell, gen: tracker.gen };
    this.raise(state, type, tracker.since, now, { duration: seconds, value: tracker.value }, measure, out, claim);
  }

  private mat(state: DeviceState, dislodged: boolean, since: Date, now: Date, out: Decision[]): void {
    if (dislodged && !state.open.has('MAT_DISLODGED')) this.raise(state, 'MAT_DISLODGED', since, now, {}, null, out);
    else if (!dislodged) this.release(state, 'MAT_DISLODGED', now, RELEASE_KIND.automatic, out);
  }

  private raise(
    state: DeviceState,
    type: AlarmType,
    since: Date,
    now: Date,
    detail: Record<string, number | string | boolean>,
    measure: AlarmMeasure | null,
    out: Decision[],
    claim?: SpellClaim,
  ): void {
    const { subject } = state;
    if (subject.rules.off.includes(type)) return;
    if (CONDITIONS.has(type) && !this.snoozeOver(state, type, now)) return;
    state.open.add(type);
    out.push({
      op: 'raise',
      key: { deviceId: subject.deviceId, type },
      subject,
      since,
      at: now,
      detail,
      measure,
      counts: !CONDITIONS.has(type),
      ...(claim ? { claim } : {}),
    });
  }

  /** A spell handled while it held: once the level's snooze is over, its alarm is due again. */
  private afterSnooze(state: DeviceState, type: (typeof SLEEP_ALARM_TYPES)[number], now: Date): void {
    const tracker = state.sleep?.[type];
    if (!tracker?.since || !tracker.raised || state.open.has(type) || !state.snoozed?.has(type)) return;
    if (this.snoozeOver(state, type, now)) tracker.raised = false;
  }

  /** Whether a handled condition's snooze is over (or it was never snoozed); forgets it once over. */
  private snoozeOver(state: DeviceState, type: AlarmType, now: Date): boolean {
    const until = state.snoozed?.get(type);
    if (!until) return true;
    if (now < until) return false;
    state.snoozed?.delete(type);
    return true;
  }

  private release(
    state: DeviceState,
    type: AlarmType,
    now: Date,
    kind: Exclude<ReleaseKind, 0 | 1>,
    out: Decision[],
    /**
     * Decided whatever the engine believes open: a device's event is rare and the store is the
     * truth (an alarm raised before a restart, or by another instance, is released too).
     */
    always = false,
    /** The condition cleared by itself; by default every automatic release, and no other. */
    cleared = kind === RELEASE_KIND.automatic,
  ): void {
    if (!state.open.delete(type) && !always) return;
    out.push({
      op: 'release',
      key: { deviceId: state.subject.deviceId, type },
      subject: state.subject,
      at: now,
      kind,
      cleared,
    });
  }

  private sleepTracker(state: DeviceState, type: AlarmType) {
    return (SLEEP_ALARM_TYPES as readonly AlarmType[]).includes(type)
      ? (state.sleep ??= newTrackers())[type as (typeof SLEEP_ALARM_TYPES)[number]]
      : undefined;
  }

  /** The device's state, its subject refreshed: placement and rules change while it reports. */
  private stateOf(subject: Subject): DeviceState {
    let state = this.devices.get(subject.deviceId);
    if (!state) {
      state = { subject, open: new Set() };
      this.devices.set(subject.deviceId, state);
    } else state.subject = subject;
    return state;
  }
}

/**
 * Takes a shared spell into this engine's tracker: its start, and whether it was raised — a
 * raise claimed but not confirmed stored within the lease counts as not raised, so some
 * instance claims it again. The same spell with the same raises keeps what the engine knows of
 * it (a handled alarm's snooze).
 */
const adoptSpell = (tracker: Tracker, spell: SharedSpell, now: number, leaseMs: number): void => {
  if (spell.since < 0) tracker.since = null;
  else if (tracker.since?.getTime() !== spell.since) tracker.since = new Date(spell.since);
  const raises = spell.claimAt >= 0 && now - spell.claimAt >= leaseMs ? spell.gen - 1 : spell.gen;
  if (tracker.spell === spell.n && tracker.gen === raises && tracker.since) return;
  tracker.spell = spell.n;
  tracker.gen = raises;
  tracker.raised = raises > 0;
};
