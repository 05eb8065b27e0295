/**
 * A resident's night from what the database keeps of it (decision 0026): each minute's seconds
 * (`device_second`, 240 bytes) and beat intervals (`device_minute.rri`), laid on the one-second
 * grid the sleep analysis reads. A minute nobody stored stays a gap.
 */
import { BeatCollector, emptyNight, type NightSignals } from '@vigil/sleep';
import { readSecond } from '../gateway/index.ts';

export interface StoredMinute {
  /** The minute's start. */
  minute: Date;
  /** Null when the minute's seconds were not kept (written before decision 0026, or purged). */
  seconds: Uint8Array | null;
  /** Beat intervals (ms) in arrival order, when the device sent them. */
  rri: number[] | null;
}

const reading = (value: number): number => (value > 0 ? value : Number.NaN);

/** The night `[start, end)` (Unix seconds) from its stored minutes, in any order. */
export function assembleNight(start: number, end: number, minutes: readonly StoredMinute[]): NightSignals {
  const seconds = Math.max(0, Math.ceil(end - start));
  const night = emptyNight(start, seconds);
  const beats = new BeatCollector();
  for (const stored of minutes) {
    const minuteStart = Math.floor(stored.minute.getTime() / 1000);
    let lastReported = -1;
    for (let s = 0; s < 60 && stored.seconds; s++) {
      const second = readSecond(stored.seconds, s);
      const at = minuteStart - start + s;
      if (!second || at < 0 || at >= seconds) continue;
      lastReported = s;
      night.reported[at] = 1;
      night.hr[at] = reading(second.hr);
      night.breath[at] = reading(second.rr);
      night.move[at] = second.move;
      night.inBed[at] = second.inBed ? 1 : 0;
      night.asleep[at] = second.asleep ? 1 : 0;
    }
    // Intervals are kept in arrival order without their messages' times: the last beat ends
    // with the minute's last message, the others before it. Good to a second or two, which is
    // all the detectors' one-minute windows ask.
    if (stored.rri) beats.addEndingAt(minuteStart - start + (lastReported >= 0 ? lastReported + 1 : 60), stored.rri);
  }
  night.beats = beats.series();
  return night;
}
