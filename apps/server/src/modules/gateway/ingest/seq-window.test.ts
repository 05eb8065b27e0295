import { describe, expect, it } from 'vitest';
import { SEQ_WINDOW, SeqWindow } from './seq-window.ts';

describe('SeqWindow', () => {
  it('takes each seq once per device', () => {
    const w = new SeqWindow();
    expect(w.take('A', 1)).toBe(true);
    expect(w.take('A', 2)).toBe(true);
    expect(w.take('A', 1)).toBe(false);
    expect(w.take('A', 2)).toBe(false);
    expect(w.take('B', 1)).toBe(true);
  });

  it('accepts out-of-order numbers inside the window once', () => {
    const w = new SeqWindow();
    expect(w.take('A', 10)).toBe(true);
    expect(w.take('A', 7)).toBe(true);
    expect(w.take('A', 7)).toBe(false);
    expect(w.take('A', 10 - SEQ_WINDOW + 1)).toBe(true);
  });

  it('treats a number far below the window as a restarted counter', () => {
    const w = new SeqWindow();
    for (let s = 5000; s < 5010; s++) w.take('A', s);
    expect(w.take('A', 0)).toBe(true);
    expect(w.take('A', 1)).toBe(true);
    expect(w.take('A', 0)).toBe(false);
    // The old numbers are beyond the new window's top and are taken again as new.
    expect(w.take('A', 5001)).toBe(true);
  });

  it('does not confuse two numbers sharing a slot', () => {
    const w = new SeqWindow();
    expect(w.take('A', 3)).toBe(true);
    expect(w.take('A', 3 + SEQ_WINDOW)).toBe(true);
    expect(w.take('A', 3 + SEQ_WINDOW)).toBe(false);
  });

  it('lets a released number be taken again', () => {
    const w = new SeqWindow();
    w.take('A', 4);
    w.release('A', 4);
    expect(w.take('A', 4)).toBe(true);
  });
});
