import { act } from '@testing-library/react';

const initial = window.innerWidth;

/**
 * Gives the jsdom window a width (a phone's 390 px, a desktop's 1440 px) and tells listeners, as
 * a browser does on a resize. `restoreWindowWidth` puts back jsdom's own.
 */
export const setWindowWidth = (width: number): void => {
  act(() => {
    Object.defineProperty(window, 'innerWidth', { value: width, configurable: true, writable: true });
    window.dispatchEvent(new Event('resize'));
  });
};

export const restoreWindowWidth = (): void => setWindowWidth(initial);
