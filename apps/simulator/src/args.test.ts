import { describe, expect, it } from 'vitest';
import { DEVICE_ID_PATTERN, DEVICE_SECRET_PATTERN, DEVICE_TYPES } from '@vigil/contract';
import { parseCli, usage } from './args.ts';
import { KINDS, parseDeviceCounts, planFleet, SUB_DEVICES_PER_HOST } from './catalogue.ts';
import { checkSimulatedTs, parseDuration, parseStart, SimClock } from './clock.ts';
import { SCENARIO_NAMES } from './scenarios.ts';
import { connectingDevices, deriveSecret, secretsFor } from './secrets.ts';

const NOW = new Date(2026, 5, 10, 14, 0).getTime();

describe('--devices and the fleet plan', () => {
  it('defaults to one device of every type of the catalogue', () => {
    const plan = planFleet(parseCli([], {}, NOW).devices);
    expect(plan.devices.map((d) => d.type.code).sort()).toEqual(DEVICE_TYPES.map((t) => t.code).sort());
    expect(plan.notes).toEqual([]);
  });

  it('builds IDs from the prefix, pairs security sensors with hosts and shares rooms', () => {
    const plan = planFleet(parseDeviceCounts('sleep=20,radar=5,button=5,host=1,door=3,smoke=2'), 'care-a');
    expect(plan.devices).toHaveLength(36);
    for (const d of plan.devices) {
      expect(d.id).toMatch(DEVICE_ID_PATTERN);
      expect(d.id).toBe(d.id.toUpperCase());
      expect(d.id.length).toBeLessThanOrEqual(64);
    }
    expect(plan.devices[0]?.id).toBe('CARE-A-SLP-0001');
    expect(new Set(plan.devices.map((d) => d.id)).size).toBe(36);
    expect(plan.rooms).toBe(20);
    const host = plan.devices.find((d) => d.kind === 'gateway_host');
    expect(host?.subIds).toHaveLength(10);
    for (const d of plan.devices.filter((x) => ['emergency_button', 'door_magnet', 'smoke_sensor'].includes(x.kind))) {
      expect(d.hostId).toBe(host?.id);
    }
    expect(
      plan.devices.filter((d) => d.kind === 'sleep_monitor' || d.kind === 'fall_radar').every((d) => !d.hostId),
    ).toBe(true);
  });

  it('adds gateway hosts when the sensors need more than the hosts asked for', () => {
    const plan = planFleet(parseDeviceCounts('door=100,smoke=5'));
    const hosts = plan.devices.filter((d) => d.kind === 'gateway_host');
    expect(hosts).toHaveLength(Math.ceil(105 / SUB_DEVICES_PER_HOST));
    for (const h of hosts) expect(h.subIds?.length).toBeLessThanOrEqual(SUB_DEVICES_PER_HOST);
    expect(plan.notes[0]).toMatch(/added 3 gateway host/);
  });

  it('takes one model by name or code, and all=N', () => {
    expect(planFleet(parseDeviceCounts('radar:ED719N=2,sleep:59=1')).devices.map((d) => d.type.model)).toEqual([
      'M901L',
      'ED719N',
      'ED719N',
    ]);
    expect(planFleet(parseDeviceCounts('all=2')).devices).toHaveLength(DEVICE_TYPES.length * 2);
    expect(() => parseDeviceCounts('toaster=1')).toThrow(/unknown device name/);
    expect(() => parseDeviceCounts('radar:M901L=1')).toThrow(/not a model of radar/);
    expect(() => parseDeviceCounts('sleep')).toThrow(/name=count/);
    expect(() => planFleet(parseDeviceCounts('sleep=1'), 'bad_prefix')).toThrow(/prefix/);
  });
});

describe('command line', () => {
  it('has defaults for everything', () => {
    const o = parseCli([], {}, NOW);
    expect(o).toMatchObject({
      url: 'mqtt://localhost:1883',
      prefix: 'SIM',
      speed: 1,
      start: NOW,
      tsMode: 'real',
      scenarios: [],
      eventRate: 1,
      provision: false,
      api: 'http://localhost:8080',
    });
    expect(o.seed).toMatch(/^[0-9a-f]{8}$/);
    expect(parseCli([], { MQTT_URL: 'mqtt://broker:1884' }, NOW).url).toBe('mqtt://broker:1884');
  });

  it('parses times, speed, scenarios and intervals', () => {
    const o = parseCli(
      ['--speed', '60', '--start', '22:00', '--duration', '8h', '--scenario', 'all', '--interval', 'sleep=5,badge=30'],
      {},
      NOW,
    );
    expect(o.speed).toBe(60);
    expect(new Date(o.start).getHours()).toBe(22);
    expect(o.start).toBeLessThan(NOW); // yesterday's 22:00: the latest occurrence
    expect(o.durationMs).toBe(8 * 3_600_000);
    expect(o.scenarios.map((s) => s.name)).toEqual(SCENARIO_NAMES);
    expect(o.intervals).toEqual({ sleep: 5, badge: 30 });
    expect(() => parseCli(['--interval', 'sleep=0'], {}, NOW)).toThrow(/1–254/);
    expect(() => parseCli(['--speed', 'fast'], {}, NOW)).toThrow(/--speed/);
    expect(() => parseCli(['--bogus'], {}, NOW)).toThrow();
  });

  it('refuses simulated ts that the server would drop', () => {
    expect(() => parseCli(['--ts', 'sim', '--speed', '60'], {}, NOW)).toThrow(/give --duration/);
    expect(() => parseCli(['--ts', 'sim', '--speed', '60', '--duration', '1h'], {}, NOW)).toThrow(/ahead of real time/);
    expect(parseCli(['--ts', 'sim', '--speed', '60', '--duration', '1h', '--start', '12:00'], {}, NOW).tsMode).toBe(
      'simulated',
    );
    expect(() => parseCli(['--ts', 'sim', '--start', '2026-06-01T00:00'], {}, NOW)).toThrow(/7 days/);
    expect(checkSimulatedTs(NOW - 3_600_000, 1, undefined, NOW)).toBeNull();
  });

  it('needs an administrator password to provision', () => {
    expect(() => parseCli(['--provision'], {}, NOW)).toThrow(/admin-password/);
    const o = parseCli(['--provision', '--provider-id', '7'], { VIGIL_ADMIN_PASSWORD: 'pw-from-env' }, NOW);
    expect(o).toMatchObject({ provision: true, adminUser: 'admin', adminPassword: 'pw-from-env', providerId: 7 });
    expect(parseCli(['--provision-only', '--admin-password', 'x'], {}, NOW)).toMatchObject({
      provision: true,
      provisionOnly: true,
    });
  });

  it('lists every device name and scenario in --help', () => {
    const text = usage();
    for (const k of KINDS) expect(text).toContain(`  ${k.short} `);
    for (const t of DEVICE_TYPES) expect(text).toContain(t.model);
    for (const s of SCENARIO_NAMES) expect(text).toContain(s);
    expect(text).toContain('--ts real|sim');
  });
});

describe('clock', () => {
  it('runs simulated time speed times faster from the start, ts on the wall clock by default', () => {
    let wall = NOW;
    const clock = new SimClock({ start: NOW - 86_400_000, speed: 60, realNow: () => wall });
    wall += 1000;
    expect(clock.simNow()).toBe(NOW - 86_400_000 + 60_000);
    expect(clock.ts()).toBe((NOW + 1000) / 1000);
    expect(clock.realDelayUntil(NOW - 86_400_000 + 120_000)).toBe(1000);
    const sim = new SimClock({ start: NOW - 86_400_000, speed: 60, tsMode: 'simulated', realNow: () => wall });
    wall += 1000;
    expect(sim.ts()).toBe((NOW - 86_400_000 + 60_000) / 1000);
  });

  it('parses durations and starts', () => {
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('30')).toBe(30_000);
    expect(() => parseDuration('soon')).toThrow();
    expect(parseStart('now', NOW)).toBe(NOW);
    expect(parseStart('2026-03-01T22:00', NOW)).toBe(new Date(2026, 2, 1, 22).getTime());
    expect(parseStart('13:30', NOW)).toBe(new Date(2026, 5, 10, 13, 30).getTime());
  });
});

describe('secrets', () => {
  it('derives a valid secret per device from seed and salt, for connecting devices only', () => {
    const plan = planFleet(parseDeviceCounts('sleep=2,door=2'));
    const a = secretsFor(plan, 'seed', 'salt');
    expect(Object.keys(a)).toEqual(connectingDevices(plan));
    expect(Object.keys(a)).not.toContain('SIM-DOR-0001');
    for (const s of Object.values(a)) expect(s).toMatch(DEVICE_SECRET_PATTERN);
    expect(secretsFor(plan, 'seed', 'salt')).toEqual(a);
    expect(secretsFor(plan, 'seed', 'other-salt')['SIM-SLP-0001']).not.toBe(a['SIM-SLP-0001']);
    expect(a['SIM-SLP-0001']).toBe(deriveSecret('seed', 'salt', 'SIM-SLP-0001'));
    const given = secretsFor(plan, 'seed', 'salt', { 'sim-slp-0002': 'given-secret-0123456789' });
    expect(given['SIM-SLP-0002']).toBe('given-secret-0123456789');
    expect(given['SIM-SLP-0001']).toBe(a['SIM-SLP-0001']);
  });
});
