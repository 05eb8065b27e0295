import type { RawMinuteSamples } from '../../../db/schema.ts';

/** The CSV's header line: the columns of `RawMinuteSamples`, with the sample's time first. */
export const RAW_CSV_HEADER = 'time,hr,rr,inBed,asleep,move,rri';

const DAY_MS = 86_400_000;

/** A UTC day (YYYY-MM-DD, already checked by the contract) as the instants it spans. */
export const utcDay = (day: string): { start: Date; end: Date } => {
  const start = new Date(`${day}T00:00:00.000Z`);
  return { start, end: new Date(start.getTime() + DAY_MS) };
};

const cell = (value: number | undefined | null): string =>
  value === undefined || value === null || !Number.isFinite(value) ? '' : String(value);

/**
 * The CSV lines of one stored minute: one per sample, in time order (samples arrive in order;
 * a late one is put in its place), each with its own time.
 */
export const csvLinesOfMinute = (minute: Date, s: RawMinuteSamples): string[] => {
  const start = minute.getTime();
  const order = s.t.map((_, i) => i).sort((a, b) => (s.t[a] ?? 0) - (s.t[b] ?? 0) || a - b);
  return order.map((i) =>
    [
      new Date(start + (s.t[i] ?? 0)).toISOString(),
      cell(s.hr[i]),
      cell(s.rr[i]),
      cell(s.inBed[i]),
      cell(s.asleep[i]),
      cell(s.move[i]),
      (s.rri[i] ?? []).map(cell).join(' '),
    ].join(','),
  );
};

/** A whole day's CSV: the header, then every sample of the minutes given (in time order). */
export const rawDayCsv = (minutes: readonly { minute: Date; samples: RawMinuteSamples }[]): string => {
  const lines = [RAW_CSV_HEADER];
  for (const m of minutes) lines.push(...csvLinesOfMinute(m.minute, m.samples));
  return `${lines.join('\r\n')}\r\n`;
};
