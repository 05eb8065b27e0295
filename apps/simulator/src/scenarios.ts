import { AlarmSensorBehaviour, type Behaviour, type Out, type SleepMonitorBehaviour } from './behaviours.ts';
import type { DevicePlan, FleetPlan } from './catalogue.ts';
import { nextTimeOfDay, parseDuration, parseTimeOfDay } from './clock.ts';
import type { StopMode } from './device.ts';
import type { Resident } from './signals/resident.ts';

/**
 * Scripted scenarios, on the simulated clock: what the demo and the end-to-end tests rely on
 * happening at a known time. Each has a default time, overridden with `name@HH:MM` (the first
 * such local time at or after the simulated start) or `name@+10m` (after the start).
 */

const MIN = 60_000;

export interface ScenarioInfo {
  /** Default time: `HH:MM` (local, simulated) or `+duration` after the start. */
  at: string;
  what: string;
}

export const SCENARIOS = {
  'fall-at-3am': {
    at: '03:00',
    what:
      'room 1: the resident gets up at 02:57 (sitting_up_suspected, out of bed), falls at 03:00 ' +
      '(fall_suspected, then fall), is helped back to bed at 03:40',
  },
  smoke: { at: '+5m', what: 'the first smoke sensor: smoke active, cleared 10 minutes later' },
  offline: {
    at: '+10m',
    what: 'the last sleep monitor (or the last device) stops without a will (MQTT DISCONNECT) and stays off line',
  },
  'leave-bed': {
    at: '01:30',
    what: 'room 2 (or 1): the resident leaves bed and the room for 25 minutes (door opens if the room has one)',
  },
  apnea: { at: '02:00', what: 'room 1: asleep, breathing stops for 45 s (rr 0), then recovers' },
} as const satisfies Record<string, ScenarioInfo>;

export type ScenarioName = keyof typeof SCENARIOS;
export const SCENARIO_NAMES = Object.keys(SCENARIOS) as ScenarioName[];

export interface ScenarioRequest {
  name: ScenarioName;
  /** Overrides the default time (same forms). */
  at?: string;
}

/** `fall-at-3am,smoke@14:30,offline@+20m` or `all`. */
export const parseScenarios = (spec: string): ScenarioRequest[] => {
  const out: ScenarioRequest[] = [];
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name = '', at] = part.split('@');
    if (name === 'all') {
      out.push(...SCENARIO_NAMES.map((n) => ({ name: n })));
      continue;
    }
    if (!(SCENARIO_NAMES as string[]).includes(name)) {
      throw new Error(`--scenario: unknown scenario "${name}" (${SCENARIO_NAMES.join(', ')}, all)`);
    }
    if (at !== undefined) scenarioTime(at, Date.now());
    out.push({ name: name as ScenarioName, ...(at !== undefined ? { at } : {}) });
  }
  return out;
};

/** When a scenario time (`HH:MM` or `+duration`) falls, from the simulated start. */
export const scenarioTime = (at: string, simStart: number): number => {
  if (at.startsWith('+')) return simStart + parseDuration(at.slice(1));
  const tod = parseTimeOfDay(at);
  if (tod === null) throw new Error(`scenario time "${at}": HH:MM or +duration (e.g. +10m)`);
  return nextTimeOfDay(simStart, tod);
};

export interface ScenarioStep {
  /** Simulated instant (epoch ms). */
  at: number;
  label: string;
  run(): void | Promise<void>;
}

export interface ScheduledScenario {
  name: ScenarioName;
  at: number;
  steps: ScenarioStep[];
}

/** What a scenario needs of the fleet. */
export interface ScenarioContext {
  plan: FleetPlan;
  residents: readonly Resident[];
  simStart: number;
  behaviour(deviceId: string): Behaviour;
  trigger(deviceId: string, event: string): void;
  /** Publishes what a device's behaviour produced, on that device's topics. */
  send(deviceId: string, outs: readonly Out[]): void;
  stopDevice(deviceId: string, mode: StopMode): Promise<void>;
}

const first = (plan: FleetPlan, pred: (d: DevicePlan) => boolean): DevicePlan | undefined => plan.devices.find(pred);
const inRoom = (room: number) => (d: DevicePlan) => d.room === room;

/**
 * The steps of a scenario, or why it cannot run in this fleet. Changes to a resident's day
 * (out of bed, asleep) are made at once for the times they concern; device events are steps.
 */
export const buildScenario = (req: ScenarioRequest, ctx: ScenarioContext): ScheduledScenario | string => {
  const at = scenarioTime(req.at ?? SCENARIOS[req.name].at, ctx.simStart);
  const { plan, residents } = ctx;
  const steps: ScenarioStep[] = [];
  const step = (when: number, label: string, run: () => void | Promise<void>) => steps.push({ at: when, label, run });

  switch (req.name) {
    case 'fall-at-3am': {
      const radar = first(plan, (d) => d.kind === 'fall_radar' && d.room === 0);
      const resident = residents[0];
      if (!radar || !resident) return 'fall-at-3am needs a fall radar';
      const up = at - 3 * MIN;
      const backToBed = at + 40 * MIN;
      resident.override({ from: up, to: backToBed, inBed: false, inRoom: true });
      resident.override({ from: backToBed, to: backToBed + 15 * MIN, inBed: true, stage: 'awake' });
      step(at - 30_000, `${radar.id}: fall_suspected`, () => ctx.trigger(radar.id, 'fall_suspected'));
      step(at, `${radar.id}: fall`, () => ctx.trigger(radar.id, 'fall'));
      break;
    }
    case 'leave-bed': {
      const room = plan.rooms > 1 ? 1 : 0;
      const resident = residents[room];
      const monitor = first(plan, (d) => d.kind === 'sleep_monitor' && d.room === room);
      if (!resident || !monitor) return 'leave-bed needs a sleep monitor';
      const back = at + 25 * MIN;
      resident.override({ from: at, to: back, inBed: false, inRoom: false });
      resident.override({ from: back, to: back + 10 * MIN, inBed: true, stage: 'awake' });
      const door = first(plan, (d) => d.kind === 'door_magnet' && inRoom(room)(d));
      step(at, `${monitor.id}: resident ${room + 1} leaves bed`, () => {
        if (door) ctx.trigger(door.id, 'door');
      });
      step(back, `${monitor.id}: resident ${room + 1} back in bed`, () => {
        if (door) ctx.trigger(door.id, 'door');
      });
      break;
    }
    case 'smoke': {
      const sensor = first(plan, (d) => d.kind === 'smoke_sensor');
      if (!sensor) return 'smoke needs a smoke sensor';
      step(at, `${sensor.id}: smoke active`, () => {
        const b = ctx.behaviour(sensor.id);
        // Cleared ten simulated minutes later.
        if (b instanceof AlarmSensorBehaviour) ctx.send(sensor.id, b.alarm(at, 10 * MIN));
      });
      break;
    }
    case 'offline': {
      const monitors = plan.devices.filter((d) => d.kind === 'sleep_monitor');
      const target = monitors.at(-1) ?? plan.devices.filter((d) => d.hostId === undefined).at(-1);
      if (!target) return 'offline needs a device';
      step(at, `${target.id}: goes off line without a will`, () => ctx.stopDevice(target.id, 'silent'));
      break;
    }
    case 'apnea': {
      const resident = residents[0];
      const monitor = first(plan, (d) => d.kind === 'sleep_monitor' && d.room === 0);
      if (!resident || !monitor) return 'apnea needs a sleep monitor';
      resident.override({ from: at - 5 * MIN, to: at + 5 * MIN, inBed: true, inRoom: true, stage: 'light' });
      (ctx.behaviour(monitor.id) as SleepMonitorBehaviour).signal.scheduleApnea(at, 45);
      step(at, `${monitor.id}: apnea 45 s`, () => {});
      break;
    }
  }
  return { name: req.name, at, steps: steps.sort((a, b) => a.at - b.at) };
};
