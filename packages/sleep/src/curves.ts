/**
 * A night's minute curves for the report's charts: heart and breathing averages, seconds of
 * body movement, and whether the resident lay in bed, per minute of the window. Kept with the
 * report, so a report outlives the raw seconds it was made from (they are purged after
 * `RAW_RETENTION_DAYS`).
 */
import { MOVEMENT_LEVEL } from './analyse.ts';
import type { NightSignals } from './night.ts';

export interface MinuteCurves {
  /** Unix seconds of minute 0 (the window's start). */
  start: number;
  /** Per minute: the mean of the measured seconds rounded to 0.1, or null when none was measured. */
  hr: (number | null)[];
  breath: (number | null)[];
  /** Per minute: seconds with movement at or above MOVEMENT_LEVEL; null when no second said. */
  move: (number | null)[];
  /** Per minute: 1 in bed for most of its reported seconds, 0 not, null when nothing was reported. */
  inBed: (0 | 1 | null)[];
}

const mean = (sum: number, n: number): number | null => (n ? Math.round((sum / n) * 10) / 10 : null);

export function minuteCurves(night: NightSignals): MinuteCurves {
  const minutes = Math.ceil(night.seconds / 60);
  const curves: MinuteCurves = { start: night.start, hr: [], breath: [], move: [], inBed: [] };
  for (let m = 0; m < minutes; m++) {
    let hrSum = 0;
    let hrN = 0;
    let rrSum = 0;
    let rrN = 0;
    let moving = 0;
    let moveN = 0;
    let bed = 0;
    let bedN = 0;
    const end = Math.min(night.seconds, (m + 1) * 60);
    for (let s = m * 60; s < end; s++) {
      const hr = night.hr[s] ?? Number.NaN;
      const rr = night.breath[s] ?? Number.NaN;
      const move = night.move[s] ?? Number.NaN;
      const inBed = night.inBed[s];
      if (!Number.isNaN(hr)) {
        hrSum += hr;
        hrN++;
      }
      if (!Number.isNaN(rr)) {
        rrSum += rr;
        rrN++;
      }
      if (!Number.isNaN(move)) {
        moveN++;
        if (move >= MOVEMENT_LEVEL) moving++;
      }
      if (inBed === 0 || inBed === 1) {
        bed += inBed;
        bedN++;
      }
    }
    curves.hr.push(mean(hrSum, hrN));
    curves.breath.push(mean(rrSum, rrN));
    curves.move.push(moveN ? moving : null);
    curves.inBed.push(bedN ? (bed * 2 >= bedN ? 1 : 0) : null);
  }
  return curves;
}
