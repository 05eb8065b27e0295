import { describe, expect, it, vi } from 'vitest';
import { warnWhenNoChromium } from './chromium.ts';

/** Issue 8, point 19: without Chromium the browser tests skipped silently, in CI too. */
describe('warnWhenNoChromium', () => {
  it('fails a browser suite under CI when Chromium is missing', () => {
    expect(() => warnWhenNoChromium('suite', false, true)).toThrow(/CI must run the browser tests/);
  });

  it('warns and lets the suite skip elsewhere, and says nothing when Chromium is there', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    warnWhenNoChromium('suite', false, false);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('e2e suite: skipped, no Chromium'));
    warn.mockClear();
    warnWhenNoChromium('suite', true, true);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});
