import { renderHook, waitFor } from '@testing-library/react';
import { getPlatformName, type PlatformInfo } from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { StorageKey, storage } from '../shared/storage.ts';
import { checkFakeAnswer } from '../test/contract-fakes.ts';
import { englishI18n, inTestShell } from '../test/render.tsx';
import { useBranding } from './use-branding.ts';

const STORED_LOGO = '/system/file?id=11111111-1111-4111-8111-111111111111';

/** The server's answer to getPlatformName is held until a test lets it go. */
let answer: (platform: PlatformInfo) => void = () => undefined;
const fetchMock = vi.fn(async (url: string) => {
  const path = new URL(url, 'http://localhost').pathname;
  if (path !== getPlatformName.path) return new Response(JSON.stringify({ status: 200, msg: 'ok', data: null }));
  const platform = await new Promise<PlatformInfo>((resolve) => {
    answer = resolve;
  });
  checkFakeAnswer(path, { status: 200, data: platform });
  return new Response(JSON.stringify({ status: 200, msg: 'ok', data: platform }));
});

let i18n: I18n;
let icon: HTMLLinkElement;
const realFetch = globalThis.fetch;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  icon = document.createElement('link');
  icon.id = 'app-favicon';
  icon.rel = 'icon';
  icon.setAttribute('href', 'data:,');
  document.head.append(icon);
});
afterEach(() => {
  icon.remove();
  globalThis.fetch = realFetch;
  storage.remove(StorageKey.logoUrl);
  storage.remove(StorageKey.platName);
});

const wrapper = ({ children }: { children: ReactNode }) => inTestShell(i18n, children);

describe('useBranding', () => {
  it('shows the remembered name and logo before the server answers, then what the server says', async () => {
    storage.set(StorageKey.platName, 'Maple Portal');
    storage.set(StorageKey.logoUrl, STORED_LOGO);
    renderHook(() => useBranding('/'), { wrapper });
    // A reload must not flash the default icon while the platform call is in flight.
    expect(icon.getAttribute('href')).toBe(STORED_LOGO);
    expect(document.title).toContain('Maple Portal');

    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    answer({ platformName: 'Birch Portal', logoUrl: null });
    // A logo removed since last time takes the icon away, and is forgotten.
    await waitFor(() => expect(icon.getAttribute('href')).toBe('data:,'));
    expect(document.title).toContain('Birch Portal');
    expect(storage.get(StorageKey.logoUrl)).toBeNull();
    expect(storage.get(StorageKey.platName)).toBe('Birch Portal');
  });
});
