import { useCallback, useRef, useState } from 'react';

/**
 * A button action that runs once at a time: a second click while the first request runs is
 * ignored (the flag is set before React re-renders the button as loading). Failures are the
 * action's to report (a mutation's onError); they do not escape as unhandled rejections.
 */
export const useGuardedAction = <A extends unknown[]>(action: (...args: A) => Promise<unknown>) => {
  const busy = useRef(false);
  const [pending, setPending] = useState(false);
  const latest = useRef(action);
  latest.current = action;
  const run = useCallback((...args: A) => {
    if (busy.current) return;
    busy.current = true;
    setPending(true);
    void latest
      .current(...args)
      .catch(() => undefined)
      .finally(() => {
        busy.current = false;
        setPending(false);
      });
  }, []);
  return { run, pending };
};
