/** Runs of equal flags on a grid, the building block of bed, sleep and event spans. */

export interface Run {
  /** First index of the run. */
  from: number;
  /** One past the last index. */
  to: number;
}

/** Runs of indices where `test` holds, each at least `minLength` long. */
export function runsWhere(length: number, test: (i: number) => boolean, minLength = 1): Run[] {
  const runs: Run[] = [];
  let from = -1;
  for (let i = 0; i <= length; i++) {
    const holds = i < length && test(i);
    if (holds && from < 0) from = i;
    else if (!holds && from >= 0) {
      if (i - from >= minLength) runs.push({ from, to: i });
      from = -1;
    }
  }
  return runs;
}
