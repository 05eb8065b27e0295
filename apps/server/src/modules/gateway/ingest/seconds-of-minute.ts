/**
 * A sleep monitor's minute, second by second, in 240 bytes (`device_second.seconds`, decision
 * 0026): the sleep analysis needs the one-second heart rate and flags that the minute's sums
 * lose, and a byte per value is all a bed sensor's readings need.
 *
 * Second i takes bytes 4i … 4i+3: heart rate (bpm, 0 no reading), breathing rate (per minute,
 * 0 no reading), movement (0–100, 255 not sent), flags (bit 0 a message came, bit 1 in bed,
 * bit 2 asleep). A second without a message is all zeros but for movement 255.
 */
export const BYTES_PER_SECOND = 4;
export const SECONDS_BYTES = 60 * BYTES_PER_SECOND;
const NO_MOVE = 255;
const REPORTED = 1;
const IN_BED = 2;
const ASLEEP = 4;

export interface SecondReading {
  hr: number;
  rr: number;
  move: number;
  inBed: boolean;
  asleep: boolean;
}

const byte = (value: number): number => Math.max(0, Math.min(254, Math.round(value)));

export function emptySeconds(): Uint8Array {
  const bytes = new Uint8Array(SECONDS_BYTES);
  for (let i = 0; i < 60; i++) bytes[i * BYTES_PER_SECOND + 2] = NO_MOVE;
  return bytes;
}

/** Writes second `second` (0–59) of the minute; a later message in the same second wins. */
export function writeSecond(bytes: Uint8Array, second: number, reading: SecondReading): void {
  if (!(second >= 0 && second < 60)) return;
  const at = second * BYTES_PER_SECOND;
  bytes[at] = byte(reading.hr);
  bytes[at + 1] = byte(reading.rr);
  bytes[at + 2] = byte(Math.min(100, reading.move));
  bytes[at + 3] = REPORTED | (reading.inBed ? IN_BED : 0) | (reading.asleep ? ASLEEP : 0);
}

/** What second `second` holds, or null when no message came in it. */
export function readSecond(bytes: Uint8Array, second: number): SecondReading | null {
  const at = second * BYTES_PER_SECOND;
  const flags = bytes[at + 3] ?? 0;
  if ((flags & REPORTED) === 0) return null;
  const move = bytes[at + 2] ?? NO_MOVE;
  return {
    hr: bytes[at] ?? 0,
    rr: bytes[at + 1] ?? 0,
    move: move === NO_MOVE ? 0 : move,
    inBed: (flags & IN_BED) !== 0,
    asleep: (flags & ASLEEP) !== 0,
  };
}
