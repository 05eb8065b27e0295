import { describe, expect, it } from 'vitest';
import { runsWhere } from './spans.ts';

describe('runsWhere', () => {
  it('finds runs, the last one reaching the end, and drops short ones', () => {
    const flags = [0, 1, 1, 0, 1, 0, 1, 1, 1];
    expect(runsWhere(flags.length, (i) => flags[i] === 1)).toEqual([
      { from: 1, to: 3 },
      { from: 4, to: 5 },
      { from: 6, to: 9 },
    ]);
    expect(runsWhere(flags.length, (i) => flags[i] === 1, 2)).toEqual([
      { from: 1, to: 3 },
      { from: 6, to: 9 },
    ]);
    expect(runsWhere(0, () => true)).toEqual([]);
  });
});
