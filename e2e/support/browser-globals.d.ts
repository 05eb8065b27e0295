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
}

declare const window: { localStorage: E2eStorage };
interface E2eAnimation {
  playState: string;
  effect: { getTiming(): { iterations?: number } } | null;
}

declare const window: { localStorage: E2eStorage };
declare const document: {
  fonts: Iterable<E2eFontFace> & { ready: Promise<unknown> };
  getAnimations(): E2eAnimation[];
};

declare function getComputedStyle(element: unknown): { fontFamily: string };
