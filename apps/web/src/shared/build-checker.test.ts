import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scriptSources, startBuildChecker } from './build-checker.ts';
import { dirtyForms } from './ui/dirty-forms.ts';

const page = (...srcs: string[]) =>
  `<html><head>${srcs.map((s) => `<script type="module" crossorigin src="${s}"></script>`).join('')}</head><body></body></html>`;

describe('scriptSources', () => {
  it('lists script src attributes sorted', () => {
    expect(scriptSources(page('/assets/b-2.js', '/assets/a-1.js'))).toEqual(['/assets/a-1.js', '/assets/b-2.js']);
  });

  it('ignores inline scripts, stylesheets and data-src', () => {
    const html =
      '<script>var x = 1;</script><link rel="stylesheet" href="/a.css"><script data-src="/nope.js"></script><img src="/x.png"><script src="/yes.js"></script>';
    expect(scriptSources(html)).toEqual(['/yes.js']);
  });

  it('returns an empty list for a page without scripts', () => {
    expect(scriptSources('<html><body>hi</body></html>')).toEqual([]);
  });
});

describe('startBuildChecker', () => {
  const INTERVAL = 1000;
  let stop: (() => void) | undefined;
  let script: HTMLScriptElement | undefined;

  beforeEach(() => {
    vi.useFakeTimers();
    // Added and removed alone: replacing <body> would detach the one testing-library's `screen`
    // is bound to, and clearing <head> antd's styles, for every later file in this worker (decision 0023).
    script = document.createElement('script');
    script.type = 'module';
    script.src = '/assets/index-aaa.js';
    document.head.append(script);
  });
  afterEach(() => {
    stop?.();
    stop = undefined;
    vi.useRealTimers();
    script?.remove();
  });

  it('does not reload while the scripts are unchanged, reloads once they change', async () => {
    let served = page('/assets/index-aaa.js');
    const fetchRoot = vi.fn(() => Promise.resolve(served));
    const onNewBuild = vi.fn();
    stop = startBuildChecker(onNewBuild, fetchRoot, INTERVAL);

    expect(fetchRoot).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(INTERVAL * 3);
    expect(fetchRoot).toHaveBeenCalledTimes(3);
    expect(onNewBuild).not.toHaveBeenCalled();

    served = page('/assets/index-bbb.js');
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(onNewBuild).toHaveBeenCalledTimes(1);
  });

  it('ignores failed fetches and pages without scripts', async () => {
    const fetchRoot = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce('<html>maintenance</html>')
      .mockResolvedValue(page('/assets/index-aaa.js'));
    const onNewBuild = vi.fn();
    stop = startBuildChecker(onNewBuild, fetchRoot, INTERVAL);
    await vi.advanceTimersByTimeAsync(INTERVAL * 3);
    expect(fetchRoot).toHaveBeenCalledTimes(3);
    expect(onNewBuild).not.toHaveBeenCalled();
  });

  it('waits for unsaved forms before reloading for a new build, and reloads once none is dirty', async () => {
    const fetchRoot = vi.fn(() => Promise.resolve(page('/assets/index-new.js')));
    const onNewBuild = vi.fn();
    let dirty = true;
    const unregister = dirtyForms.register(() => dirty);
    try {
      stop = startBuildChecker(onNewBuild, fetchRoot, INTERVAL);
      await vi.advanceTimersByTimeAsync(INTERVAL * 3);
      expect(fetchRoot).toHaveBeenCalledTimes(1);
      expect(onNewBuild).not.toHaveBeenCalled();
      dirtyForms.changed();
      expect(onNewBuild).not.toHaveBeenCalled();
      dirty = false;
      dirtyForms.changed();
      expect(onNewBuild).toHaveBeenCalledTimes(1);
      dirtyForms.changed();
      expect(onNewBuild).toHaveBeenCalledTimes(1);
    } finally {
      unregister();
    }
  });

  it('reloads when the only dirty form closes', async () => {
    const onNewBuild = vi.fn();
    const unregister = dirtyForms.register(() => true);
    stop = startBuildChecker(onNewBuild, () => Promise.resolve(page('/assets/index-new.js')), INTERVAL);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(onNewBuild).not.toHaveBeenCalled();
    unregister();
    expect(onNewBuild).toHaveBeenCalledTimes(1);
  });

  it('stops polling once stopped', async () => {
    const fetchRoot = vi.fn(() => Promise.resolve(page('/assets/index-new.js')));
    const onNewBuild = vi.fn();
    startBuildChecker(onNewBuild, fetchRoot, INTERVAL)();
    await vi.advanceTimersByTimeAsync(INTERVAL * 3);
    expect(fetchRoot).not.toHaveBeenCalled();
    expect(onNewBuild).not.toHaveBeenCalled();
  });
});
