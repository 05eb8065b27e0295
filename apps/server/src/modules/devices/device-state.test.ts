import { DEVICE_KINDS, type DeviceKind } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import {
  deriveDeviceState,
  MEASURED_WITHIN_MS,
  newerReport,
  presentDeviceState,
  type CommandFact,
  type DeviceFacts,
  type ReportedState,
} from './device-state.ts';
import type { PairingCommand } from './command.service.ts';

const NOW = new Date('2026-11-26T02:00:00Z');
const ago = (s: number) => new Date(NOW.getTime() - s * 1000);

const online = (seenSecondsAgo = 1, extra: Partial<ReportedState> = {}): ReportedState => ({
  online: true,
  lastSeenAt: ago(seenSecondsAgo),
  battery: null,
  signal: null,
  ...extra,
});
const offline = (seenSecondsAgo = 600): ReportedState => ({ ...online(seenSecondsAgo), online: false });

const facts = (over: Partial<DeviceFacts> = {}): DeviceFacts => ({
  kind: 'sleep_monitor',
  reported: null,
  atBed: false,
  underHost: false,
  pairedFlag: false,
  pairing: null,
  sensorFlag: false,
  sensorInit: null,
  measuredAt: null,
  ...over,
});
const command = <C extends string>(
  name: C,
  open: boolean,
  queuedSecondsAgo: number,
  ackedSecondsAgo: number | null = null,
): CommandFact<C> => ({
  command: name,
  open,
  queuedAt: ago(queuedSecondsAgo),
  ackedAt: ackedSecondsAgo === null ? null : ago(ackedSecondsAgo),
});
const derive = (over: Partial<DeviceFacts>) => deriveDeviceState(facts(over), NOW);

describe('a device’s state, derived once for every screen', () => {
  it('is online exactly when the gateway’s live state says so, with last seen, battery and signal from it', () => {
    expect(derive({ reported: null })).toMatchObject({ online: false, lastSeenAt: null, battery: null, signal: null });
    expect(derive({ reported: online(3, { battery: 64, signal: -71 }) })).toMatchObject({
      online: true,
      lastSeenAt: ago(3),
      battery: 64,
      signal: -71,
      signalUnit: 'dBm',
    });
    // A goodbye takes the live state offline at once: so does every screen, whatever was measured.
    expect(derive({ reported: offline(2), measuredAt: ago(2), atBed: true })).toMatchObject({ online: false });
  });

  it('names the signal’s unit: negative values are dBm, 0–100 a level in per cent', () => {
    expect(derive({ reported: online(1, { signal: -110 }) }).signalUnit).toBe('dBm');
    expect(derive({ reported: online(1, { signal: -1 }) }).signalUnit).toBe('dBm');
    expect(derive({ reported: online(1, { signal: 0 }) }).signalUnit).toBe('percent');
    expect(derive({ reported: online(1, { signal: 87 }) }).signalUnit).toBe('percent');
    expect(derive({ reported: online(1) }).signalUnit).toBeNull();
  });

  it.each([
    // [case, facts, installState]
    ['at a bed, online', { atBed: true, reported: online() }, 'bed'],
    ['at a bed, offline', { atBed: true, reported: offline() }, 'bed'],
    ['at a bed, never heard', { atBed: true }, 'bed'],
    ['at no bed, streaming', { reported: online(), measuredAt: ago(1) }, 'reporting'],
    ['at no bed, offline', { reported: offline() }, 'none'],
    ['at no bed, never heard', {}, 'none'],
    [
      'a sensor paired with its host',
      { kind: 'door_magnet', underHost: true, pairedFlag: true, reported: offline() },
      'host',
    ],
    ['a sensor heard through its host', { kind: 'door_magnet', underHost: true, reported: online() }, 'host'],
    ['a silent sensor never paired', { kind: 'door_magnet', underHost: true, reported: offline() }, 'none'],
    [
      'a sensor being paired, not heard yet',
      { kind: 'door_magnet', underHost: true, pairing: command<PairingCommand>('pair', true, 10) },
      'none',
    ],
    ['a gateway host online', { kind: 'gateway_host', reported: online() }, 'reporting'],
    ['a nurse watch offline', { kind: 'nurse_watch', reported: offline() }, 'none'],
  ] as [string, Partial<DeviceFacts>, string][])('is installed by place: %s', (_case, over, installState) => {
    const state = derive(over);
    expect(state.installState).toBe(installState);
    expect(state.installed).toBe(installState !== 'none');
  });

  it.each([
    // [case, facts, pairState]
    ['paired by its host’s answer', { pairedFlag: true }, 'paired'],
    ['never paired, silent', {}, 'unpaired'],
    ['never paired, but heard through its host', { reported: online() }, 'paired'],
    ['never paired, heard long ago (offline)', { reported: offline() }, 'unpaired'],
    ['a pair sent, not heard since', { pairing: command<PairingCommand>('pair', true, 10) }, 'pairing'],
    [
      'a pair_scan sent, heard before it only',
      { pairing: command<PairingCommand>('pair_scan', true, 10), reported: online(30) },
      'pairing',
    ],
    ['a pair sent, heard since', { pairing: command<PairingCommand>('pair', true, 10), reported: online(2) }, 'paired'],
    [
      'an unpair sent, still heard',
      { pairedFlag: true, pairing: command<PairingCommand>('unpair', true, 10), reported: online(1) },
      'unpairing',
    ],
    [
      'unpaired by its host, last heard before the answer',
      { pairing: command<PairingCommand>('unpair', false, 60, 30), reported: online(40) },
      'unpaired',
    ],
    [
      'unpaired by its host, heard again since',
      { pairing: command<PairingCommand>('unpair', false, 60, 30), reported: online(5) },
      'paired',
    ],
    [
      'a pair that failed, yet heard through its host',
      { pairing: command<PairingCommand>('pair', false, 60), reported: online(5) },
      'paired',
    ],
    ['a pair that failed, silent', { pairing: command<PairingCommand>('pair', false, 60) }, 'unpaired'],
  ] as [string, Partial<DeviceFacts>, string][])('pairs a sub-device: %s', (_case, over, pairState) => {
    const state = derive({ kind: 'smoke_sensor', underHost: true, ...over });
    expect(state.pairState).toBe(pairState);
    expect(state.paired).toBe(pairState === 'paired');
  });

  it('has no pairing state for a device under no host', () => {
    for (const kind of DEVICE_KINDS) {
      expect(derive({ kind, pairedFlag: true, reported: online() })).toMatchObject({ pairState: null, paired: false });
    }
  });

  it.each([
    // [case, facts, sensorState]
    ['never initialised, never measured', {}, 'notInitialised'],
    ['acknowledged an initialisation', { sensorFlag: true }, 'initialised'],
    ['measuring now', { measuredAt: ago(1), reported: online() }, 'initialised'],
    ['measured within the last day, offline now', { measuredAt: ago(23 * 3600), reported: offline() }, 'initialised'],
    ['measured over a day ago', { measuredAt: ago(MEASURED_WITHIN_MS / 1000 + 60) }, 'notInitialised'],
    [
      'an initialisation queued, nothing measured since',
      { sensorInit: command('force_init', true, 30) },
      'initialising',
    ],
    [
      'an initialisation queued after its last measurement',
      { sensorInit: command('force_init', true, 30), measuredAt: ago(60), sensorFlag: false },
      'initialising',
    ],
    [
      'an initialisation queued, measuring since',
      { sensorInit: command('force_init', true, 30), measuredAt: ago(1) },
      'initialised',
    ],
    [
      'an initialisation that failed, measuring',
      { sensorInit: command('force_init', false, 30), measuredAt: ago(1) },
      'initialised',
    ],
    [
      'an initialisation that expired, never measured',
      { sensorInit: command('force_init', false, 90_000) },
      'notInitialised',
    ],
  ] as [string, Partial<DeviceFacts>, string][])(
    'initialises a sleep monitor’s sensor: %s',
    (_case, over, sensorState) => {
      const state = derive({ atBed: true, ...over });
      expect(state.sensorState).toBe(sensorState);
      expect(state.sensorInitialised).toBe(sensorState === 'initialised');
    },
  );

  it('has no sensor state for a device other than a sleep monitor', () => {
    for (const kind of DEVICE_KINDS.filter((k) => k !== 'sleep_monitor')) {
      expect(derive({ kind, sensorFlag: true, measuredAt: ago(1) })).toMatchObject({
        sensorState: null,
        sensorInitialised: false,
      });
    }
  });

  // Every combination of the facts: the states never contradict each other or what the device does.
  const reports: (ReportedState | null)[] = [null, online(1), online(120), offline(5), offline(90_000)];
  const pairings: (CommandFact<PairingCommand> | null)[] = [
    null,
    command('pair', true, 60),
    command('pair_scan', true, 60),
    command('unpair', true, 60),
    command('pair', false, 600, 590),
    command('unpair', false, 600, 590),
    command('pair', false, 600),
  ];
  const inits: (CommandFact<'force_init'> | null)[] = [
    null,
    command('force_init', true, 60),
    command('force_init', false, 600, 590),
    command('force_init', false, 600),
  ];
  const measures = [null, ago(1), ago(300), ago(30 * 3600)];
  const kinds: DeviceKind[] = ['sleep_monitor', 'fall_radar', 'door_magnet', 'gateway_host', 'nurse_watch'];
  const all: DeviceFacts[] = [];
  for (const kind of kinds)
    for (const reported of reports)
      for (const atBed of [false, true])
        for (const underHost of [false, true])
          for (const pairedFlag of [false, true])
            for (const pairing of pairings)
              for (const sensorFlag of [false, true])
                for (const sensorInit of inits)
                  for (const measuredAt of measures)
                    all.push({
                      kind,
                      reported,
                      atBed,
                      underHost,
                      pairedFlag,
                      pairing,
                      sensorFlag,
                      sensorInit,
                      measuredAt,
                    });

  it(`never contradicts itself over all ${all.length} combinations`, () => {
    const contradictions: string[] = [];
    const check = (f: DeviceFacts, holds: boolean, what: string) => {
      if (!holds) contradictions.push(`${what}: ${JSON.stringify(f)}`);
    };
    for (const f of all) {
      const s = deriveDeviceState(f, NOW);
      check(f, s.installed === (s.installState !== 'none'), 'installed is installState');
      check(f, s.paired === (s.pairState === 'paired'), 'paired is pairState');
      check(f, s.sensorInitialised === (s.sensorState === 'initialised'), 'sensorInitialised is sensorState');
      check(f, (s.pairState === null) === !f.underHost, 'a pairing state only under a host');
      check(f, (s.sensorState === null) === (f.kind !== 'sleep_monitor'), 'a sensor state only for sleep monitors');
      check(f, s.online === (f.reported?.online ?? false), 'online as the live state says');
      // Online, or at its bed: installed. A sensor heard through its host is paired.
      if (s.online || f.atBed) check(f, s.installed, 'online or at a bed: installed');
      if (f.underHost && s.online && !f.pairing?.open)
        check(f, s.pairState === 'paired', 'heard through its host: paired');
      // What a sleep monitor measured since any initialisation was asked for says its sensor works.
      const measuring =
        f.measuredAt !== null &&
        NOW.getTime() - f.measuredAt.getTime() <= MEASURED_WITHIN_MS &&
        (!f.sensorInit?.open || f.measuredAt > f.sensorInit.queuedAt);
      if (f.kind === 'sleep_monitor' && measuring) check(f, s.sensorState === 'initialised', 'measuring: initialised');
      if (f.kind === 'sleep_monitor' && !measuring && f.sensorInit?.open) {
        check(f, s.sensorState === 'initialising', 'an open initialisation, nothing measured since: initialising');
      }
    }
    expect(contradictions.slice(0, 5)).toEqual([]);
  });

  it('answers the calls’ shape with ISO times', () => {
    expect(presentDeviceState(derive({ atBed: true, reported: online(5, { battery: 80, signal: 60 }) }))).toEqual({
      online: true,
      lastSeenTime: ago(5).toISOString(),
      installed: true,
      installState: 'bed',
      paired: false,
      pairState: null,
      sensorInitialised: false,
      sensorState: 'notInitialised',
      battery: 80,
      signal: 60,
      signalUnit: 'percent',
    });
  });
});

describe('which report of a device is the newer', () => {
  it('takes memory unless the stored copy was seen later (another instance heard it since)', () => {
    const memory = online(10);
    expect(newerReport(memory, undefined)).toBe(memory);
    expect(newerReport(undefined, offline(5))).toEqual(offline(5));
    expect(newerReport(memory, offline(20))).toBe(memory);
    expect(newerReport(memory, offline(5))).toEqual(offline(5));
    // Same sighting: memory (this instance decided online/offline on it first).
    const stored = { ...memory, online: !memory.online };
    expect(newerReport(memory, stored)).toBe(memory);
    // Only the device row's flag is stored (never heard by the gateway): memory wins.
    expect(newerReport(memory, { online: true, lastSeenAt: null, battery: null, signal: null })).toBe(memory);
  });
});
