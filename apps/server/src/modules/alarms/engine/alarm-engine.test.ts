import { defaultAlarmRules, RELEASE_KIND, type AlarmRules, type AlarmType, type DeviceKind } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { AlarmEngine, VITALS_GAP_MS } from './alarm-engine.ts';
import type { Decision, EventDecision, Subject, VitalsSample } from './engine-types.ts';
import { WATCH_CLOCK_SKEW_MS } from './watch-release.ts';

// Beds' local time is UTC here: 2026-11-26T00:00Z is midnight.
const MIDNIGHT = Date.UTC(2026, 10, 26);
const at = (hhmm: string, seconds = 0) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return new Date(MIDNIGHT + (h * 60 + m) * 60_000 + seconds * 1000);
};
const minuteOfDay = (d: Date) => Math.floor((d.getTime() - MIDNIGHT) / 60_000) % 1440;

const subject = (kind: DeviceKind, over: Partial<Subject> = {}, rules: Partial<AlarmRules> = {}): Subject => ({
  deviceId: `${kind.toUpperCase()}-1`,
  kind,
  typeCode: 0,
  deviceRowId: 1,
  providerId: 7,
  bedId: 3,
  residentId: 11,
  roomId: null,
  areaId: null,
  caregiverId: null,
  occupied: true,
  absent: false,
  rules: { ...defaultAlarmRules(), ...rules },
  ...over,
});

const calm: VitalsSample = { hr: 64, rr: 15, inBed: true, move: 40 };

/** Feeds one sample a second from `from` for `seconds`, collecting every decision. */
const feed = (engine: AlarmEngine, s: Subject, sample: VitalsSample, from: Date, seconds: number): Decision[] => {
  const out: Decision[] = [];
  for (let i = 0; i < seconds; i++) out.push(...engine.vitals(s, sample, new Date(from.getTime() + i * 1000)));
  return out;
};

const raises = (ds: EventDecision[]) => ds.filter((d) => d.op === 'raise').map((d) => d.key.type);
const releases = (ds: EventDecision[]) =>
  ds.flatMap((d) => (d.op === 'release' ? [{ type: d.key.type, kind: d.kind }] : []));

describe('sleep-monitor duration alarms', () => {
  const cases: {
    type: AlarmType;
    sample: VitalsSample;
    duration: number;
    clears: VitalsSample;
    value: number;
  }[] = [
    { type: 'LEAVE_BED', sample: { ...calm, inBed: false, hr: 0, rr: 0 }, duration: 600, clears: calm, value: 0 },
    { type: 'BREATH_STOP', sample: { ...calm, rr: 0 }, duration: 30, clears: calm, value: 0 },
    { type: 'BODY_MOVE', sample: { ...calm, move: 75 }, duration: 120, clears: calm, value: 75 },
    { type: 'NO_BODY_MOVE', sample: { ...calm, move: 0 }, duration: 3600, clears: calm, value: 0 },
    { type: 'BREATH_ABNORMAL', sample: { ...calm, rr: 34 }, duration: 120, clears: calm, value: 34 },
    { type: 'HEART_ABNORMAL', sample: { ...calm, hr: 135 }, duration: 120, clears: calm, value: 135 },
  ];
  for (const c of cases) {
    it(`${c.type}: raised once after its duration, released automatically when it clears`, () => {
      const engine = new AlarmEngine(minuteOfDay);
      const s = subject('sleep_monitor');
      const start = at('02:00');
      const before = feed(engine, s, c.sample, start, c.duration);
      expect(raises(before)).not.toContain(c.type);
      const due = engine.vitals(s, c.sample, new Date(start.getTime() + c.duration * 1000));
      const raised = due.find((d) => d.op === 'raise' && d.key.type === c.type);
      expect(raised).toMatchObject({ since: start, detail: { duration: c.duration, value: c.value } });
      // Held on: no second raise in the same spell.
      const later = feed(engine, s, c.sample, new Date(start.getTime() + (c.duration + 1) * 1000), 30);
      expect(raises(later)).not.toContain(c.type);
      expect(engine.openTypes(s.deviceId).has(c.type)).toBe(true);
      const cleared = engine.vitals(s, c.clears, new Date(start.getTime() + (c.duration + 40) * 1000));
      expect(releases(cleared)).toContainEqual({ type: c.type, kind: RELEASE_KIND.automatic });
      expect(engine.openTypes(s.deviceId).has(c.type)).toBe(false);
    });
  }

  it('NO_TURN_OVER: little movement for two hours; one turn resets the count', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor');
    const still = { ...calm, move: 10 };
    const t0 = at('01:00');
    // One turn an hour in: the spell starts again from there.
    expect(raises(feed(engine, s, still, t0, 3600))).toEqual([]);
    engine.vitals(s, { ...calm, move: 50 }, new Date(t0.getTime() + 3600_000));
    const t1 = new Date(t0.getTime() + 3601_000);
    expect(raises(feed(engine, s, still, t1, 7199))).toEqual([]);
    expect(raises(engine.vitals(s, still, new Date(t1.getTime() + 7200_000)))).toEqual(['NO_TURN_OVER']);
  });

  it('uses the bed’s thresholds: a lower heart limit and a shorter duration', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject(
      'sleep_monitor',
      {},
      { heartMin: 50, durations: { ...defaultAlarmRules().durations, heartExceptionDuration: 10 } },
    );
    const slow = { ...calm, hr: 45 };
    expect(raises(feed(engine, s, slow, at('03:00'), 11))).toEqual(['HEART_ABNORMAL']);
    const other = new AlarmEngine(minuteOfDay);
    // With the defaults (40–120), 45 is normal.
    expect(raises(feed(other, subject('sleep_monitor'), slow, at('03:00'), 200))).toEqual([]);
  });

  it('a zero reading is "none measured": never abnormal, only a breathing stop when in bed', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor');
    const ds = feed(engine, s, { ...calm, hr: 0, rr: 0, inBed: false }, at('10:00'), 200);
    expect(raises(ds)).not.toContain('HEART_ABNORMAL');
    expect(raises(ds)).not.toContain('BREATH_STOP');
  });

  it('watches a type only inside its time range, across midnight; an open alarm outlives the range', () => {
    const rules = defaultAlarmRules();
    const s = subject(
      'sleep_monitor',
      {},
      {
        ranges: { ...rules.ranges, LEAVE_BED: { start: '22:00', end: '06:00' } },
        durations: { ...rules.durations, leftBedTime: 60 },
      },
    );
    const out = { ...calm, inBed: false, hr: 0, rr: 0 };
    const day = new AlarmEngine(minuteOfDay);
    expect(raises(feed(day, s, out, at('14:00'), 300))).toEqual([]);
    const night = new AlarmEngine(minuteOfDay);
    expect(raises(feed(night, s, out, at('23:30'), 61))).toEqual(['LEAVE_BED']);
    const earlyMorning = new AlarmEngine(minuteOfDay);
    const ds = feed(earlyMorning, s, out, at('05:58'), 200);
    expect(raises(ds)).toEqual(['LEAVE_BED']);
    // 06:00 has passed and the resident is still out: the alarm stays until they are back.
    expect(releases(ds)).toEqual([]);
    expect(releases(earlyMorning.vitals(s, calm, at('06:10')))).toEqual([
      { type: 'LEAVE_BED', kind: RELEASE_KIND.automatic },
    ]);
  });

  it('a resident on a temporary absence raises no bed-leaving alarm; other alarms still count', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const away = subject('sleep_monitor', { absent: true }, {});
    expect(raises(feed(engine, away, { ...calm, inBed: false }, at('02:00'), 700))).toEqual([]);
    expect(raises(feed(engine, away, { ...calm, rr: 0 }, at('04:00'), 31))).toEqual(['BREATH_STOP']);
  });

  it('a checked-out bed raises no sleep-monitor alarm, but its device still reports offline and a loose mat', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const empty = subject('sleep_monitor', { occupied: false, residentId: null });
    expect(raises(feed(engine, empty, { ...calm, rr: 0 }, at('02:00'), 300))).toEqual([]);
    expect(raises(engine.vitals(empty, { ...calm, mat: 'dislodged' }, at('03:00')))).toEqual(['MAT_DISLODGED']);
    expect(
      raises(engine.event(empty, { name: 'offline', detail: { reason: 'lost' }, at: at('03:01') }, at('03:01'))),
    ).toEqual(['CONNECTION']);
  });

  it('a type switched off in the settings is never raised', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor', {}, { off: ['BREATH_STOP'] });
    expect(raises(feed(engine, s, { ...calm, rr: 0 }, at('02:00'), 300))).toEqual([]);
  });

  it('never counts a duration across a silence: a gap in the vitals starts the spell again', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor');
    const stop = { ...calm, rr: 0 };
    const t0 = at('02:00');
    expect(raises(feed(engine, s, stop, t0, 20))).toEqual([]);
    const after = new Date(t0.getTime() + 20_000 + VITALS_GAP_MS + 1000);
    expect(raises(feed(engine, s, stop, after, 30))).toEqual([]);
    expect(raises(engine.vitals(s, stop, new Date(after.getTime() + 30_000)))).toEqual(['BREATH_STOP']);
  });

  it('tick raises a duration that ran out between samples, but not for a device gone silent', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor');
    const t0 = at('02:00');
    feed(engine, s, { ...calm, rr: 0 }, t0, 25);
    expect(raises(engine.tick(new Date(t0.getTime() + 30_000)))).toEqual(['BREATH_STOP']);
    const quiet = new AlarmEngine(minuteOfDay);
    feed(quiet, s, { ...calm, rr: 0 }, t0, 25);
    expect(raises(quiet.tick(new Date(t0.getTime() + 24_000 + VITALS_GAP_MS + 1000)))).toEqual([]);
  });

  it('a handled alarm is not raised again while its condition holds, and is raised in the next spell', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor');
    const stop = { ...calm, rr: 0 };
    const t0 = at('02:00');
    expect(raises(feed(engine, s, stop, t0, 31))).toEqual(['BREATH_STOP']);
    engine.closed({ deviceId: s.deviceId, type: 'BREATH_STOP' }, 'handled');
    const held = feed(engine, s, stop, new Date(t0.getTime() + 31_000), 60);
    expect(raises(held)).toEqual([]);
    // Cleared: nothing to release (it is handled already); a new spell raises again.
    expect(releases(engine.vitals(s, calm, new Date(t0.getTime() + 92_000)))).toEqual([]);
    expect(raises(feed(engine, s, stop, new Date(t0.getTime() + 93_000), 31))).toEqual(['BREATH_STOP']);
  });

  it('an alarm whose raise was not stored is decided afresh on the next sample', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor');
    const stop = { ...calm, rr: 0 };
    const t0 = at('02:00');
    expect(raises(feed(engine, s, stop, t0, 31))).toEqual(['BREATH_STOP']);
    engine.closed({ deviceId: s.deviceId, type: 'BREATH_STOP' }, 'not stored');
    expect(raises(engine.vitals(s, stop, new Date(t0.getTime() + 31_000)))).toEqual(['BREATH_STOP']);
  });

  it('after a restart, a restored open alarm is neither raised again nor forgotten', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor');
    const since = at('01:50');
    engine.restore([{ key: { deviceId: s.deviceId, type: 'LEAVE_BED' }, subject: s, since }]);
    const out = { ...calm, inBed: false, hr: 0, rr: 0 };
    expect(raises(feed(engine, s, out, at('02:00'), 700))).toEqual([]);
    expect(releases(engine.vitals(s, calm, at('02:30')))).toEqual([
      { type: 'LEAVE_BED', kind: RELEASE_KIND.automatic },
    ]);
  });
});

describe('several instances and restarts', () => {
  const stop = { ...calm, rr: 0 };

  it('an alarm another instance raised is held open here and released when its condition clears here', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor');
    const t0 = at('02:00');
    feed(engine, s, stop, t0, 10);
    // Relayed: instance A raised it; this instance's share of the samples had not reached 30 s.
    engine.restore([{ key: { deviceId: s.deviceId, type: 'BREATH_STOP' }, subject: s, since: t0 }]);
    expect(raises(feed(engine, s, stop, new Date(t0.getTime() + 10_000), 40))).toEqual([]);
    expect(releases(engine.vitals(s, calm, new Date(t0.getTime() + 50_000)))).toEqual([
      { type: 'BREATH_STOP', kind: RELEASE_KIND.automatic },
    ]);
  });

  it('a spell released elsewhere is not raised again here while its condition holds', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor');
    const t0 = at('02:00');
    feed(engine, s, stop, t0, 20);
    engine.closed({ deviceId: s.deviceId, type: 'BREATH_STOP' }, 'released elsewhere');
    expect(raises(feed(engine, s, stop, new Date(t0.getTime() + 20_000), 40))).toEqual([]);
    engine.vitals(s, calm, new Date(t0.getTime() + 60_000));
    expect(raises(feed(engine, s, stop, new Date(t0.getTime() + 61_000), 31))).toEqual(['BREATH_STOP']);
  });

  it('conditions are raised as not counted, new occurrences as counted', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const bed = subject('sleep_monitor');
    const [spell] = feed(engine, bed, stop, at('02:00'), 31).filter((d) => d.op === 'raise');
    expect(spell).toMatchObject({ key: { type: 'BREATH_STOP' }, counts: false });
    const button = subject('emergency_button');
    const [sos] = engine.event(button, { name: 'sos', detail: {}, at: at('02:00') }, at('02:00'));
    expect(sos).toMatchObject({ key: { type: 'SOS' }, counts: true });
    const [offline] = engine.event(button, { name: 'offline', detail: {}, at: at('02:00') }, at('02:00'));
    expect(offline).toMatchObject({ key: { type: 'CONNECTION' }, counts: false });
  });

  it('spells that ran a while are reported for writing, and a restart resumes them once a sample confirms', () => {
    const first = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor');
    const out = { ...calm, inBed: false, hr: 0, rr: 0 };
    const t0 = at('02:00');
    feed(first, s, out, t0, 480);
    const now = new Date(t0.getTime() + 480_000);
    const spells = first.spells(now, 30_000);
    expect(spells.get(s.deviceId)).toEqual({ LEAVE_BED: t0.getTime() });
    // Short spells are not worth writing.
    expect(first.spells(new Date(t0.getTime() + 20_000), 30_000).size).toBe(0);

    const second = new AlarmEngine(minuteOfDay);
    const restart = new Date(now.getTime() + 15_000);
    second.resume(s, spells.get(s.deviceId) ?? {}, restart);
    // No sample yet: the clock is not trusted enough to raise on.
    expect(raises(second.tick(new Date(t0.getTime() + 700_000)))).toEqual([]);
    // The next sample confirms it: ten minutes since t0 come 105 s later, not ten minutes later.
    const resumed = feed(second, s, out, new Date(restart.getTime() + 5_000), 101);
    expect(raises(resumed)).toEqual(['LEAVE_BED']);
    expect(resumed.find((d) => d.op === 'raise')).toMatchObject({ since: t0 });
  });

  it('a resumed spell the first sample contradicts starts over', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor');
    const out = { ...calm, inBed: false, hr: 0, rr: 0 };
    const t0 = at('02:00');
    const restart = new Date(t0.getTime() + 590_000);
    engine.resume(s, { LEAVE_BED: t0.getTime() }, restart);
    engine.vitals(s, calm, new Date(restart.getTime() + 1_000));
    expect(raises(feed(engine, s, out, new Date(restart.getTime() + 2_000), 60))).toEqual([]);
  });
});

describe('event alarms', () => {
  const event = (
    engine: AlarmEngine,
    s: Subject,
    name: string,
    detail: Record<string, unknown> = {},
    when = at('12:00'),
  ) => engine.event(s, { name, detail, at: when }, when);

  it.each([
    ['fall', 'fall_radar', 'FALL'],
    ['fall_suspected', 'fall_radar', 'FALL_SUSPECTED'],
    ['sitting_up_suspected', 'fall_radar', 'SITTING_UP'],
    ['sos', 'emergency_button', 'SOS'],
    ['badge_sos', 'badge', 'BADGE_SOS'],
    ['low_battery', 'door_magnet', 'LOW_BATTERY'],
  ] as const)(
    '%s raises %s, and a repeat is another raise of the same key (stored as a repeat)',
    (name, kind, type) => {
      const engine = new AlarmEngine(minuteOfDay);
      const s = subject(kind);
      const first = event(engine, s, name);
      expect(first).toMatchObject([{ op: 'raise', key: { deviceId: s.deviceId, type }, since: at('12:00') }]);
      expect(raises(event(engine, s, name, {}, at('12:00', 0.005)))).toEqual([type]);
    },
  );

  it('a fall in the room of a checked-out bed is still raised: someone is on the floor', () => {
    const engine = new AlarmEngine(minuteOfDay);
    expect(raises(event(engine, subject('fall_radar', { occupied: false }), 'fall'))).toEqual(['FALL']);
  });

  it('the radar cancelling its fall releases the fall alarms at the device (kind 3)', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('fall_radar');
    event(engine, s, 'fall_suspected');
    event(engine, s, 'sitting_up_suspected');
    // Released whatever the engine holds open: the store releases only what is open there.
    expect(releases(event(engine, s, 'fall_cancelled'))).toEqual([
      { type: 'FALL', kind: RELEASE_KIND.device },
      { type: 'FALL_SUSPECTED', kind: RELEASE_KIND.device },
      { type: 'SITTING_UP', kind: RELEASE_KIND.device },
    ]);
  });

  it.each([
    ['device_release', RELEASE_KIND.device],
    ['watch_release', RELEASE_KIND.watch],
  ] as const)('%s releases the open call alarms with kind %i, not the device’s own faults', (name, kind) => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('badge');
    event(engine, s, 'badge_sos');
    event(engine, s, 'low_battery');
    const released = releases(event(engine, s, name));
    expect(released).toContainEqual({ type: 'BADGE_SOS', kind });
    expect(released.every((r) => r.kind === kind)).toBe(true);
    expect(released.map((r) => r.type)).not.toContain('LOW_BATTERY');
    expect(released.map((r) => r.type)).not.toContain('CONNECTION');
    expect([...engine.openTypes(s.deviceId)]).toEqual(['LOW_BATTERY']);
  });

  it.each([
    [{ alarmId: 5012 }, { alarmId: 5012, deviceId: null }],
    [{ deviceId: 'BTN-7' }, { alarmId: null, deviceId: 'BTN-7' }],
    [{ deviceId: 'btn-7' }, { alarmId: null, deviceId: 'BTN-7' }],
    [
      { alarmId: 5012, deviceId: 'BTN-7' },
      { alarmId: 5012, deviceId: 'BTN-7' },
    ],
  ])('a watch release naming %j releases that alarm at the watch, not a device’s faults', (named, target) => {
    const engine = new AlarmEngine(minuteOfDay);
    const watch = subject('nurse_watch', { bedId: null, residentId: null, occupied: false });
    const resident = subject('emergency_button', { deviceId: 'BTN-7' });
    event(engine, resident, 'sos');
    event(engine, watch, 'badge_sos');
    const pressed = at('12:03');
    const [decided, ...more] = event(engine, watch, 'watch_release', named, pressed);
    expect(more).toEqual([]);
    expect(decided).toMatchObject({
      op: 'watch-release',
      watch: { deviceId: watch.deviceId, providerId: 7 },
      target,
      startedBy: new Date(pressed.getTime() + WATCH_CLOCK_SKEW_MS),
      at: pressed,
    });
    if (decided?.op !== 'watch-release') throw new Error('a watch release');
    expect(decided.types).toContain('SOS');
    expect(decided.types).not.toContain('LOW_BATTERY');
    expect(decided.types).not.toContain('CONNECTION');
    // The watch's own alarm is not what it named; nothing is taken back of what the engine holds.
    expect(engine.openTypes(watch.deviceId).has('BADGE_SOS')).toBe(true);
    engine.undo([decided]);
    expect(engine.openTypes(resident.deviceId).has('SOS')).toBe(true);
  });

  it('a watch release naming something unreadable names nothing: the watch’s own, as the first watches’', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const watch = subject('nurse_watch');
    event(engine, watch, 'badge_sos');
    expect(releases(event(engine, watch, 'watch_release', { alarmId: 0, deviceId: '' }))).toContainEqual({
      type: 'BADGE_SOS',
      kind: RELEASE_KIND.watch,
    });
  });

  it.each([
    ['smoke', 'smoke_sensor', 'SMOKE'],
    ['gas', 'gas_sensor', 'GAS'],
    ['co', 'co_sensor', 'CO'],
    ['flood', 'flood_sensor', 'FLOOD'],
  ] as const)('%s active raises %s; inactive releases it automatically', (name, kind, type) => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject(kind, { bedId: null, residentId: null, occupied: false });
    expect(raises(event(engine, s, name, { active: true }))).toEqual([type]);
    expect(releases(event(engine, s, name, { active: false }))).toEqual([{ type, kind: RELEASE_KIND.automatic }]);
    // After a restart the engine may not know the alarm is open: the release is decided anyway.
    expect(
      releases(
        new AlarmEngine(minuteOfDay).event(s, { name, detail: { active: false }, at: at('12:00') }, at('12:00')),
      ),
    ).toEqual([{ type, kind: RELEASE_KIND.automatic }]);
  });

  it('a door opened inside its time range raises DOOR (22:00–06:00 by default); outside it, nothing', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('door_magnet');
    expect(event(engine, s, 'door', { open: true }, at('15:00'))).toEqual([]);
    expect(raises(event(engine, s, 'door', { open: true }, at('23:15')))).toEqual(['DOOR']);
    expect(raises(event(engine, s, 'door', { open: true }, at('05:59')))).toEqual(['DOOR']);
    // Closing the door does not release it: someone went out at night, a caregiver checks.
    expect(event(engine, s, 'door', { open: false }, at('06:01'))).toEqual([]);
    const custom = subject('door_magnet', {}, { doorRange: { start: '12:00', end: '13:00' } });
    expect(
      raises(
        new AlarmEngine(minuteOfDay).event(
          custom,
          { name: 'door', detail: { open: true }, at: at('12:30') },
          at('12:30'),
        ),
      ),
    ).toEqual(['DOOR']);
  });

  it.each([8, 12, 24] as const)(
    'an infrared sensor with no motion for %i h raises NO_MOTION once; motion releases it',
    (hours) => {
      const engine = new AlarmEngine(minuteOfDay);
      const s = subject('infrared_motion', {}, { noMotionHours: hours });
      engine.watchMotion(s, at('00:00'));
      event(engine, s, 'motion', {}, at('01:00'));
      const due = new Date(at('01:00').getTime() + hours * 3_600_000);
      expect(engine.tick(new Date(due.getTime() - 1000))).toEqual([]);
      const raised = engine.tick(due);
      expect(raised).toMatchObject([
        { op: 'raise', key: { type: 'NO_MOTION' }, since: at('01:00'), detail: { hours } },
      ]);
      expect(engine.tick(new Date(due.getTime() + 60_000))).toEqual([]);
      expect(releases(event(engine, s, 'motion', {}, new Date(due.getTime() + 120_000)))).toEqual([
        { type: 'NO_MOTION', kind: RELEASE_KIND.automatic },
      ]);
    },
  );

  it('offline raises CONNECTION with its reason; online releases it automatically', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('gateway_host');
    expect(event(engine, s, 'offline', { reason: 'silent' })).toMatchObject([
      { op: 'raise', key: { type: 'CONNECTION' }, detail: { reason: 'silent' } },
    ]);
    expect(releases(event(engine, s, 'online'))).toEqual([{ type: 'CONNECTION', kind: RELEASE_KIND.automatic }]);
  });

  it('the mat event raises and clears MAT_DISLODGED; a repeat while open raises nothing new', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor');
    expect(raises(event(engine, s, 'mat', { state: 'dislodged' }))).toEqual(['MAT_DISLODGED']);
    expect(engine.vitals(s, { ...calm, mat: 'dislodged' }, at('12:00', 1))).toEqual([]);
    expect(releases(event(engine, s, 'mat', { state: 'connected' }, at('12:05')))).toEqual([
      { type: 'MAT_DISLODGED', kind: RELEASE_KIND.automatic },
    ]);
  });

  it('battery at or below the limit raises LOW_BATTERY once; twice the limit releases it', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('door_magnet');
    expect(raises(engine.battery(s, 15, at('12:00')))).toEqual(['LOW_BATTERY']);
    expect(engine.battery(s, 12, at('12:10'))).toEqual([]);
    expect(engine.battery(s, 25, at('12:20'))).toEqual([]);
    expect(releases(engine.battery(s, 30, at('12:30')))).toEqual([
      { type: 'LOW_BATTERY', kind: RELEASE_KIND.automatic },
    ]);
  });

  it('events it has no rule for raise nothing', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('badge');
    expect(event(engine, s, 'position', { lat: 1, lng: 2 })).toEqual([]);
    expect(event(engine, s, 'presence', { occupied: true })).toEqual([]);
  });
});

describe('undo', () => {
  it('takes back a rolled-back raise and release, so the retried input decides them again', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor');
    const loose = engine.event(s, { name: 'mat', detail: { state: 'dislodged' }, at: at('12:00') }, at('12:00'));
    engine.undo(loose);
    expect(
      raises(engine.event(s, { name: 'mat', detail: { state: 'dislodged' }, at: at('12:00') }, at('12:00'))),
    ).toEqual(['MAT_DISLODGED']);
    const back = engine.vitals(s, { ...calm, mat: 'connected' }, at('12:01'));
    expect(releases(back)).toEqual([{ type: 'MAT_DISLODGED', kind: RELEASE_KIND.automatic }]);
    engine.undo(back);
    expect(engine.openTypes(s.deviceId).has('MAT_DISLODGED')).toBe(true);
  });
});

describe('the figure an alarm is raised with (issue 29, point 4)', () => {
  const raisedWith = (ds: EventDecision[], type: AlarmType) => {
    const d = ds.find((x) => x.op === 'raise' && x.key.type === type);
    return d?.op === 'raise' ? d.measure : undefined;
  };

  it.each([
    { hr: 58, heartMin: 75, limit: 75, side: 'below' },
    { hr: 131, heartMin: 40, limit: 120, side: 'above' },
  ] as const)('a heart rate of $hr: the value, the bed’s limit it crossed ($side) and for how long', (c) => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor', {}, { heartMin: c.heartMin, heartMax: 120 });
    const start = at('02:00');
    const ds = feed(engine, s, { ...calm, hr: c.hr }, start, 121);
    expect(raisedWith(ds, 'HEART_ABNORMAL')).toEqual({
      quantity: 'heartRate',
      value: c.hr,
      limit: c.limit,
      side: c.side,
      seconds: 120,
    });
  });

  it('breathing: a rate out of range names its limit; a stop names 0 /min and how long, no limit', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor', {}, { breathMin: 10 });
    const fast = feed(engine, s, { ...calm, rr: 6 }, at('02:00'), 121);
    expect(raisedWith(fast, 'BREATH_ABNORMAL')).toEqual({
      quantity: 'breathRate',
      value: 6,
      limit: 10,
      side: 'below',
      seconds: 120,
    });
    const other = subject('sleep_monitor', { deviceId: 'SLEEP-2' });
    const stop = feed(engine, other, { ...calm, rr: 0 }, at('03:00'), 46);
    expect(raisedWith(stop, 'BREATH_STOP')).toEqual({
      quantity: 'breathRate',
      value: 0,
      limit: null,
      side: null,
      seconds: 30,
    });
  });

  it('much movement names its level and limit; out of bed only how long', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const s = subject('sleep_monitor');
    expect(raisedWith(feed(engine, s, { ...calm, move: 75 }, at('02:00'), 121), 'BODY_MOVE')).toEqual({
      quantity: 'movement',
      value: 75,
      limit: 60,
      side: 'above',
      seconds: 120,
    });
    const away = subject('sleep_monitor', { deviceId: 'SLEEP-3' });
    const out = feed(engine, away, { ...calm, inBed: false, hr: 0, rr: 0 }, at('04:00'), 601);
    expect(raisedWith(out, 'LEAVE_BED')).toEqual({
      quantity: null,
      value: null,
      limit: null,
      side: null,
      seconds: 600,
    });
  });

  it('a low battery names the level and the limit; an empty room how long it was quiet', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const sensor = subject('door_magnet');
    expect(raisedWith(engine.battery(sensor, 12, at('12:00')), 'LOW_BATTERY')).toEqual({
      quantity: 'battery',
      value: 12,
      limit: 15,
      side: 'below',
      seconds: null,
    });
    const room = subject('infrared_motion', {}, { noMotionHours: 8 });
    engine.watchMotion(room, at('00:00'));
    expect(raisedWith(engine.tick(at('08:00')), 'NO_MOTION')).toMatchObject({ seconds: 8 * 3600 });
  });

  it('an event has no figure: a fall, an SOS press, smoke', () => {
    const engine = new AlarmEngine(minuteOfDay);
    const event = (kind: DeviceKind, name: string, detail: Record<string, unknown> = {}) =>
      engine.event(subject(kind), { name, detail, at: at('12:00') }, at('12:00'));
    expect(raisedWith(event('fall_radar', 'fall'), 'FALL')).toBeNull();
    expect(raisedWith(event('emergency_button', 'sos'), 'SOS')).toBeNull();
    expect(raisedWith(event('smoke_sensor', 'smoke', { active: true }), 'SMOKE')).toBeNull();
  });
});
