/**
 * A stored night as the database hands it over: text the server's thread only passes on, and
 * a worker thread turns back into minutes. On PGlite every row and value the database returns
 * is decoded on the server's own thread, beside devices and alarms; one string per slice of
 * the night, built by the database (`NightRepository.packedNightOf`), costs a fraction of
 * 600 rows with an `int[]` and a `bytea` each.
 *
 * A slice is its minutes joined by `;`, in minute order; a minute is
 * `<unix seconds>:<seconds, base64 (may hold line breaks)>:<beat intervals, ms, comma-separated>`,
 * either of the last two empty when nothing was kept.
 */
import type { StoredMinute } from './night-assembly.ts';

export type PackedNight = readonly (string | null)[];

const intervalsOf = (text: string): number[] | null => {
  if (!text) return null;
  const parts = text.split(',');
  const rri = new Array<number>(parts.length);
  for (let i = 0; i < parts.length; i++) rri[i] = Number(parts[i]);
  return rri;
};

/** The minutes of a packed night; a malformed minute is an error, not a quiet gap. */
export function unpackNight(night: PackedNight): StoredMinute[] {
  const minutes: StoredMinute[] = [];
  for (const slice of night) {
    if (!slice) continue;
    for (const minute of slice.split(';')) {
      const [at, seconds, rri, extra] = minute.split(':');
      const unix = Number(at);
      if (
        at === undefined ||
        seconds === undefined ||
        rri === undefined ||
        extra !== undefined ||
        !Number.isInteger(unix)
      )
        throw new Error(`a stored minute is malformed: ${minute.slice(0, 40)}`);
      minutes.push({
        minute: new Date(unix * 1000),
        seconds: seconds ? new Uint8Array(Buffer.from(seconds, 'base64')) : null,
        rri: intervalsOf(rri),
      });
    }
  }
  return minutes;
}
