import { ManualClock } from '../clock.ts';

/** The harness clock, reading the wall clock: for tests where real processes (browsers, devices) keep real time. */
export class WallClock extends ManualClock {
  override now(): Date {
    return new Date();
  }
}
