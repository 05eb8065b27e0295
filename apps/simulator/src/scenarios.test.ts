import { createServer, type AddressInfo } from 'node:net';
import { Aedes } from 'aedes';
import { connect } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { parseStart } from './clock.ts';
import { startFleet, type ScenarioEvent } from './fleet.ts';
import { parseScenarios, scenarioTime } from './scenarios.ts';

const local = (h: number, m: number, day = 1) => new Date(2026, 2, day, h, m).getTime();

describe('scenario times', () => {
  it('reads name@HH:MM and name@+duration, defaulting to each scenario’s own time', () => {
    expect(parseScenarios('fall-at-3am,smoke@14:30,offline@+20m')).toEqual([
      { name: 'fall-at-3am' },
      { name: 'smoke', at: '14:30' },
      { name: 'offline', at: '+20m' },
    ]);
    expect(parseScenarios('all').map((s) => s.name)).toEqual(['fall-at-3am', 'smoke', 'offline', 'leave-bed', 'apnea']);
    expect(() => parseScenarios('earthquake')).toThrow(/unknown scenario/);
    expect(() => parseScenarios('smoke@noon')).toThrow(/HH:MM or \+duration/);
  });

  it('places HH:MM at its first occurrence at or after the simulated start', () => {
    expect(scenarioTime('03:00', local(2, 0))).toBe(local(3, 0));
    expect(scenarioTime('03:00', local(4, 0))).toBe(local(3, 0, 2));
    expect(scenarioTime('+90s', local(4, 0))).toBe(local(4, 1) + 30_000);
  });
});

describe('scripted scenarios on an accelerated clock', () => {
  it('plays a fall at 03:00, a resident leaving bed, smoke and a device going off line', async () => {
    const broker = await Aedes.createBroker();
    const server = createServer(broker.handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const watcher = connect(url, { clientId: 'watcher', reconnectPeriod: 0 });
    await new Promise((resolve) => watcher.once('connect', resolve));
    await watcher.subscribeAsync('vigil/#', { qos: 1 });
    const seen: { topic: string; body: Record<string, unknown> }[] = [];
    watcher.on('message', (topic, payload) => seen.push({ topic, body: JSON.parse(payload.toString()) }));
    const got = (id: string, kind: string, pred: (b: Record<string, unknown>) => boolean) =>
      seen.some((m) => m.topic === `vigil/v1/${id}/${kind}` && pred(m.body));

    // 02:58 simulated, four simulated minutes a real second.
    const fleet = await startFleet({
      url,
      devices: 'sleep=3,radar=2,door=2,smoke=1',
      prefix: 'S',
      seed: 'scenarios',
      speed: 240,
      start: parseStart('02:58', Date.now()),
      eventRate: 0,
      tickMs: 100,
      scenarios: 'fall-at-3am,leave-bed@02:59,smoke@+30s,offline@+3m',
    });
    const events: ScenarioEvent[] = [];
    const disconnected: string[] = [];
    fleet.on('scenario', (e) => events.push(e));
    fleet.on('disconnect', (id) => disconnected.push(id));
    try {
      const until = Date.now() + 8000;
      const done = () =>
        got('S-RDR-0001', 'event', (b) => b.event === 'fall') &&
        got('S-SMK-0001', 'event', (b) => b.event === 'smoke' && b.active === false) &&
        got('S-SLP-0002', 'telemetry', (b) => b.inBed === false) &&
        disconnected.includes('S-SLP-0003');
      while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));

      // The fall: suspected, then confirmed at 03:00; the resident is out of bed meanwhile.
      const radar = seen.filter((m) => m.topic === 'vigil/v1/S-RDR-0001/event').map((m) => m.body.event);
      expect(radar).toContain('fall_suspected');
      expect(radar.indexOf('fall')).toBeGreaterThan(radar.indexOf('fall_suspected'));
      expect(got('S-SLP-0001', 'telemetry', (b) => b.inBed === false && b.hr === 0 && b.rr === 0)).toBe(true);
      // Leaving bed: out of bed and the room's door opens.
      expect(got('S-SLP-0002', 'telemetry', (b) => b.inBed === false)).toBe(true);
      expect(got('S-DOR-0002', 'event', (b) => b.event === 'door' && b.open === true)).toBe(true);
      // Smoke, then cleared ten simulated minutes later.
      expect(got('S-SMK-0001', 'event', (b) => b.event === 'smoke' && b.active === true)).toBe(true);
      expect(got('S-SMK-0001', 'event', (b) => b.event === 'smoke' && b.active === false)).toBe(true);
      // Off line without a will.
      expect(disconnected).toContain('S-SLP-0003');
      expect(got('S-SLP-0003', 'status', (b) => b.online === false)).toBe(false);
      expect(fleet.devices.get('S-SLP-0003')?.connected).toBe(false);
      // Each step announced at its simulated time.
      const fall = events.find((e) => e.name === 'fall-at-3am' && e.label.endsWith(': fall'));
      expect(new Date(fall?.sim ?? 0).getHours()).toBe(3);
      expect(new Date(fall?.sim ?? 0).getMinutes()).toBe(0);
    } finally {
      await fleet.stop('abrupt');
      await watcher.endAsync(true);
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      server.close();
    }
  });
});
