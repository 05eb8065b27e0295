import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

const media = (): MediaQueryList | null =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : null;

const subscribe = (changed: () => void): (() => void) => {
  const list = media();
  list?.addEventListener('change', changed);
  return () => list?.removeEventListener('change', changed);
};

/**
 * True while the person's system asks for less motion (an accessibility setting, e.g. for
 * vestibular disorders): the console then opens dialogs, drawers and popups without animating
 * them. Followed live, as the setting can change while a shift's console stays open.
 */
export const useReducedMotion = (): boolean =>
  useSyncExternalStore(
    subscribe,
    () => media()?.matches ?? false,
    () => false,
  );
