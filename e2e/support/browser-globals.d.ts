// The browser globals page.evaluate callbacks use. Not the DOM lib: it clashes with the node
// types the in-process server is checked against.

interface E2eStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  clear(): void;
}

interface E2eFontFace {
  family: string;
  status: 'unloaded' | 'loading' | 'loaded' | 'error';
}

interface E2eElement {
  getAttribute(name: string): string | null;
  readonly tagName: string;
  readonly classList: Iterable<string>;
  readonly textContent: string | null;
  readonly scrollWidth: number;
  readonly clientWidth: number;
}

declare const window: { localStorage: E2eStorage; innerWidth: number };
interface E2eAnimation {
  playState: string;
  effect: { getTiming(): { iterations?: number } } | null;
}

declare const window: { localStorage: E2eStorage };
declare const document: {
  fonts: Iterable<E2eFontFace> & { ready: Promise<unknown> };
  getAnimations(): E2eAnimation[];
  documentElement: E2eElement;
  querySelectorAll(selectors: string): Iterable<E2eElement>;
};

declare function getComputedStyle(element: unknown): { fontFamily: string; overflowX: string };
