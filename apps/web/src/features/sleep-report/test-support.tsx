import { cleanup, render } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { sessionStore } from '../../shared/session/session-store.ts';
import { installFakeCanvas } from '../../test/fake-canvas.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { installFakeApi, signInAs, type FakeApi } from '../devices/test-server.ts';
import { LocationProbe } from '../real-monitor/test-fixtures.tsx';
import { reportView } from './view-state.ts';

/**
 * The set-up every sleep-report screen test shares: English texts, a fresh view state and fake
 * server per test (its routes set by `routes`), a carer signed in, and fetch and session put back
 * afterwards. Screens with charts ask for `canvas`: the charts are unmounted before the canvas goes.
 * Call at the top of a test file.
 */
export const setUpReportScreens = (options: { routes: (fake: FakeApi) => void; canvas?: boolean }) => {
  let i18n: I18n | undefined;
  let restoreCanvas: (() => void) | undefined;
  const realFetch = globalThis.fetch;
  beforeAll(async () => {
    i18n = await englishI18n();
  });
  beforeEach(() => {
    reportView.reset();
    options.routes(installFakeApi());
    if (options.canvas) restoreCanvas = installFakeCanvas();
    signInAs('CARER');
  });
  afterEach(() => {
    if (options.canvas) {
      // The charts go before the canvas they draw on.
      cleanup();
      restoreCanvas?.();
    }
    globalThis.fetch = realFetch;
    sessionStore.reset();
  });
  const english = () => {
    if (!i18n) throw new Error('setUpReportScreens: the texts are loaded in beforeAll');
    return i18n;
  };
  return {
    /** The page alone, in the app's providers at `path`. */
    renderPage: (page: ReactNode, path: string) => render(inTestShell(english(), page, path)),
    /** The page in the app's providers at `path`, beside the probe showing the location (`location`). */
    renderWithLocation: (page: ReactNode, path: string) =>
      render(
        inTestShell(
          english(),
          <>
            {page}
            <LocationProbe />
          </>,
          path,
        ),
      ),
  };
};

/**
 * Catches the PDF download of `path`: the fake server sees the request, answers a few PDF bytes
 * with `headers`, and the names the browser would save it under are collected in `saved`.
 * Call `restore` when done (in a finally).
 */
export const catchPdfDownload = (fake: FakeApi, path: string, headers: Record<string, string> = {}) => {
  const saved: string[] = [];
  URL.createObjectURL = vi.fn(() => 'blob:report');
  URL.revokeObjectURL = vi.fn();
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  const fakeFetch = globalThis.fetch;
  globalThis.fetch = (async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    if (url.pathname !== path) return fakeFetch(input, init);
    fake.requests.push({ path: url.pathname, method: init?.method ?? 'GET', url, body: init?.body });
    return new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), {
      headers: { 'Content-Type': 'application/pdf', ...headers },
    });
  }) as typeof fetch;
  const restore = () => {
    globalThis.fetch = fakeFetch;
    click.mockRestore();
  };
  return { saved, restore };
};
