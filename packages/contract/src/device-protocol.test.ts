import { describe, expect, it } from 'vitest';
import {
  ALARM_FLAG_EVENTS,
  BARE_EVENTS,
  fastTelemetry,
  MAX_PAYLOAD_BYTES,
  parseDeviceMessage,
  parseTopic,
  TelemetrySchema,
  topicOf,
  type DropReason,
} from './device-protocol.ts';

const NOW = 1_795_000_000; // 2026-11-18, seconds
const bytes = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));
const parse = (kind: string, body: unknown, deviceId = 'SLP-0001') =>
  parseDeviceMessage(`vigil/v1/${deviceId}/${kind}`, bytes(body), NOW);
const reasonOf = (result: ReturnType<typeof parseDeviceMessage>): DropReason | 'ok' =>
  result.ok ? 'ok' : result.reason;

const vitals = { ts: NOW, seq: 1, hr: 62, rr: 14, inBed: true, asleep: true, move: 3 };

describe('device topics', () => {
  it('reads the device and kind of the four device topics, and builds the command topic', () => {
    expect(parseTopic('vigil/v1/SLP-0001/telemetry')).toEqual({ deviceId: 'SLP-0001', kind: 'telemetry' });
    for (const kind of ['event', 'status', 'ack'] as const) {
      expect(parseTopic(topicOf('GW-7', kind))).toEqual({ deviceId: 'GW-7', kind });
    }
    expect(topicOf('SLP-0001', 'cmd')).toBe('vigil/v1/SLP-0001/cmd');
  });

  it.each([
    'vigil/v1/SLP-0001/cmd',
    'vigil/v2/SLP-0001/telemetry',
    'vigil/v1/SLP-0001/telemetry/extra',
    'vigil/v1//telemetry',
    'vigil/v1/SLP 0001/telemetry',
    'vigil/v1/+/telemetry',
    `vigil/v1/${'A'.repeat(65)}/telemetry`,
    'other/v1/SLP-0001/telemetry',
  ])('refuses %s', (topic) => {
    expect(parseTopic(topic)).toBeNull();
    expect(reasonOf(parseDeviceMessage(topic, bytes(vitals), NOW))).toBe('topic');
  });
});

describe('device messages', () => {
  it('reads sleep-monitor telemetry, with beat intervals and mat state when sent', () => {
    expect(parse('telemetry', vitals)).toEqual({
      ok: true,
      message: { deviceId: 'SLP-0001', kind: 'telemetry', body: vitals },
    });
    const full = { ...vitals, ts: NOW + 0.25, rri: [950, 1010, 980], mat: 'dislodged' };
    expect(parse('telemetry', full)).toMatchObject({ ok: true, message: { body: full } });
  });

  it('reads every event the protocol names, each with what it carries', () => {
    for (const event of BARE_EVENTS) {
      expect(reasonOf(parse('event', { ts: NOW, seq: 2, event })), event).toBe('ok');
    }
    for (const event of ALARM_FLAG_EVENTS) {
      expect(reasonOf(parse('event', { ts: NOW, seq: 2, event, active: true })), event).toBe('ok');
      expect(reasonOf(parse('event', { ts: NOW, seq: 2, event })), `${event} without active`).toBe('schema');
    }
    expect(reasonOf(parse('event', { ts: NOW, seq: 3, event: 'presence', occupied: false }))).toBe('ok');
    expect(reasonOf(parse('event', { ts: NOW, seq: 3, event: 'door', open: true }))).toBe('ok');
    expect(reasonOf(parse('event', { ts: NOW, seq: 3, event: 'mat', state: 'connected' }))).toBe('ok');
    expect(reasonOf(parse('event', { ts: NOW, seq: 3, event: 'position', lat: 31.23, lng: 121.47, accuracy: 8 }))).toBe(
      'ok',
    );
    expect(reasonOf(parse('event', { ts: NOW, seq: 3, event: 'position', lat: 91, lng: 0 }))).toBe('schema');
  });

  it('reads a watch release as the first watches send it, and naming the alarm or the device it releases', () => {
    const release = { ts: NOW, seq: 4, event: 'watch_release' };
    for (const named of [{}, { alarmId: 5012 }, { deviceId: 'BTN-0007' }, { alarmId: 5012, deviceId: 'BTN-0007' }]) {
      expect(parse('event', { ...release, ...named }, 'WCH-0001')).toMatchObject({
        ok: true,
        message: { kind: 'event', body: { ...release, ...named } },
      });
    }
    for (const bad of [{ alarmId: 0 }, { alarmId: 1.5 }, { alarmId: '5012' }, { deviceId: 'BTN 7' }, { alarm: 5012 }]) {
      expect(reasonOf(parse('event', { ...release, ...bad }, 'WCH-0001')), JSON.stringify(bad)).toBe('schema');
    }
  });

  it('reads status (the last will has no seq) and command acknowledgements', () => {
    const status = { ts: NOW, seq: 9, online: true, battery: 80, signal: -71, fw: '2.3.1', hw: 'B' };
    expect(parse('status', status)).toMatchObject({ ok: true, message: { kind: 'status', body: status } });
    expect(reasonOf(parse('status', { ts: NOW, online: false }))).toBe('ok');
    expect(parse('ack', { id: 41, ok: false, error: 'busy' })).toMatchObject({
      ok: true,
      message: { kind: 'ack', body: { id: 41, ok: false, error: 'busy' } },
    });
  });

  it('drops bad input with its reason, never throwing', () => {
    const cases: [string, Uint8Array, DropReason][] = [
      ['telemetry', new Uint8Array(MAX_PAYLOAD_BYTES + 1).fill(0x20), 'oversize'],
      ['telemetry', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), 'encoding'],
      ['telemetry', new TextEncoder().encode('{"ts": 1795000000, "seq": 1,'), 'json'],
      ['telemetry', bytes([vitals]), 'not_object'],
      ['telemetry', bytes('hello'), 'not_object'],
      ['telemetry', bytes(null), 'not_object'],
      ['telemetry', bytes({ ...vitals, ts: undefined }), 'ts_missing'],
      ['telemetry', bytes({ ...vitals, seq: undefined }), 'seq_missing'],
      ['event', bytes({ ts: NOW, event: 'sos' }), 'seq_missing'],
      ['status', bytes({ online: true }), 'ts_missing'],
      ['telemetry', bytes({ ...vitals, ts: NOW + 301 }), 'ts_future'],
      ['telemetry', bytes({ ...vitals, ts: NOW - 8 * 24 * 3600 }), 'ts_past'],
      ['telemetry', bytes({ ...vitals, ts: 1_795_000_000_000 }), 'ts_future'],
      ['event', bytes({ ts: NOW, seq: 1, event: 'teleport' }), 'unknown_event'],
      ['event', bytes({ ts: NOW, seq: 1 }), 'unknown_event'],
      ['telemetry', bytes({ ...vitals, hr: '62' }), 'schema'],
      ['telemetry', bytes({ ...vitals, hr: 62.5 }), 'schema'],
      ['telemetry', bytes({ ...vitals, move: 101 }), 'schema'],
      ['telemetry', bytes({ ...vitals, seq: -1 }), 'schema'],
      ['telemetry', bytes({ ...vitals, ts: '1795000000' }), 'schema'],
      ['telemetry', bytes({ ...vitals, extra: 1 }), 'schema'],
      ['telemetry', bytes({ ...vitals, mat: 'lost' }), 'schema'],
      ['telemetry', bytes({ ...vitals, rri: new Array(601).fill(900) }), 'schema'],
      ['event', bytes({ ts: NOW, seq: 1, event: 'door' }), 'schema'],
      ['ack', bytes({ ok: true }), 'schema'],
      ['ack', bytes({ id: 0, ok: true }), 'schema'],
    ];
    for (const [kind, payload, reason] of cases) {
      const result = parseDeviceMessage(`vigil/v1/SLP-0001/${kind}`, payload, NOW);
      expect(reasonOf(result), `${kind} ${new TextDecoder().decode(payload.slice(0, 60))}`).toBe(reason);
    }
  });

  it('survives thousands of random payloads with a reason for each', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pieces = [
      '{',
      '}',
      '"ts":',
      '"seq":',
      String(NOW),
      '1',
      '"event":"sos"',
      ',',
      '[',
      ']',
      '"hr":',
      'null',
      '\u0000',
    ];
    for (let i = 0; i < 3000; i++) {
      const text = Array.from(
        { length: Math.floor(random() * 12) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join('');
      const kind = ['telemetry', 'event', 'status', 'ack'][i % 4] ?? 'telemetry';
      const result = parseDeviceMessage(`vigil/v1/SLP-0001/${kind}`, new TextEncoder().encode(text), NOW);
      expect(result.ok || typeof result.reason === 'string').toBe(true);
    }
  });

  it('reads telemetry by hand exactly as the schema does: never accepting more, never answering differently', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
    // Each field's values at and around its bounds, and of wrong types.
    const near = (min: number, max: number) => [min, max, min - 1, max + 1, (min + max) / 2 + 0.5, -0, 1e21];
    const wrong = [null, 'x', '1', true, [], {}];
    const fields: Record<string, readonly unknown[]> = {
      ts: [NOW, 1_000_000_000, 999_999_999, 9_999_999_999.999, 10_000_000_000, NOW + 0.25, ...wrong],
      seq: [...near(0, Number.MAX_SAFE_INTEGER), ...wrong],
      hr: [...near(0, 300), ...wrong],
      rr: [...near(0, 100), ...wrong],
      inBed: [true, false, 0, 1, ...wrong],
      asleep: [true, false, 'true', ...wrong],
      move: [...near(0, 100), ...wrong],
      rri: [
        [],
        [200, 3000, 812],
        [199],
        [3001],
        [800.5],
        ['800'],
        Array(601).fill(800),
        Array(600).fill(800),
        ...wrong,
      ],
      mat: ['connected', 'dislodged', 'CONNECTED', '', ...wrong],
      extra: [1, null, 'x'],
    };
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const raw: Record<string, unknown> = { ...vitals, seq: i };
      // Mostly one or two fields off a valid message, sometimes some left out.
      for (let k = Math.floor(random() * 3); k > 0; k--) {
        const [name, values] = pick(Object.entries(fields));
        raw[name] = pick(values);
      }
      if (random() < 0.1) delete raw[pick(Object.keys(raw))];
      if (random() < 0.3) raw.rri = pick(fields.rri ?? []);
      if (random() < 0.3) raw.mat = pick(fields.mat ?? []);
      const bySchema = TelemetrySchema.safeParse(raw);
      const byHand = fastTelemetry(raw);
      if (byHand !== undefined) {
        accepted++;
        expect(bySchema.success, JSON.stringify(raw)).toBe(true);
        expect(byHand).toStrictEqual(bySchema.data);
      }
      // Everything the schema takes, the hand reading takes too (else the speed-up is lost).
      if (bySchema.success) expect(byHand, JSON.stringify(raw)).toBeDefined();
    }
    expect(accepted).toBeGreaterThan(2_000);
  });
});
