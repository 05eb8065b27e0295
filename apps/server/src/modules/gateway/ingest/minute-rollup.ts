import type { Telemetry } from '@vigil/contract';
import type { RawMinuteSamples } from '../../../db/schema.ts';
import type { DeviceContext } from './device-directory.ts';
import { emptySeconds, writeSecond } from './seconds-of-minute.ts';

/** A sample covers the time since the device's previous one, but never more than this. */
const MAX_SAMPLE_SECONDS = 10;

/** One sleep monitor's minute, being summed up. */
export interface MinuteSummary {
  deviceId: string;
  /** The minute's start, ms since the epoch (device clock). */
  minute: number;
  providerId: number | null;
  bedId: number | null;
  residentId: number | null;
  samples: number;
  hrSamples: number;
  hrMin: number | null;
  hrMax: number | null;
  hrSum: number;
  rrSamples: number;
  rrMin: number | null;
  rrMax: number | null;
  rrSum: number;
  inBedSeconds: number;
  asleepSeconds: number;
  moveSum: number;
  moveMax: number;
  rri: number[] | null;
  /** The minute second by second, for the sleep analysis (`seconds-of-minute.ts`). */
  seconds: Uint8Array;
  /** Present when the device's raw upload is on. */
  raw: RawMinuteSamples | null;
}

const emptyRaw = (): RawMinuteSamples => ({ t: [], hr: [], rr: [], inBed: [], asleep: [], move: [], rri: [] });

const minOf = (current: number | null, value: number) => (current === null || value < current ? value : current);
const maxOf = (current: number | null, value: number) => (current === null || value > current ? value : current);

/**
 * Sums sleep-monitor telemetry per device and minute in memory. A minute is handed over for
 * writing once the server's clock is `graceMs` past its end; a sample arriving later (a device
 * sending what it buffered) opens the minute again, and the writer merges both parts.
 */
export class MinuteRollup {
  private readonly open = new Map<string, Map<number, MinuteSummary>>();
  private readonly lastTs = new Map<string, number>();
  private count = 0;

  constructor(private readonly graceMs = 10_000) {}

  /** Minutes held in memory. */
  get size(): number {
    return this.count;
  }

  add(context: DeviceContext, t: Telemetry): void {
    const tsMs = t.ts * 1000;
    const minute = Math.floor(tsMs / 60_000) * 60_000;
    let minutes = this.open.get(context.deviceId);
    if (!minutes) {
      minutes = new Map();
      this.open.set(context.deviceId, minutes);
    }
    let m = minutes.get(minute);
    if (!m) {
      m = {
        deviceId: context.deviceId,
        minute,
        providerId: context.providerId,
        bedId: context.bedId,
        residentId: context.residentId,
        samples: 0,
        hrSamples: 0,
        hrMin: null,
        hrMax: null,
        hrSum: 0,
        rrSamples: 0,
        rrMin: null,
        rrMax: null,
        rrSum: 0,
        inBedSeconds: 0,
        asleepSeconds: 0,
        moveSum: 0,
        moveMax: 0,
        rri: null,
        seconds: emptySeconds(),
        raw: context.uploadData ? emptyRaw() : null,
      };
      minutes.set(minute, m);
      this.count++;
    }
    const previous = this.lastTs.get(context.deviceId);
    const gap = previous === undefined ? 1 : t.ts - previous;
    const seconds = gap > 0 && gap <= MAX_SAMPLE_SECONDS ? gap : 1;
    if (previous === undefined || t.ts > previous) this.lastTs.set(context.deviceId, t.ts);

    m.samples++;
    if (t.hr > 0) {
      m.hrSamples++;
      m.hrSum += t.hr;
      m.hrMin = minOf(m.hrMin, t.hr);
      m.hrMax = maxOf(m.hrMax, t.hr);
    }
    if (t.rr > 0) {
      m.rrSamples++;
      m.rrSum += t.rr;
      m.rrMin = minOf(m.rrMin, t.rr);
      m.rrMax = maxOf(m.rrMax, t.rr);
    }
    if (t.inBed) m.inBedSeconds += seconds;
    if (t.asleep) m.asleepSeconds += seconds;
    m.moveSum += t.move;
    m.moveMax = Math.max(m.moveMax, t.move);
    if (t.rri?.length) (m.rri ??= []).push(...t.rri);
    writeSecond(m.seconds, Math.floor((tsMs - minute) / 1000), t);
    if (m.raw) {
      m.raw.t.push(Math.round(tsMs - minute));
      m.raw.hr.push(t.hr);
      m.raw.rr.push(t.rr);
      m.raw.inBed.push(t.inBed ? 1 : 0);
      m.raw.asleep.push(t.asleep ? 1 : 0);
      m.raw.move.push(t.move);
      m.raw.rri.push(t.rri ?? []);
    }
  }

  /** Takes the minutes that ended more than the grace period before `nowMs`. */
  takeClosed(nowMs: number): MinuteSummary[] {
    return this.take((m) => m.minute + 60_000 + this.graceMs <= nowMs);
  }

  /** Takes every minute (on stop). */
  takeAll(): MinuteSummary[] {
    return this.take(() => true);
  }

  private take(closed: (m: MinuteSummary) => boolean): MinuteSummary[] {
    const out: MinuteSummary[] = [];
    for (const [deviceId, minutes] of this.open) {
      for (const [minute, m] of minutes) {
        if (!closed(m)) continue;
        out.push(m);
        minutes.delete(minute);
        this.count--;
      }
      if (!minutes.size) this.open.delete(deviceId);
    }
    return out;
  }
}
