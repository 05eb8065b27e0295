import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { takeFakeViolations } from './contract-fakes.ts';

// antd's enter motions (form messages, dialogs) take several timer ticks; on a shared 2-core
// machine under load one second is not always enough for them to appear, and in the full run (the
// tenancy matrix on the other core) five were not once (a password dialog's field error).
configure({ asyncUtilTimeout: 10_000 });

// jsdom lacks these browser APIs that Ant Design relies on.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
// jsdom has no pseudo-element styles and logs each request for one (antd's scrollbar measure).
window.getComputedStyle = (
  (orig) => (el: Element) =>
    orig(el)
)(window.getComputedStyle);

// jsdom runs no CSS animations, so no animationend/transitionend ever fires; a style that
// claims to support them makes antd's motion wait forever to remove a closed dialog.
// Hide them so motion is skipped, as in a browser with animations turned off.
{
  let proto: object | null = Object.getPrototypeOf(document.createElement('div').style) as object;
  while (proto && !Object.getOwnPropertyDescriptor(proto, 'transition')) proto = Object.getPrototypeOf(proto) as object;
  if (proto) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (/^(webkit|moz|ms|o)?-?(animation|transition)$/i.test(name)) Reflect.deleteProperty(proto, name);
    }
  }
}

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// A fake answered something the real server never would: fail here, naming it.
afterEach(() => {
  const violations = takeFakeViolations();
  if (violations.length) throw new Error(`test fakes answered outside the contract:\n${violations.join('\n')}`);
});
