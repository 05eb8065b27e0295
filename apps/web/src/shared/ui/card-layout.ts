import { useSyncExternalStore } from 'react';

/**
 * Below this width (px) lists are cards instead of tables (issue 29, point 13): a table of six or
 * more columns on a phone scrolls sideways and hides the state behind the first columns. antd's md.
 */
export const CARD_LAYOUT_BELOW_PX = 768;

const subscribe = (onChange: () => void) => {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
};
const narrow = () => window.innerWidth < CARD_LAYOUT_BELOW_PX;

/**
 * Whether lists show as cards: the window is narrower than CARD_LAYOUT_BELOW_PX. Read from the
 * window's width (as the shell's mobile menu is), re-rendering only when the answer changes.
 */
export const useCardLayout = (): boolean => useSyncExternalStore(subscribe, narrow, () => false);
