import type { DeviceEvent, Telemetry } from '@vigil/contract';
import { kindInfo, versionsOf, type DevicePlan, type KindInfo } from './catalogue.ts';
import { clamp, type Rng } from './random.ts';
import type { Resident } from './signals/resident.ts';
import { SleepSignal } from './signals/sleep.ts';

/**
 * What each kind of device does, apart from MQTT: the messages it would send as simulated time
 * passes, the events it can be made to send, its status fields and its answers to commands.
 * Bodies come without `ts` and `seq`; the device stamps them when it publishes.
 */

type Unstamped<T> = T extends unknown ? Omit<T, 'ts' | 'seq'> : never;
export type EventBody = Unstamped<DeviceEvent>;
export type TelemetryBody = Omit<Telemetry, 'ts' | 'seq'>;

export type Out = { kind: 'telemetry'; body: TelemetryBody } | { kind: 'event'; body: EventBody };

export interface StatusFields {
  battery?: number;
  signal?: number;
  fw: string;
  hw: string;
}

export interface Site {
  lat: number;
  lng: number;
  /** Radius of the electronic fence around the site, metres. */
  fenceM: number;
}

export interface BehaviourEnv {
  /** Simulated start (epoch ms). */
  start: number;
  /** Multiplies the rates of random happenings (falls, SOS, alarms, door openings…). Default 1. */
  eventRate: number;
  /** The residents, by room. */
  residents: readonly Resident[];
  site: Site;
  /** Sleep monitors send beat-to-beat intervals (rri). */
  rri: boolean;
}

export interface CommandOutcome {
  ok: boolean;
  error?: string;
}

const DAY_H = 24;
const isNight = (ms: number): boolean => {
  const h = new Date(ms).getHours();
  return h >= 22 || h < 6;
};

/** Per-day rates (events per simulated day) → per hour, scaled by the event rate. */
const perDay = (n: number, env: BehaviourEnv): number => (n / DAY_H) * env.eventRate;

export abstract class Behaviour {
  readonly info: KindInfo;
  protected readonly rng: Rng;
  /** Battery level (per cent, fractional), for battery-powered devices. */
  protected battery: number | null = null;
  private drainPerHour = 0;
  private lowBatteryAt = -Infinity;
  private readonly pending: { at: number; out: Out }[] = [];
  private signalBase: number;
  protected lastTick: number;

  constructor(
    readonly plan: DevicePlan,
    rng: Rng,
    protected readonly env: BehaviourEnv,
  ) {
    this.info = kindInfo(plan.kind);
    this.rng = rng.derive(`device:${plan.id}`);
    this.lastTick = env.start;
    if (this.info.battery) {
      // Most batteries are fine; some start low, so low_battery shows up now and then.
      this.battery = this.rng.chance(0.12) ? this.rng.range(4, 21) : this.rng.range(30, 100);
      this.drainPerHour = this.rng.range(100 / (720 * 24), 100 / (120 * 24));
    }
    this.signalBase = this.info.signal === 'dbm' ? this.rng.range(-82, -45) : this.rng.range(45, 95);
  }

  /** The resident of the device's room, if any. */
  protected get resident(): Resident | null {
    return this.plan.room === null ? null : (this.env.residents[this.plan.room] ?? null);
  }

  /** Sends `out` at simulated instant `at` (on the first tick at or after it). */
  protected later(at: number, out: Out): void {
    this.pending.push({ at, out });
    this.pending.sort((a, b) => a.at - b.at);
  }

  protected event(body: EventBody): Out {
    return { kind: 'event', body };
  }

  /** What happened between the previous tick and simulated instant `now`. */
  tick(now: number): Out[] {
    const dtS = Math.max(0, (now - this.lastTick) / 1000);
    const out: Out[] = [];
    if (this.battery !== null) {
      this.battery = Math.max(1, this.battery - this.drainPerHour * (dtS / 3600));
      // low_battery when it runs low, then again once a simulated day while it stays low.
      if (this.battery <= 20 && now - this.lowBatteryAt >= 24 * 3_600_000) {
        this.lowBatteryAt = now;
        out.push(this.event({ event: 'low_battery' }));
      }
    }
    out.push(...this.happen(now, dtS));
    while (this.pending.length && (this.pending[0]?.at ?? Infinity) <= now) {
      out.push((this.pending.shift() as { out: Out }).out);
    }
    this.lastTick = now;
    return out;
  }

  /** The kind's own random happenings over the last `dtS` simulated seconds. */
  protected abstract happen(now: number, dtS: number): Out[];

  /** Periodic report at the device's interval: telemetry or position; none means a status heartbeat. */
  report(_now: number): Out[] | null {
    return null;
  }

  /** Forces one of the kind's events now (scenarios, tests, the demo). */
  trigger(event: string, now: number): Out[] {
    if (!this.info.events.includes(event)) {
      throw new Error(`${this.plan.id} (${this.info.short}) does not send ${event}; it sends ${this.info.events}`);
    }
    return this.triggered(event, now);
  }

  protected triggered(event: string, _now: number): Out[] {
    return [this.event({ event } as EventBody)];
  }

  status(): StatusFields {
    const { fw, hw } = versionsOf(this.plan.type);
    const drift = this.rng.normal(0, this.info.signal === 'dbm' ? 2 : 3);
    const signal = Math.round(
      this.info.signal === 'dbm' ? clamp(this.signalBase + drift, -110, -30) : clamp(this.signalBase + drift, 0, 100),
    );
    return {
      ...(this.battery !== null ? { battery: Math.round(this.battery) } : {}),
      signal,
      fw,
      hw,
    };
  }

  /** Carries out a command addressed to this device (restart is the device's own business). */
  command(command: string, params: Record<string, unknown>): CommandOutcome {
    void params;
    if (command === 'restart' || command === 'interval') return { ok: true };
    return { ok: false, error: `${command} is not supported by ${this.plan.type.model}` };
  }
}

// --- Sleep monitor -----------------------------------------------------------------------------

export class SleepMonitorBehaviour extends Behaviour {
  readonly signal: SleepSignal;
  private algMode = 0;

  constructor(plan: DevicePlan, rng: Rng, env: BehaviourEnv) {
    super(plan, rng, env);
    this.signal = new SleepSignal(this.rng, {
      start: env.start,
      ...(this.resident ? { resident: this.resident } : {}),
      eventRate: env.eventRate,
    });
  }

  protected happen(): Out[] {
    return [];
  }

  override report(now: number): Out[] {
    const s = this.signal.advance(now);
    const body: TelemetryBody = {
      hr: s.hr,
      rr: s.rr,
      inBed: s.inBed,
      asleep: s.asleep,
      move: s.move,
      ...(this.env.rri && s.rri.length ? { rri: s.rri } : {}),
      mat: s.mat,
    };
    const out: Out[] = [{ kind: 'telemetry', body }];
    if (s.matChanged) out.push(this.event({ event: 'mat', state: s.mat }));
    return out;
  }

  protected override triggered(event: string, now: number): Out[] {
    // A forced dislodgement lasts ten simulated minutes; force_init puts the mat back.
    this.signal.dislodgeMat(now, now + 10 * 60_000);
    void event;
    return [];
  }

  override command(command: string, params: Record<string, unknown>): CommandOutcome {
    if (command === 'force_init') {
      this.signal.reseatMat();
      return { ok: true };
    }
    if (command === 'alg_mode') {
      const mode = params.algMode ?? params.mode;
      if (typeof mode !== 'number' || !Number.isInteger(mode) || mode < 0 || mode > 255) {
        return { ok: false, error: 'algMode must be an integer 0-255' };
      }
      this.algMode = mode;
      return { ok: true };
    }
    return super.command(command, params);
  }

  get mode(): number {
    return this.algMode;
  }
}

// --- Fall radar --------------------------------------------------------------------------------

export class FallRadarBehaviour extends Behaviour {
  private occupied: boolean | null = null;
  private fallUntil = 0;

  protected happen(now: number, dtS: number): Out[] {
    const out: Out[] = [];
    const resident = this.resident;
    if (!resident) return out;
    // Walk the resident's changes since the last tick, so none is missed however fast time runs.
    let t = this.lastTick;
    let prev = resident.stateAt(t);
    if (this.occupied === null) {
      this.occupied = prev.inRoom;
      out.push(this.event({ event: 'presence', occupied: prev.inRoom }));
    }
    while (prev.until <= now) {
      t = prev.until;
      const next = resident.stateAt(t);
      if (prev.inBed && !next.inBed && next.inRoom && isNight(t)) {
        out.push(this.event({ event: 'sitting_up_suspected' }));
      }
      if (next.inRoom !== this.occupied && t >= this.fallUntil) {
        this.occupied = next.inRoom;
        out.push(this.event({ event: 'presence', occupied: next.inRoom }));
      }
      prev = next;
    }
    const state = resident.stateAt(now);
    const upInRoom = state.inRoom && !state.inBed;
    // Real falls are rare; a suspected fall that comes to nothing is less so.
    if (upInRoom && now >= this.fallUntil && this.rng.happens(perDay(1 / 60, this.env), dtS)) {
      out.push(...this.fallSequence(now, this.rng.chance(0.3)));
    } else if (state.inRoom && now >= this.fallUntil && this.rng.happens(perDay(1 / 10, this.env), dtS)) {
      out.push(...this.fallSequence(now, false));
    }
    return out;
  }

  /** A suspected fall, confirmed after 20–40 s or cancelled after 10–60 s (the person got up). */
  private fallSequence(now: number, confirmed: boolean): Out[] {
    if (confirmed) {
      const at = now + this.rng.range(20, 40) * 1000;
      this.later(at, this.event({ event: 'fall' }));
      this.fallUntil = at + 10 * 60_000;
    } else {
      const at = now + this.rng.range(10, 60) * 1000;
      this.later(at, this.event({ event: 'fall_cancelled' }));
      this.fallUntil = at;
    }
    return [this.event({ event: 'fall_suspected' })];
  }

  protected override triggered(event: string, now: number): Out[] {
    if (event === 'presence') {
      this.occupied = !(this.occupied ?? false);
      return [this.event({ event: 'presence', occupied: this.occupied })];
    }
    if (event === 'fall') {
      this.fallUntil = now + 10 * 60_000;
      return [this.event({ event: 'fall' })];
    }
    return super.triggered(event, now);
  }

  override command(command: string, params: Record<string, unknown>): CommandOutcome {
    if (command === 'alg_mode') return { ok: true };
    return super.command(command, params);
  }
}

// --- Security sensors (through a gateway host) ------------------------------------------------

export class ButtonBehaviour extends Behaviour {
  protected happen(now: number, dtS: number): Out[] {
    if (!this.rng.happens(perDay(1 / 14, this.env), dtS)) return [];
    return this.triggered('sos', now);
  }

  protected override triggered(event: string, now: number): Out[] {
    // Some calls are cancelled at the button a few minutes later.
    if (event === 'sos' && this.rng.chance(0.4)) {
      this.later(now + this.rng.range(1, 5) * 60_000, this.event({ event: 'device_release' }));
    }
    return super.triggered(event, now);
  }
}

export class DoorBehaviour extends Behaviour {
  private open = false;

  protected happen(now: number, dtS: number): Out[] {
    if (this.open) return [];
    if (!this.rng.happens((isNight(now) ? 0.1 : 2) * this.env.eventRate, dtS)) return [];
    return this.triggered('door', now);
  }

  override tick(now: number): Out[] {
    const out = super.tick(now);
    for (const o of out) if (o.kind === 'event' && o.body.event === 'door' && !o.body.open) this.open = false;
    return out;
  }

  protected override triggered(event: string, now: number): Out[] {
    if (event !== 'door') return super.triggered(event, now);
    if (this.open) return [];
    this.open = true;
    this.later(now + this.rng.range(5, 180) * 1000, this.event({ event: 'door', open: false }));
    return [this.event({ event: 'door', open: true })];
  }
}

export class AlarmSensorBehaviour extends Behaviour {
  private active = false;
  private readonly name: 'smoke' | 'gas' | 'co' | 'flood';

  constructor(plan: DevicePlan, rng: Rng, env: BehaviourEnv) {
    super(plan, rng, env);
    const name = this.info.events[0];
    if (name !== 'smoke' && name !== 'gas' && name !== 'co' && name !== 'flood') throw new Error(`not an alarm sensor`);
    this.name = name;
  }

  protected happen(now: number, dtS: number): Out[] {
    if (this.active || !this.rng.happens(perDay(1 / 120, this.env), dtS)) return [];
    return this.alarm(now, (this.name === 'flood' ? this.rng.range(10, 60) : this.rng.range(1, 5)) * 60_000);
  }

  /** Active now, cleared `forMs` simulated milliseconds later. */
  alarm(now: number, forMs: number): Out[] {
    this.active = true;
    this.later(now + forMs, this.event({ event: this.name, active: false }));
    return [this.event({ event: this.name, active: true })];
  }

  override tick(now: number): Out[] {
    const out = super.tick(now);
    for (const o of out) if (o.kind === 'event' && o.body.event === this.name && !o.body.active) this.active = false;
    return out;
  }

  protected override triggered(event: string, now: number): Out[] {
    if (event === this.name) return this.alarm(now, 3 * 60_000);
    return super.triggered(event, now);
  }
}

export class MotionBehaviour extends Behaviour {
  protected happen(now: number, dtS: number): Out[] {
    const state = this.resident?.stateAt(now);
    const moving = state ? state.inRoom && !state.inBed : false;
    // Up and about in the room: a report every few minutes; otherwise a rare stray trigger.
    const rate = moving ? 12 : 0.2;
    return this.rng.happens(rate * this.env.eventRate, dtS) ? [this.event({ event: 'motion' })] : [];
  }
}

// --- Wearables ---------------------------------------------------------------------------------

const M_PER_DEG_LAT = 111_320;

abstract class WearableBehaviour extends Behaviour {
  /** Position relative to the site, metres east and north. */
  protected x: number;
  protected y: number;
  protected home: { x: number; y: number };

  constructor(plan: DevicePlan, rng: Rng, env: BehaviourEnv) {
    super(plan, rng, env);
    const r = env.site.fenceM * 0.4;
    this.home = { x: this.rng.range(-r, r), y: this.rng.range(-r, r) };
    this.x = this.home.x;
    this.y = this.home.y;
  }

  protected position(): Out {
    const { lat, lng } = this.env.site;
    const accuracy = Math.round(this.rng.range(4, 30));
    const jitter = () => this.rng.normal(0, accuracy / 3);
    return this.event({
      event: 'position',
      lat: +(lat + (this.y + jitter()) / M_PER_DEG_LAT).toFixed(6),
      lng: +(lng + (this.x + jitter()) / (M_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180))).toFixed(6),
      accuracy,
    });
  }

  /** Walks towards `target` for `dtS` seconds at walking pace. */
  protected walk(target: { x: number; y: number }, dtS: number): void {
    const dx = target.x - this.x;
    const dy = target.y - this.y;
    const d = Math.hypot(dx, dy);
    const step = Math.min(d, 0.8 * dtS);
    if (d > 0) {
      this.x += (dx / d) * step;
      this.y += (dy / d) * step;
    }
  }

  override report(): Out[] {
    return [this.position()];
  }
}

export class BadgeBehaviour extends WearableBehaviour {
  private wanderUntil = 0;
  private target: { x: number; y: number } | null = null;

  protected happen(now: number, dtS: number): Out[] {
    const out: Out[] = [];
    const fence = this.env.site.fenceM;
    if (now >= this.wanderUntil && this.rng.happens(perDay(1 / 20, this.env), dtS)) {
      // Wanders off beyond the electronic fence for a while.
      const angle = this.rng.range(0, 2 * Math.PI);
      const dist = fence * this.rng.range(1.4, 2.5);
      this.target = { x: Math.cos(angle) * dist, y: Math.sin(angle) * dist };
      this.wanderUntil = now + this.rng.range(20, 60) * 60_000;
    }
    if (now >= this.wanderUntil) {
      const inRoom = this.resident?.stateAt(now).inRoom ?? true;
      const r = fence * 0.5;
      if (inRoom) this.target = this.home;
      else if (!this.target || this.rng.chance(Math.min(1, dtS / 600)))
        this.target = { x: this.rng.range(-r, r), y: this.rng.range(-r, r) };
    }
    if (this.target) this.walk(this.target, dtS);
    if (this.rng.happens(perDay(1 / 30, this.env), dtS)) out.push(...this.triggered('badge_sos', now));
    return out;
  }

  protected override triggered(event: string, now: number): Out[] {
    if (event === 'position') return [this.position()];
    return super.triggered(event, now);
  }
}

/** How many alarms a watch keeps on its screen, the latest last. */
const WATCH_SHOWN_MAX = 10;

export class WatchBehaviour extends WearableBehaviour {
  private target: { x: number; y: number } = { x: 0, y: 0 };
  /** Devices whose alarms the watch was shown (the call system names the calling device), not yet released here. */
  private readonly shown: string[] = [];

  protected happen(_now: number, dtS: number): Out[] {
    // A nurse on rounds: from one place of the site to another.
    const r = this.env.site.fenceM * 0.6;
    if (this.rng.chance(Math.min(1, dtS / 300))) this.target = { x: this.rng.range(-r, r), y: this.rng.range(-r, r) };
    this.walk(this.target, dtS);
    return [];
  }

  /** The watch shows an alarm of `deviceId`: the nurse may release it here a few minutes later, naming the device. */
  alarmRaised(now: number, deviceId: string): void {
    this.shown.push(deviceId);
    if (this.shown.length > WATCH_SHOWN_MAX) this.shown.shift();
    if (this.rng.chance(0.5)) {
      this.later(now + this.rng.range(1, 4) * 60_000, this.event({ event: 'watch_release', deviceId }));
    }
  }

  override tick(now: number): Out[] {
    const out = super.tick(now);
    for (const o of out) if (o.kind === 'event' && o.body.event === 'watch_release') this.released(o.body.deviceId);
    return out;
  }

  protected override triggered(event: string, now: number): Out[] {
    if (event === 'position') return [this.position()];
    if (event === 'watch_release') {
      // The nurse releases the latest alarm on the screen; with none shown, the watch's own (a bare release).
      const deviceId = this.shown.at(-1);
      this.released(deviceId);
      return [this.event(deviceId === undefined ? { event } : { event, deviceId })];
    }
    return super.triggered(event, now);
  }

  private released(deviceId: string | undefined): void {
    const at = deviceId === undefined ? -1 : this.shown.lastIndexOf(deviceId);
    if (at >= 0) this.shown.splice(at, 1);
  }
}

// --- Gateway host ------------------------------------------------------------------------------

export class HostBehaviour extends Behaviour {
  protected happen(): Out[] {
    return [];
  }

  override command(command: string, params: Record<string, unknown>): CommandOutcome {
    if (command === 'pair' || command === 'pair_scan' || command === 'pair_status' || command === 'unpair') {
      return { ok: true };
    }
    return super.command(command, params);
  }
}

export const createBehaviour = (plan: DevicePlan, rng: Rng, env: BehaviourEnv): Behaviour => {
  switch (plan.kind) {
    case 'sleep_monitor':
      return new SleepMonitorBehaviour(plan, rng, env);
    case 'fall_radar':
      return new FallRadarBehaviour(plan, rng, env);
    case 'emergency_button':
      return new ButtonBehaviour(plan, rng, env);
    case 'door_magnet':
      return new DoorBehaviour(plan, rng, env);
    case 'smoke_sensor':
    case 'gas_sensor':
    case 'co_sensor':
    case 'flood_sensor':
      return new AlarmSensorBehaviour(plan, rng, env);
    case 'infrared_motion':
      return new MotionBehaviour(plan, rng, env);
    case 'badge':
      return new BadgeBehaviour(plan, rng, env);
    case 'nurse_watch':
      return new WatchBehaviour(plan, rng, env);
    case 'gateway_host':
      return new HostBehaviour(plan, rng, env);
  }
};

/** Events that raise an alarm somewhere (a nurse may release it at a watch). */
export const isAlarmEvent = (body: EventBody): boolean =>
  body.event === 'sos' ||
  body.event === 'badge_sos' ||
  body.event === 'fall' ||
  ((body.event === 'smoke' || body.event === 'gas' || body.event === 'co' || body.event === 'flood') && body.active);
